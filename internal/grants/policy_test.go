package grants

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestGlobMatch(t *testing.T) {
	t.Parallel()
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
			t.Parallel()
			assert.Equal(t, tt.want, globMatch(tt.pattern, tt.s))
		})
	}
}

func TestPolicy(t *testing.T) {
	t.Parallel()
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
			t.Parallel()
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
	t.Parallel()
	p, err := Grants{}.Compile()
	require.NoError(t, err)
	assert.False(t, p.AllowEnv("HOME"))
	assert.False(t, p.AllowDial("127.0.0.1:80"))
	assert.False(t, p.AllowImport("bin:sh"))
	var nilPolicy *Policy
	assert.False(t, nilPolicy.AllowEnv("HOME"))
}

func TestGrantErrors(t *testing.T) {
	t.Parallel()
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
			t.Parallel()
			_, err := tt.grants.Compile()
			require.Error(t, err)
			assert.Equal(t, tt.want, err.Error())
		})
	}
}

func TestGlobMatchStop(t *testing.T) {
	t.Parallel()
	tests := []struct {
		pattern, s string
		want       bool
	}{
		{"/run/app/*.sock", "/run/app/x.sock", true},
		{"/run/app/*.sock", "/run/app/.sock", true},
		{"/run/app/*.sock", "/run/app/sub/x.sock", false},
		{"/run/app/*.sock", "/run/app/../secret/docker.sock", false},
		{"/run/*/x.sock", "/run/a/x.sock", true},
		{"/run/*/x.sock", "/run/a/b/x.sock", false},
		{"/opt/*", "/opt/", true},
		{"/opt/*", "/opt/a/b", false},
		{"*", "a/b", false},
		{"*/*", "a/b", true},
		{"a*b*c", "aXbYc", true},
		{"a*b*c", "aXb/c", false},
		{"/a*/b", "/ax/c/b", false},
		{"*" + strings.Repeat("a*", 20) + "b", strings.Repeat("a", 200), false}, // no exponential backtracking
	}
	for _, tt := range tests {
		t.Run(tt.pattern+"~"+tt.s, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tt.want, globMatchStop(tt.pattern, tt.s, '/'))
		})
	}
}

// rtestAllow compiles grants and checks every case against one kind.
func rtestAllow(t *testing.T, g Grants, allow func(*Policy, string) bool, cases map[string]bool) {
	t.Helper()
	p, err := g.Compile()
	require.NoError(t, err)
	for what, want := range cases {
		assert.Equal(t, want, allow(p, what), "%q under %v", what, g)
	}
}

func allowImport(p *Policy, s string) bool { return p.AllowImport(s) }
func allowDial(p *Policy, s string) bool   { return p.AllowDial(s) }

// A '*' never covers a '/', and an absolute path needs a grant that is a
// path itself: "bin:*" and "*" must not tell a probe which files exist.
func TestImportGrantsPaths(t *testing.T) {
	t.Parallel()
	rtestAllow(t, Grants{Import: []string{"bin:*", "lib:*", "lib:/opt/cuda/*", "lib:/usr/lib/libpq.so.5", "k8s:*", "k8s:deployment/*"}}, allowImport, map[string]bool{
		"bin:docker":                       true,
		"bin:/usr/bin/docker":              false,
		"bin:/bin/sh":                      false,
		"lib:libpq.so.5":                   true,
		"lib:/etc/passwd":                  false,
		"lib:/usr/lib/libpq.so.5":          true, // an exact path grant
		"lib:/usr/lib/libpq.so.6":          false,
		"lib:/opt/cuda/libcuda.so.1":       true,
		"lib:/opt/cuda/x/y.so":             false,
		"lib:/opt/cuda/../../etc/passwd":   false,
		"lib:/opt/cuda/x/../libcuda.so.1":  false,
		"lib:/opt/cuda//libcuda.so.1":      false,
		"lib:/opt/cuda/./libcuda.so.1":     false,
		"lib:/opt/cuda/":                   false,
		"lib:/opt/cuda/..":                 false,
		"lib:/opt/cudax/libcuda.so.1":      false,
		"lib:x86_64-linux-gnu/libcuda.so":  false, // not a path, but '*' stops at '/'
		"k8s:web":                          true,
		"k8s:deployment/api":               true,
		"k8s:deployment/api/v2":            false,
		"k8s:statefulset/db":               false,
		"k8s:/etc/passwd":                  false,
		"k8s:..":                           false,
		"k8s:deployment/..":                false,
		"py:json":                          false,
		"nocolon":                          false,
		"bin:":                             false,
		"lib:libpq.so.5\x00/etc/passwd":    false,
		"lib:/usr/lib/libpq.so.5/../x.so":  false,
		"lib:/usr/lib/libpq.so.5\x00/../x": false,
	})
	rtestAllow(t, Grants{Import: []string{"*"}}, allowImport, map[string]bool{
		"bin:docker":         true,
		"py:email.mime.text": true,
		"k8s:web":            true,
		"lib:/etc/passwd":    false,
		"bin:/bin/sh":        false,
		"k8s:deployment/api": false,
		"py:..":              false,
	})
	rtestAllow(t, Grants{Import: []string{"*:/opt/*", "lib:*/*"}}, allowImport, map[string]bool{
		"lib:/opt/x.so":    true,
		"bin:/opt/tool":    true,
		"lib:/opt/a/x.so":  false,
		"lib:/optx.so":     false,
		"lib:/x.so":        false, // "*/*" is not a path: its '*' may be empty, but never reaches a path
		"lib:/usr/lib/x":   false,
		"lib:a/b":          true, // the resolver refuses it as a relative path
		"lib:/opt/../x.so": false,
	})
}

func TestImportGrantsExactAndCase(t *testing.T) {
	t.Parallel()
	rtestAllow(t, Grants{Import: []string{"py:psycopg2", "py:*.mime.*"}}, allowImport, map[string]bool{
		"py:psycopg2":        true,
		"py:Psycopg2":        false, // specs are case-sensitive
		"py:email.mime.text": true,
		"py:email.mime":      false,
		"PY:psycopg2":        false,
	})
}

func TestImportGrantErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		grant, want string
	}{
		{"psycopg2", `import grant "psycopg2": want scheme:name, like py:psycopg2 or bin:*`},
		{"py:", `import grant "py:": want scheme:name, like py:psycopg2 or bin:*`},
		{"lib:/opt/../etc/*", `import grant "lib:/opt/../etc/*": ".." is not allowed`},
		{"k8s:a/../b", `import grant "k8s:a/../b": ".." is not allowed`},
		{"lib:/opt//x.so", `import grant "lib:/opt//x.so": the path is not clean (no //, /./ or trailing /)`},
		{"lib:/opt/cuda/", `import grant "lib:/opt/cuda/": the path is not clean (no //, /./ or trailing /)`},
		{"lib:/opt/./x", `import grant "lib:/opt/./x": the path is not clean (no //, /./ or trailing /)`},
		{"Py:json", `import grant "Py:json": scheme "Py": want [a-z][a-z0-9+.-]*, with * for any run of those`},
		{"1py:json", `import grant "1py:json": scheme "1py": want [a-z][a-z0-9+.-]*, with * for any run of those`},
		{"py:a\x00b", `import grant "py:a\x00b": NUL is not allowed`},
	}
	for _, tt := range tests {
		t.Run(tt.grant, func(t *testing.T) {
			t.Parallel()
			_, err := Grants{Import: []string{tt.grant}}.Compile()
			assert.EqualError(t, err, tt.want)
		})
	}
	for _, good := range []string{"*", "*:*", "lib:/", "lib:/opt/*/lib64/*.so", "*:/opt/x", "k8s:deployment/*", "svc+tcp:x"} {
		_, err := Grants{Import: []string{good}}.Compile()
		assert.NoError(t, err, good)
	}
}

func TestImportSchemes(t *testing.T) {
	t.Parallel()
	p, err := Grants{Import: []string{"py:json", "lib:/opt/*", "bin:docker"}}.Compile()
	require.NoError(t, err)
	assert.Equal(t, []string{"bin", "lib", "py"}, p.ImportSchemes())
	p, err = Grants{Import: []string{"py:json", "*"}}.Compile()
	require.NoError(t, err)
	assert.Equal(t, []string{"*", "py"}, p.ImportSchemes())
	p, err = Grants{Import: []string{"p*:x"}}.Compile()
	require.NoError(t, err)
	assert.Equal(t, []string{"*"}, p.ImportSchemes())
}

func TestDialGrantsUnix(t *testing.T) {
	t.Parallel()
	rtestAllow(t, Grants{Dial: []string{"unix:/run/app/*.sock", "unix:/var/run/docker.sock", "unix:/srv/*/db.sock"}}, allowDial, map[string]bool{
		"unix:/run/app/x.sock":                                 true,
		"unix:/run/app/../secret/docker.sock":                  false,
		"unix:/run/app/x/../../secret/x.sock":                  false,
		"unix:/run/app/sub/x.sock":                             false,
		"unix:/run/app/x.sock/..":                              false,
		"unix:/run//app/x.sock":                                true, // cleaned before matching
		"unix:/run/app/./x.sock":                               true,
		"unix:/run/app/x.sock/":                                true,
		"unix:run/app/x.sock":                                  false, // relative: depends on gate's directory
		"unix:@abstract":                                       false,
		"unix:":                                                false,
		"unix:/var/run/docker.sock":                            true,
		"unix:/var/run/../run/docker.sock":                     false,
		"unix:/var/run/docker.sock\x00":                        false,
		"unix:/srv/a/db.sock":                                  true,
		"unix:/srv/a/b/db.sock":                                false,
		"unix:/srv/../db.sock":                                 false,
		"unix:/run/app/x..sock":                                false, // ".." anywhere
		"/run/app/x.sock":                                      false,
		"UNIX:/run/app/x.sock":                                 false,
		"unix:/run/app/" + strings.Repeat("a", 5000) + ".sock": true, // the 4 KiB cap is gate.dial's
	})
}

// The attack strings of the brief: a pattern meant for addresses must not
// hand a name to a resolver, and a name pattern must not reach deeper
// names.
func TestDialGrantsHosts(t *testing.T) {
	t.Parallel()
	rtestAllow(t, Grants{Dial: []string{
		"localhost:5432", "10.0.0.*:5432", "*.example.com:443", "DB.Internal.:5432", "10.*.0.1:22", "db-*:6379",
	}}, allowDial, map[string]bool{
		"localhost:5432":                     true,
		"LOCALHOST:5432":                     true,
		"localhost.:5432":                    true,
		"LocalHost.:5432":                    true,
		"localhost..:5432":                   false,
		"localhost:5433":                     false,
		"localhost:05432":                    true, // the same port number
		"localhost:+5432":                    false,
		"10.0.0.5:5432":                      true,
		"10.0.0.255:5432":                    true,
		"10.0.0.5.attacker.example:5432":     false,
		"10.0.0.attacker:5432":               false, // an IPv4 pattern matches IP literals only
		"10.0.0.05:5432":                     false, // octal to inet_aton: refused, not guessed
		"10.0.0.0x5:5432":                    false,
		"10.0.1.5:5432":                      false,
		"10.0.0.5:5433":                      false,
		"[::ffff:10.0.0.5]:5432":             true, // the same IPv4 address
		"[::ffff:10.0.1.5]:5432":             false,
		"a.example.com:443":                  true,
		"A.Example.COM.:443":                 true,
		"a.b.example.com:443":                false,
		"example.com:443":                    false,
		".example.com:443":                   false,
		"a.example.com.attacker.example:443": false,
		"a.example.com:444":                  false,
		"a_b.example.com:443":                true,
		"a b.example.com:443":                false,
		"db.internal:5432":                   true,
		"DB.INTERNAL:5432":                   true,
		"10.9.0.1:22":                        true,
		"10.9.9.1:22":                        false,
		"db-1:6379":                          true,
		"db-primary:6379":                    true,
		"db-1.attacker.example:6379":         false,
		"db:6379":                            false,
	})
}

func TestDialGrantsAnyHost(t *testing.T) {
	t.Parallel()
	rtestAllow(t, Grants{Dial: []string{"*:8080", "*.:9090"}}, allowDial, map[string]bool{
		"anything:8080":         true,
		"a.b.c.d.example:8080":  true,
		"1.2.3.4:8080":          true,
		"[2001:db8::1]:8080":    true,
		"[::ffff:1.2.3.4]:8080": true,
		"x:9090":                true,
		"x:8081":                false,
		"0x7f000001:8080":       false, // not a host name nor an address: -6
		"167772165:8080":        false,
		"10.5:8080":             false,
		"1.2.3.4.5:8080":        false,
		"[1.2.3.4]:8080":        false, // brackets are for IPv6
		"[localhost]:8080":      false,
		"2001:db8::1:8080":      false,
		"host:0":                false,
		"host:65536":            false,
		"host:":                 false,
		":8080":                 false,
		strings.Repeat("a", 64) + ".example:8080": false, // a label has at most 63 bytes
	})
}

func TestDialGrantsAddresses(t *testing.T) {
	t.Parallel()
	rtestAllow(t, Grants{Dial: []string{
		"127.0.0.1:*", "[::1]:6379", "192.168.0.0/16:*", "[fd00::/8]:*", "[::ffff:172.16.0.0/108]:443", "[fe80::1%lo]:80",
	}}, allowDial, map[string]bool{
		"127.0.0.1:1":           true,
		"127.0.0.1:65535":       true,
		"[::ffff:127.0.0.1]:80": true,
		"[::ffff:7f00:1]:80":    true,
		"127.0.0.2:80":          false,
		"[::1]:6379":            true,
		"[0:0::1]:6379":         true,
		"[0000:0000:0000:0000:0000:0000:0000:0001]:6379": true,
		"[::1]:6380":              false,
		"[::2]:6379":              false,
		"192.168.1.1:22":          true,
		"[::ffff:192.168.1.1]:22": true,
		"192.169.1.1:22":          false,
		"192.168.1.1.nip.io:22":   false,
		"[fd00::1]:80":            true,
		"[FD12:3456::1]:1":        true,
		"[fe80::2]:80":            false,
		"[::ffff:10.0.0.5]:80":    false, // IPv4, which no IPv4 grant names
		"172.16.1.1:443":          true,  // a mapped prefix is an IPv4 prefix
		"172.16.1.1:80":           false,
		"[fe80::1%lo]:80":         true,
		"[fe80::1]:80":            false,
		"[fe80::1%eth9]:80":       false,
	})
	// An IPv6 prefix never matches an IPv4 address, mapped or not.
	rtestAllow(t, Grants{Dial: []string{"[::/0]:*"}}, allowDial, map[string]bool{
		"[::1]:80":              true,
		"[2001:db8::1]:80":      true,
		"[::ffff:127.0.0.1]:80": false,
		"127.0.0.1:80":          false,
		"localhost:80":          false,
	})
}

func TestDialGrantErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		grant, want string
	}{
		{"localhost", `dial grant "localhost": want host:port or unix:/path`},
		{":80", `dial grant ":80": empty host (write "*:80" to allow any host)`},
		{"localhost:", `dial grant "localhost:": empty port (write "localhost:*" to allow any port)`},
		{"unix:", `dial grant "unix:": unix: needs a socket path`},
		{"", `dial grant "": empty address`},
		{"unix:/run/app/../secret/*.sock", `dial grant "unix:/run/app/../secret/*.sock": ".." is not allowed`},
		{"unix:run/x.sock", `dial grant "unix:run/x.sock": the socket path must be absolute`},
		{"localhost:5*", `dial grant "localhost:5*": port "5*": want a number from 1 to 65535, or *`},
		{"localhost:0", `dial grant "localhost:0": port "0": want a number from 1 to 65535, or *`},
		{"10.0.0.5/24:5432", `dial grant "10.0.0.5/24:5432": prefix "10.0.0.5/24" has host bits set: write 10.0.0.0/24`},
		{"10.0.0.0/33:5432", `dial grant "10.0.0.0/33:5432": prefix "10.0.0.0/33": want an address/bits prefix like 10.0.0.0/24 or [fd00::/8]`},
		{"[10.0.0.0/8]:80", `dial grant "[10.0.0.0/8]:80": prefix "10.0.0.0/8": IPv6 prefixes go in brackets, IPv4 ones do not`},
		{"fd00::/8:80", `dial grant "fd00::/8:80": want host:port or unix:/path`},
		{"[fd00::*]:80", `dial grant "[fd00::*]:80": [fd00::*]: want an IPv6 address or prefix in brackets, like [::1] or [fd00::/8] (no *)`},
		{"[10.0.0.1]:80", `dial grant "[10.0.0.1]:80": [10.0.0.1]: want an IPv6 address or prefix in brackets, like [::1] or [fd00::/8] (no *)`},
		{"10.0.*:5432", `dial grant "10.0.*:5432": "10.0.*": an IPv4 pattern has four octets, each 0-255 or *`},
		{"10.0.0.256:1", `dial grant "10.0.0.256:1": "10.0.0.256": an IPv4 pattern has four octets, each 0-255 or * ("256" is neither)`},
		{"10.0.0.1*:1", `dial grant "10.0.0.1*:1": "10.0.0.1*": an IPv4 pattern has four octets, each 0-255 or * ("1*" is neither)`},
		{"10.0.0.05:1", `dial grant "10.0.0.05:1": "10.0.0.05": an IPv4 pattern has four octets, each 0-255 or * ("05" is neither)`},
		{"a..b:80", `dial grant "a..b:80": host "a..b": labels have 1 to 63 characters`},
		{"foo.123:80", `dial grant "foo.123:80": host "foo.123" is neither an IP address nor a host name`},
		{"exa mple.com:80", `dial grant "exa mple.com:80": host "exa mple.com": ' ' is not allowed in a host name`},
	}
	for _, tt := range tests {
		t.Run(tt.grant, func(t *testing.T) {
			t.Parallel()
			_, err := Grants{Dial: []string{tt.grant}}.Compile()
			assert.EqualError(t, err, tt.want)
		})
	}
}

// What gate.dial should connect to is the form the grants matched.
func TestCheckDial(t *testing.T) {
	t.Parallel()
	p, err := Grants{Dial: []string{"localhost:5432", "[::1]:*", "127.0.0.0/8:*", "unix:/run/app/*.sock"}}.Compile()
	require.NoError(t, err)
	tests := []struct {
		addr, network, target string
		verdict               Verdict
	}{
		{"LocalHost.:5432", "tcp", "localhost:5432", Granted},
		{"localhost:05432", "tcp", "localhost:5432", Granted},
		{"[0:0::1]:6379", "tcp", "[::1]:6379", Granted},
		{"[::ffff:127.0.0.1]:80", "tcp", "127.0.0.1:80", Granted},
		{"unix:/run//app/./x.sock", "unix", "/run/app/x.sock", Granted},
		{"unix:/run/app/../secret/docker.sock", "", "", Malformed},
		{"10.0.0.05:80", "", "", Malformed},
		{"localhost:5433", "", "", Denied},
	}
	for _, tt := range tests {
		network, target, verdict := p.CheckDial(tt.addr)
		assert.Equal(t, tt.verdict, verdict, tt.addr)
		assert.Equal(t, tt.network, network, tt.addr)
		assert.Equal(t, tt.target, target, tt.addr)
	}
	_, _, verdict := (*Policy)(nil).CheckDial("localhost:5432")
	assert.Equal(t, Denied, verdict)
}

// TestABIDocGrantTables keeps the examples in the "Grants" section of
// docs/ABI.md true: every spec or address in a "matches" cell is granted
// by the row's grant, and every one in a "does not match" cell is not.
func TestABIDocGrantTables(t *testing.T) {
	t.Parallel()
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "ABI.md"))
	require.NoError(t, err)
	_, section, ok := strings.Cut(string(doc), "\n### Grants\n")
	require.True(t, ok)
	section, _, _ = strings.Cut(section, "\n## ")
	code := regexp.MustCompile("`([^`]+)`")
	kind, rows := "", 0
	for line := range strings.Lines(section) {
		cells := strings.Split(strings.TrimSpace(line), "|")
		if len(cells) != 5 {
			continue
		}
		first := strings.TrimSpace(cells[1])
		switch {
		case strings.HasSuffix(first, " grant"):
			kind = strings.TrimSuffix(first, " grant") // a table's header
			continue
		case strings.HasPrefix(first, "---"):
			continue
		}
		grants := []string{"*", "lib:*", "lib:/opt/cuda/*", "unix:/run/app/*"} // "(any)"
		if m := code.FindStringSubmatch(first); m != nil {
			grants = []string{m[1]}
		}
		for _, grant := range grants {
			var allow func(string) bool
			if kind == "dial" || strings.HasPrefix(grant, "unix:") {
				p, err := Grants{Dial: []string{grant}}.Compile()
				require.NoError(t, err, grant)
				allow = p.AllowDial
			} else {
				p, err := Grants{Import: []string{grant}}.Compile()
				require.NoError(t, err, grant)
				allow = p.AllowImport
			}
			for i, want := range map[int]bool{2: true, 3: false} {
				for _, m := range code.FindAllStringSubmatch(cells[i], -1) {
					if m[1] != "-6" {
						assert.Equal(t, want, allow(m[1]), "%s grant %s, request %s", kind, grant, m[1])
					}
				}
			}
		}
		rows++
	}
	assert.Equal(t, 15, rows, "rows checked")
}

// Grants is what the tests write: a Spec, as hostfuncs.Grants is.
type Grants = Spec

// boundTo binds the secret name to dests.
func boundTo(name string, dests ...string) map[string][]string {
	return map[string][]string{name: dests}
}
