package probes

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseShorthand(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want Shorthand
		str  string // canonical String(); "" means in
	}{
		{"env:DATABASE_URL", Shorthand{Kind: Env, Config: map[string]string{"vars": "DATABASE_URL"}, Env: []string{"DATABASE_URL"}}, ""},
		{"env:A,B", Shorthand{Kind: Env, Config: map[string]string{"vars": "A,B"}, Env: []string{"A", "B"}}, ""},
		{" env: A, B  _c9,A ", Shorthand{Kind: Env, Config: map[string]string{"vars": "A,B,_c9"}, Env: []string{"A", "B", "_c9"}}, "env:A,B,_c9"},
		{"tcp:localhost:5432", Shorthand{Kind: TCP, Config: map[string]string{"addr": "localhost:5432"}, Dial: []string{"localhost:5432"}}, ""},
		{"tcp:127.0.0.1:6379", Shorthand{Kind: TCP, Config: map[string]string{"addr": "127.0.0.1:6379"}, Dial: []string{"127.0.0.1:6379"}}, ""},
		{"tcp:[::1]:6379", Shorthand{Kind: TCP, Config: map[string]string{"addr": "[::1]:6379"}, Dial: []string{"[::1]:6379"}}, ""},
		{"tcp:[fe80::1%eth0]:80", Shorthand{Kind: TCP, Config: map[string]string{"addr": "[fe80::1%eth0]:80"}, Dial: []string{"[fe80::1%eth0]:80"}}, ""},
		{"tcp:db.internal:65535", Shorthand{Kind: TCP, Config: map[string]string{"addr": "db.internal:65535"}, Dial: []string{"db.internal:65535"}}, ""},
		{"tcp:unix:/var/run/docker.sock", Shorthand{Kind: TCP, Config: map[string]string{"addr": "unix:/var/run/docker.sock"}, Dial: []string{"unix:/var/run/docker.sock"}}, ""},
		{"import:py:psycopg2,bin:docker", Shorthand{Kind: Import, Config: map[string]string{"specs": "py:psycopg2,bin:docker"}, Import: []string{"py:psycopg2", "bin:docker"}}, ""},
		{"import:lib:libpq.so.5 py:a.b:c", Shorthand{Kind: Import, Config: map[string]string{"specs": "lib:libpq.so.5,py:a.b:c"}, Import: []string{"lib:libpq.so.5", "py:a.b:c"}}, "import:lib:libpq.so.5,py:a.b:c"},
	} {
		t.Run(tc.in, func(t *testing.T) {
			got, err := ParseShorthand(tc.in)
			require.NoError(t, err)
			assert.Equal(t, tc.want, got)
			want := tc.str
			if want == "" {
				want = tc.in
			}
			assert.Equal(t, want, got.String())
			again, err := ParseShorthand(got.String())
			require.NoError(t, err)
			assert.Equal(t, got, again, "String must round-trip")
		})
	}
}

func TestParseShorthandErrors(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"", `probe shorthand "": want KIND:VALUE, e.g. "env:DATABASE_URL", "tcp:localhost:5432" or "import:bin:docker" (kinds: env, tcp, import)`},
		{"env", `probe shorthand "env": want KIND:VALUE, e.g. "env:DATABASE_URL", "tcp:localhost:5432" or "import:bin:docker" (kinds: env, tcp, import)`},
		{":A", `probe shorthand ":A": want KIND:VALUE`},
		{"http:localhost:80", `probe shorthand "http:localhost:80": unknown kind "http" (kinds: env, tcp, import)`},
		{"ENV:A", `unknown kind "ENV" (kinds: env, tcp, import)`},
		{"env:", `probe shorthand "env:": empty value; want e.g. "env:DATABASE_URL"`},
		{"env: , ", `probe shorthand "env: , ": empty value; want e.g. "env:DATABASE_URL"`},
		{"tcp:", `probe shorthand "tcp:": empty value; want e.g. "tcp:localhost:5432"`},
		{"import:", `probe shorthand "import:": empty value; want e.g. "import:bin:docker"`},
		{"env:1A", `probe shorthand "env:1A": bad environment variable name "1A": want letters, digits and _, not starting with a digit`},
		{"env:A,B-C", `bad environment variable name "B-C"`},
		{"env:A=1", `bad environment variable name "A=1"`},
		{"tcp:localhost", `probe shorthand "tcp:localhost": bad address "localhost": want HOST:PORT, [IPV6]:PORT or unix:/PATH (address localhost: missing port in address)`},
		{"tcp:::1:6379", `bad address "::1:6379": want HOST:PORT, [IPV6]:PORT or unix:/PATH (address ::1:6379: too many colons in address)`},
		{"tcp::80", `bad address ":80": empty host; want HOST:PORT`},
		{"tcp:host:0", `bad address "host:0": port "0" is not a number from 1 to 65535`},
		{"tcp:host:65536", `port "65536" is not a number from 1 to 65535`},
		{"tcp:host:080", `port "080" is not a number from 1 to 65535`},
		{"tcp:host:http", `port "http" is not a number from 1 to 65535`},
		{"tcp:host:+80", `port "+80" is not a number from 1 to 65535`},
		{"tcp:host:", `port "" is not a number from 1 to 65535`},
		{"tcp:[localhost]:80", `bad address "[localhost]:80": only IPv6 addresses go in brackets, not "localhost"`},
		{"tcp:[127.0.0.1]:80", `only IPv6 addresses go in brackets, not "127.0.0.1"`},
		{"tcp:my host:80", `bad address "my host:80": contains whitespace or control characters`},
		{"tcp:unix:", `bad address "unix:": want unix:/PATH with an absolute, clean path`},
		{"tcp:unix:run/docker.sock", `want unix:/PATH with an absolute, clean path`},
		{"tcp:unix:/var/run/../docker.sock", `want unix:/PATH with an absolute, clean path`},
		{"import:docker", `probe shorthand "import:docker": bad import spec "docker": want SCHEME:NAME, e.g. py:psycopg2, bin:docker or lib:libpq.so.5`},
		{"import:py:", `bad import spec "py:"`},
		{"import::x", `bad import spec ":x"`},
		{"import:1py:x", `bad import spec "1py:x"`},
		{"import:py_2:x", `bad import spec "py_2:x"`},
	} {
		t.Run(tc.in, func(t *testing.T) {
			got, err := ParseShorthand(tc.in)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
			assert.Contains(t, err.Error(), strconv.Quote(tc.in), "the error names the input")
			assert.Equal(t, Shorthand{}, got)
		})
	}
}

func TestShorthandStringOfOddValues(t *testing.T) {
	assert.Equal(t, "", Shorthand{}.String())
	assert.Equal(t, "nope:", Shorthand{Kind: "nope"}.String())
}

// FuzzParseShorthand checks that ParseShorthand never panics, that its
// errors say something and name the input, and that what it accepts
// round-trips through String and grants only what the config checks.
func FuzzParseShorthand(f *testing.F) {
	for _, s := range []string{
		"env:A,B", "tcp:localhost:5432", "tcp:[::1]:6379", "tcp:unix:/var/run/docker.sock",
		"import:py:psycopg2,bin:docker", "", ":", "env:", "tcp:[::1", "import:a:b c:d", "env:\x00A",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		sh, err := ParseShorthand(s)
		if err != nil {
			if err.Error() == "" || !strings.Contains(err.Error(), strconv.Quote(s)) {
				t.Fatalf("error %q does not name the input %q", err, s)
			}
			return
		}
		again, err := ParseShorthand(sh.String())
		if err != nil {
			t.Fatalf("%q parsed to %q, which does not parse: %v", s, sh.String(), err)
		}
		assert.Equal(t, sh, again)
		assert.Len(t, sh.Config, 1)
		switch sh.Kind {
		case Env:
			assert.Equal(t, strings.Join(sh.Env, ","), sh.Config["vars"])
			assert.Empty(t, sh.Dial)
			assert.Empty(t, sh.Import)
		case TCP:
			assert.Equal(t, []string{sh.Config["addr"]}, sh.Dial)
			assert.Empty(t, sh.Env)
			assert.Empty(t, sh.Import)
		case Import:
			assert.Equal(t, strings.Join(sh.Import, ","), sh.Config["specs"])
			assert.Empty(t, sh.Env)
			assert.Empty(t, sh.Dial)
		default:
			t.Fatalf("unknown kind %q", sh.Kind)
		}
	})
}

// TestSplitListLong: a long list drops repeats and keeps the first
// occurrences' order, as a short one does.
func TestSplitListLong(t *testing.T) {
	var in, want []string
	for i := range 40 {
		in = append(in, fmt.Sprint("V", i%25))
		if i < 25 {
			want = append(want, fmt.Sprint("V", i))
		}
	}
	assert.Equal(t, want, splitList(strings.Join(in, ", ")))
	assert.Equal(t, []string{"B", "A"}, splitList("B A,B  A"))
}
