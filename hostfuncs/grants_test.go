package hostfuncs

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestGlobMatch(t *testing.T) {
	tests := []struct {
		pattern, s string
		want       bool
	}{
		{"AWS_*", "AWS_SECRET", true},
		{"AWS_*", "AWS_", true},
		{"AWS_*", "XAWS_SECRET", false},
		{"*", "", true},
		{"*", "anything", true},
		{"a*b*c", "abc", true},
		{"a*b*c", "aXXbYYc", true},
		{"a*b*c", "aXXbYY", false},
		{"*:6379", "redis:6379", true},
		{"*:6379", "redis:63790", false},
		{"localhost:*", "localhost:5432", true},
		{"exact", "exact", true},
		{"exact", "exac", false},
		{"**", "x", true},
		{"a*a*a*a*a*b", strings.Repeat("a", 200), false}, // no exponential backtracking
	}
	for _, tt := range tests {
		t.Run(tt.pattern+"~"+tt.s, func(t *testing.T) {
			assert.Equal(t, tt.want, globMatch(tt.pattern, tt.s))
		})
	}
}

func TestPolicy(t *testing.T) {
	p, err := Grants{
		Env:    []string{"SERP_API_KEY", "AWS_*"},
		Dial:   []string{"LocalHost:5432", "127.0.0.1:*", "unix:/var/run/docker.sock", "[::1]:6379"},
		Import: []string{"py:psycopg2", "bin:*"},
	}.Compile()
	require.NoError(t, err)

	tests := []struct {
		kind, what string
		want       bool
	}{
		{"env", "SERP_API_KEY", true},
		{"env", "AWS_SECRET_ACCESS_KEY", true},
		{"env", "HOME", false},
		{"env", "serp_api_key", false}, // case-sensitive, as the environment is
		{"dial", "localhost:5432", true},
		{"dial", "LOCALHOST:5432", true}, // host names compare in lower case
		{"dial", "localhost:5433", false},
		{"dial", "127.0.0.1:6379", true},
		{"dial", "127.0.0.2:6379", false},
		{"dial", "unix:/var/run/docker.sock", true},
		{"dial", "unix:/tmp/docker.sock", false},
		{"dial", "[::1]:6379", true},
		{"import", "py:psycopg2", true},
		{"import", "py:psycopg", false},
		{"import", "bin:docker", true},
		{"import", "lib:libpq.so.5", false},
	}
	for _, tt := range tests {
		t.Run(tt.kind+" "+tt.what, func(t *testing.T) {
			var got bool
			switch tt.kind {
			case "env":
				got = p.AllowEnv(tt.what)
			case "dial":
				got = p.AllowDial(tt.what)
			case "import":
				got = p.AllowImport(tt.what)
			}
			assert.Equal(t, tt.want, got)
		})
	}
	assert.Equal(t, []string{"bin", "py"}, p.ImportSchemes())
}

func TestZeroPolicyDeniesEverything(t *testing.T) {
	p, err := Grants{}.Compile()
	require.NoError(t, err)
	assert.False(t, p.AllowEnv("HOME"))
	assert.False(t, p.AllowDial("127.0.0.1:80"))
	assert.False(t, p.AllowImport("bin:sh"))
	var nilPolicy *Policy
	assert.False(t, nilPolicy.AllowEnv("HOME"))
}

func TestGrantErrors(t *testing.T) {
	tests := []struct {
		grants Grants
		want   string
	}{
		{Grants{Env: []string{""}}, `env grant "": empty name`},
		{Grants{Env: []string{"A-B"}}, `env grant "A-B": '-' is not allowed in a variable name`},
		{Grants{Dial: []string{"localhost"}}, `dial grant "localhost": want host:port or unix:/path`},
		{Grants{Dial: []string{":80"}}, `dial grant ":80": empty host (write "*:80" to allow any host)`},
		{Grants{Dial: []string{"unix:"}}, `dial grant "unix:": unix: needs a socket path`},
		{Grants{Import: []string{"psycopg2"}}, `import grant "psycopg2": want scheme:name, like py:psycopg2 or bin:*`},
	}
	for _, tt := range tests {
		t.Run(tt.want, func(t *testing.T) {
			_, err := tt.grants.Compile()
			require.Error(t, err)
			assert.Equal(t, tt.want, err.Error())
		})
	}
}

func TestGrantsMerge(t *testing.T) {
	g := Grants{Env: []string{"B", "A"}}.Merge(Grants{Env: []string{"A", "C"}, Dial: []string{"x:1"}})
	assert.Equal(t, Grants{Env: []string{"A", "B", "C"}, Dial: []string{"x:1"}}, g)
}

func TestClipUTF8(t *testing.T) {
	tests := []struct {
		name string
		in   []byte
		max  int
		want string
	}{
		{"short", []byte("hello"), 10, "hello"},
		{"cut ascii", []byte("hello"), 3, "hel"},
		{"cut inside a rune", []byte("aé"), 2, "a"},        // é is 2 bytes
		{"cut inside a 4-byte rune", []byte("a😀"), 4, "a"}, // 😀 is 4 bytes
		{"whole rune at the end", []byte("aé"), 3, "aé"},
		{"invalid bytes replaced", []byte{'a', 0xff, 'b'}, 10, "a\uFFFDb"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, clipUTF8(tt.in, tt.max))
		})
	}
}
