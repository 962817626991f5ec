package probes

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gate-dev/gate/internal/grants"
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
		{"", `probe shorthand "": want KIND:VALUE, e.g. "env:DATABASE_URL", "tcp:localhost:5432" or "import:bin:docker" (kinds: env, tcp, import, http, https, redis, postgres, docker, mcp, tls, memcached)`},
		{"env", `probe shorthand "env": want KIND:VALUE, e.g. "env:DATABASE_URL", "tcp:localhost:5432" or "import:bin:docker" (kinds: env, tcp, import, http, https, redis, postgres, docker, mcp, tls, memcached)`},
		{":A", `probe shorthand ":A": want KIND:VALUE`},
		{"http:localhost:80", `probe shorthand "http:localhost:80": bad URL "http:localhost:80": want http://HOST[:PORT]/PATH or https://HOST[:PORT]/PATH`},
		{"ftp://x/", `probe shorthand "ftp://x/": unknown kind "ftp" (kinds: env, tcp, import, http, https, redis, postgres, docker, mcp, tls, memcached)`},
		{"ENV:A", `unknown kind "ENV" (kinds: env, tcp, import, http, https, redis, postgres, docker, mcp, tls, memcached)`},
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
		{"import:PY:x", `import grant "PY:x": scheme "PY"`},
		{"tcp:0:80", `dial grant "0:80"`},
		{"tcp:1.2.3:80", `dial grant "1.2.3:80"`},
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
		"https://api.example.com/v1/models bearer=K", `http://[::1]:8/x?k=${secret:K} method=POST header="X: a b" body="{\"a\":1}" status=200-299,301 expect_body=ok reject_body=err expect_header=X:y insecure=true timeout_ms=5`,
		"redis:tls:h:1 password=P user=u", "postgres:unix:/run/.s.PGSQL.5432 user=a database=b", "docker:", "docker: timeout_ms=1",
		"docker:unix:/d.sock", "mcp:http://h:1/mcp bearer=T header=X:y", "tls:h:443 days=30", `http://h/ body="a\\b\"c"`,
		"memcached:unix:/run/m.sock timeout_ms=5",
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
		// The grants compile, and allow what the probe will ask.
		policy, err := grants.Spec{Env: sh.Env, Dial: sh.Dial, Import: sh.Import, HTTP: sh.HTTP, Secrets: sh.Secrets}.Compile()
		require.NoError(t, err, "%q", s)
		for _, u := range []string{sh.Config["url"], "unix:" + sh.Config["socket"] + ":/_ping"} {
			if u == "unix::/_ping" || u == "" {
				continue
			}
			target, err := grants.ParseHTTPTarget(u)
			require.NoError(t, err, "%q", s)
			assert.True(t, policy.AllowHTTP(target), "%q: its grants %v refuse %q", s, sh.HTTP, u)
		}
		// Every secret is bound to the shorthand's own target alone, and
		// the grants bind it there.
		for n, dests := range sh.Secrets {
			assert.True(t, ValidEnvName(n), "secret %q", n)
			assert.Equal(t, []string{sh.Destination()}, dests, "secret %q", n)
		}
		c := sh.Config
		switch sh.Kind {
		case Env, TCP, Import:
			assert.Len(t, c, 1)
			assert.Empty(t, sh.HTTP)
			assert.Empty(t, sh.Secrets)
		}
		switch sh.Kind {
		case Env:
			assert.Equal(t, strings.Join(sh.Env, ","), c["vars"])
			assert.Empty(t, sh.Dial)
			assert.Empty(t, sh.Import)
		case TCP:
			assert.Equal(t, []string{c["addr"]}, sh.Dial)
			assert.Empty(t, sh.Env)
			assert.Empty(t, sh.Import)
		case Import:
			assert.Equal(t, strings.Join(sh.Import, ","), c["specs"])
			assert.Empty(t, sh.Env)
			assert.Empty(t, sh.Dial)
		case HTTP, MCP:
			// The grant is the URL without its query, and the secrets are
			// exactly the placeholders of what the probe sends.
			u, _, _ := strings.Cut(c["url"], "?")
			if strings.Count(u, "/") == 2 {
				u += "/"
			}
			assert.Equal(t, []string{u}, sh.HTTP)
			var want []string
			for _, k := range []string{"url", "headers", "body"} {
				names, err := secretNames(c[k])
				require.NoError(t, err)
				for _, n := range names {
					if !contains(want, n) {
						want = append(want, n)
					}
				}
			}
			if want == nil {
				assert.Nil(t, sh.Secrets)
			} else {
				assert.Equal(t, bound(u, want...), sh.Secrets)
			}
			assert.Empty(t, sh.Dial)
		case Redis:
			assert.Equal(t, []string{strings.TrimPrefix(c["addr"], "tls:")}, sh.Dial)
			if c["password"] != "" {
				assert.Equal(t, bound(c["addr"], c["password"]), sh.Secrets)
			} else {
				assert.Empty(t, sh.Secrets)
			}
			assert.Empty(t, sh.HTTP)
		case Postgres, TLS, Memcached:
			assert.Equal(t, []string{c["addr"]}, sh.Dial)
			assert.Empty(t, sh.HTTP)
			assert.Empty(t, sh.Secrets)
		case Docker:
			assert.Equal(t, []string{"unix:" + c["socket"] + ":/_ping"}, sh.HTTP)
			assert.Empty(t, sh.Dial)
			assert.Empty(t, sh.Secrets)
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

// bound is a secrets grant of names, each bound to dest alone.
func bound(dest string, names ...string) map[string][]string {
	m := make(map[string][]string, len(names))
	for _, n := range names {
		m[n] = []string{dest}
	}
	return m
}

// cfg builds a config map from key, value pairs.
func cfg(kv ...string) map[string]string {
	m := map[string]string{}
	for i := 0; i < len(kv); i += 2 {
		m[kv[i]] = kv[i+1]
	}
	return m
}

func TestParseShorthandV2(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want Shorthand
		str  string // canonical String(); "" means in
	}{
		{"https://api.example.com/v1/models bearer=OPENAI_API_KEY",
			Shorthand{Kind: HTTP, Config: cfg("url", "https://api.example.com/v1/models", "headers", "Authorization: Bearer ${secret:OPENAI_API_KEY}"),
				HTTP: []string{"https://api.example.com/v1/models"}, Secrets: bound("https://api.example.com/v1/models", "OPENAI_API_KEY")}, ""},
		{"http://127.0.0.1:8080", Shorthand{Kind: HTTP, Config: cfg("url", "http://127.0.0.1:8080"), HTTP: []string{"http://127.0.0.1:8080/"}}, ""},
		{"http://[::1]:8080/health/", Shorthand{Kind: HTTP, Config: cfg("url", "http://[::1]:8080/health/"), HTTP: []string{"http://[::1]:8080/health/"}}, ""},
		{`  http://h/x?key=${secret:K}&q=1   method=POST header="X-Trace: a b"  header=Authorization:${secret:TOKEN} body="{\"a\":\"${secret:B}\"}"` +
			` status="200-299, 301" expect_body=ok reject_body="\\error" expect_header=Content-Type:json insecure=true timeout_ms=0050 `,
			Shorthand{Kind: HTTP, Config: cfg("url", "http://h/x?key=${secret:K}&q=1", "method", "POST",
				"headers", "X-Trace: a b\nAuthorization: ${secret:TOKEN}", "body", `{"a":"${secret:B}"}`, "status", "200-299,301",
				"expect_body", "ok", "reject_body", `\error`, "expect_header", "Content-Type: json", "insecure", "true", "timeout_ms", "50"),
				HTTP: []string{"http://h/x"}, Secrets: bound("http://h/x", "K", "TOKEN", "B")},
			`http://h/x?key=${secret:K}&q=1 method=POST header="X-Trace:a b" header=Authorization:${secret:TOKEN} body="{\"a\":\"${secret:B}\"}"` +
				` status=200-299,301 expect_body=ok reject_body="\\error" expect_header=Content-Type:json insecure=true timeout_ms=50`},
		{"https://h/ header=Authorization:Bearer${secret:A} bearer=A header=\"Authorization:Bearer ${secret:A}\"",
			Shorthand{Kind: HTTP, Config: cfg("url", "https://h/", "headers",
				"Authorization: Bearer${secret:A}\nAuthorization: Bearer ${secret:A}\nAuthorization: Bearer ${secret:A}"),
				HTTP: []string{"https://h/"}, Secrets: bound("https://h/", "A")},
			`https://h/ header=Authorization:Bearer${secret:A} bearer=A header="Authorization:Bearer ${secret:A}"`},
		{"http://h/ expect_header=X-Ready:", Shorthand{Kind: HTTP, Config: cfg("url", "http://h/", "expect_header", "X-Ready: "), HTTP: []string{"http://h/"}}, ""},
		{"redis:127.0.0.1:6379", Shorthand{Kind: Redis, Config: cfg("addr", "127.0.0.1:6379"), Dial: []string{"127.0.0.1:6379"}}, ""},
		{"redis:127.0.0.1:6379 password=REDIS_PASSWORD", Shorthand{Kind: Redis, Config: cfg("addr", "127.0.0.1:6379", "password", "REDIS_PASSWORD"),
			Dial: []string{"127.0.0.1:6379"}, Secrets: bound("127.0.0.1:6379", "REDIS_PASSWORD")}, ""},
		{"https://h:8443/v1/a?k=${secret:K}&j=${secret:K}", Shorthand{Kind: HTTP, Config: cfg("url", "https://h:8443/v1/a?k=${secret:K}&j=${secret:K}"),
			HTTP: []string{"https://h:8443/v1/a"}, Secrets: bound("https://h:8443/v1/a", "K")}, ""},
		{"mcp:http://127.0.0.1:8080/mcp header=X-Key:${secret:MCP_KEY}", Shorthand{Kind: MCP,
			Config: cfg("url", "http://127.0.0.1:8080/mcp", "headers", "X-Key: ${secret:MCP_KEY}"),
			HTTP:   []string{"http://127.0.0.1:8080/mcp"}, Secrets: bound("http://127.0.0.1:8080/mcp", "MCP_KEY")}, ""},
		{"redis:tls:cache.internal:6380 password=REDIS_PASSWORD user=app timeout_ms=20",
			Shorthand{Kind: Redis, Config: cfg("addr", "tls:cache.internal:6380", "password", "REDIS_PASSWORD", "user", "app", "timeout_ms", "20"),
				Dial: []string{"cache.internal:6380"}, Secrets: bound("tls:cache.internal:6380", "REDIS_PASSWORD")}, ""},
		{"redis:unix:/run/redis.sock password=P", Shorthand{Kind: Redis, Config: cfg("addr", "unix:/run/redis.sock", "password", "P"),
			Dial: []string{"unix:/run/redis.sock"}, Secrets: bound("unix:/run/redis.sock", "P")}, ""},
		{"postgres:localhost:5432", Shorthand{Kind: Postgres, Config: cfg("addr", "localhost:5432", "user", "postgres", "database", "postgres"),
			Dial: []string{"localhost:5432"}}, ""},
		{"postgres:localhost:5432 user=postgres database=postgres", Shorthand{Kind: Postgres,
			Config: cfg("addr", "localhost:5432", "user", "postgres", "database", "postgres"), Dial: []string{"localhost:5432"}}, "postgres:localhost:5432"},
		{"postgres:unix:/run/postgresql/.s.PGSQL.5432 user=app", Shorthand{Kind: Postgres,
			Config: cfg("addr", "unix:/run/postgresql/.s.PGSQL.5432", "user", "app", "database", "app"), Dial: []string{"unix:/run/postgresql/.s.PGSQL.5432"}}, ""},
		{`postgres:[::1]:5432 user="my role" database=db`, Shorthand{Kind: Postgres,
			Config: cfg("addr", "[::1]:5432", "user", "my role", "database", "db"), Dial: []string{"[::1]:5432"}}, ""},
		{"docker:", Shorthand{Kind: Docker, Config: cfg("socket", "/var/run/docker.sock"), HTTP: []string{"unix:/var/run/docker.sock:/_ping"}}, ""},
		{"docker:unix:/var/run/docker.sock", Shorthand{Kind: Docker, Config: cfg("socket", "/var/run/docker.sock"),
			HTTP: []string{"unix:/var/run/docker.sock:/_ping"}}, "docker:"},
		{"docker: timeout_ms=50", Shorthand{Kind: Docker, Config: cfg("socket", "/var/run/docker.sock", "timeout_ms", "50"),
			HTTP: []string{"unix:/var/run/docker.sock:/_ping"}}, ""},
		{"docker:unix:/home/u/.docker/run/docker.sock timeout_ms=50", Shorthand{Kind: Docker,
			Config: cfg("socket", "/home/u/.docker/run/docker.sock", "timeout_ms", "50"), HTTP: []string{"unix:/home/u/.docker/run/docker.sock:/_ping"}}, ""},
		{"mcp:http://127.0.0.1:8080/mcp", Shorthand{Kind: MCP, Config: cfg("url", "http://127.0.0.1:8080/mcp"), HTTP: []string{"http://127.0.0.1:8080/mcp"}}, ""},
		{"mcp:https://mcp.example.com/ bearer=MCP_TOKEN header=X-Org:acme timeout_ms=80", Shorthand{Kind: MCP,
			Config: cfg("url", "https://mcp.example.com/", "headers", "Authorization: Bearer ${secret:MCP_TOKEN}\nX-Org: acme", "timeout_ms", "80"),
			HTTP:   []string{"https://mcp.example.com/"}, Secrets: bound("https://mcp.example.com/", "MCP_TOKEN")}, ""},
		{"tls:example.com:443", Shorthand{Kind: TLS, Config: cfg("addr", "example.com:443", "days", "14"), Dial: []string{"example.com:443"}}, ""},
		{"tls:example.com:443 days=14", Shorthand{Kind: TLS, Config: cfg("addr", "example.com:443", "days", "14"), Dial: []string{"example.com:443"}}, "tls:example.com:443"},
		{"tls:127.0.0.1:8443 days=0 timeout_ms=30", Shorthand{Kind: TLS, Config: cfg("addr", "127.0.0.1:8443", "days", "0", "timeout_ms", "30"),
			Dial: []string{"127.0.0.1:8443"}}, ""},
		{"memcached:127.0.0.1:11211", Shorthand{Kind: Memcached, Config: cfg("addr", "127.0.0.1:11211"), Dial: []string{"127.0.0.1:11211"}}, ""},
		{"memcached:unix:/run/memcached/memcached.sock timeout_ms=50", Shorthand{Kind: Memcached,
			Config: cfg("addr", "unix:/run/memcached/memcached.sock", "timeout_ms", "50"), Dial: []string{"unix:/run/memcached/memcached.sock"}}, ""},
		{"memcached:[::1]:11211 timeout_ms=007", Shorthand{Kind: Memcached, Config: cfg("addr", "[::1]:11211", "timeout_ms", "7"),
			Dial: []string{"[::1]:11211"}}, "memcached:[::1]:11211 timeout_ms=7"},
	} {
		t.Run(tc.in, func(t *testing.T) {
			got, err := ParseShorthand(tc.in)
			require.NoError(t, err)
			assert.Equal(t, tc.want, got)
			want := tc.str
			if want == "" {
				want = strings.TrimSpace(tc.in)
			}
			assert.Equal(t, want, got.String())
			again, err := ParseShorthand(got.String())
			require.NoError(t, err)
			assert.Equal(t, got, again, "String must round-trip")
		})
	}
}

func TestParseShorthandV2Errors(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"https://", `bad URL "https://": empty host`},
		{"mcp:", `probe shorthand "mcp:": empty target; want e.g. "mcp:http://127.0.0.1:8080/mcp"`},
		{"redis: password=P", `empty target; want e.g. "redis:127.0.0.1:6379 password=REDIS_PASSWORD"`},
		{"mcp:ftp://h/", `bad URL "ftp://h/": want http://HOST[:PORT]/PATH or https://HOST[:PORT]/PATH`},
		{"http://h/a#b", `a fragment (#...) is never sent`},
		{"http://u:p@h/", `user info (user@host) is not allowed`},
		{"http://h/${secret:K}", `${secret:NAME} may appear only in the query`},
		{"http://h:0/", `port "0" is not a number from 1 to 65535`},
		{"http://h:08/", `port "08" is not a number from 1 to 65535`},
		{"http://h:/", `port "" is not a number from 1 to 65535`},
		{"http://[::1/", `missing ] in host "[::1"`},
		{"http://[127.0.0.1]/", `only IPv6 addresses (without a zone) go in brackets, not "127.0.0.1"`},
		{"http://[::1]x/", `want [IPV6]:PORT, not "[::1]x"`},
		{"http://h%41/", `bad host "h%41"`},
		{"http://h//x", `path "//x" is not clean`},
		{"http://h/a/./b", `path "/a/./b" is not clean`},
		{"http://h/?k=${secret:1K}", `url: bad placeholder "${secret:1K}"`},
		{"http://h/?k=${secret:K", `url: bad placeholder "${secret:K"`},
		{"http://h/ header=X:${secret:A-B}", `headers: bad placeholder "${secret:A-B}"`},
		{"http://h/ nope", `"nope" is not an option; want key=value (options: method, bearer, header, body, status, expect_body, reject_body, expect_header, insecure, timeout_ms)`},
		{"http://h/ days=3", `unknown option "days" (options for http: method, bearer, header`},
		{"http://h/ =3", `unknown option ""`},
		{"http://h/ method=GET method=HEAD", `option method given twice`},
		{"http://h/ bearer=A bearer=B", `option bearer given twice`},
		{"http://h/ method=", `option method: empty value`},
		{`http://h/ body=""`, `option body: empty value`},
		{`http://h/ body="abc`, `option body: unterminated quoted value`},
		{`http://h/ body="a\nb"`, `option body: in a quoted value, \ must be followed by " or \`},
		{`http://h/ body="a"b`, `option body: want whitespace after the closing quote`},
		{"http://h/ method=get", `option method: "get" is not a method`},
		{"http://h/ bearer=my-key", `option bearer: bad secret name "my-key"`},
		{"http://h/ header=NoColon", `option header: want header=Name:value (quoted if the value has spaces), not "NoColon"`},
		{"http://h/ header=X:", `option header: want header=Name:value`},
		{`http://h/ header="Bad Name:x"`, `option header: want header=Name:value`},
		{"http://h/ header=\"X:a\x01b\"", `option header: want header=Name:value`},
		{"http://h/ expect_header=:x", `option expect_header: want expect_header=Name:text`},
		{"http://h/ status=200-199", `option status: "200-199" is not a status code (100 to 599) or a range of them like 200-299`},
		{"http://h/ status=600", `"600" is not a status code`},
		{"http://h/ status=2xx", `"2xx" is not a status code`},
		{"http://h/ status=,", `option status: no status codes in ","`},
		{"http://h/ insecure=yes", `option insecure: want insecure=true`},
		{"http://h/ timeout_ms=-1", `option timeout_ms: "-1" is not a whole number of milliseconds (0 to 2147483647)`},
		{"http://h/ timeout_ms=2147483648", `"2147483648" is not a whole number`},
		{"mcp:http://h/ method=POST", `unknown option "method" (options for mcp: bearer, header, timeout_ms)`},
		{"redis:h", `bad address "h": want HOST:PORT, [IPV6]:PORT or unix:/PATH`},
		{"redis:tls:unix:/x", `bad address "tls:unix:/x": TLS over a unix socket is not supported`},
		{"redis:h:1 user=app", `option user needs password=SECRET too`},
		{"redis:h:1 password=p-w", `option password: want the name of the secret that holds it`},
		{`redis:h:1 password=P user="a b"`, `option user: "a b" holds a control character, a space or a quote`},
		{"postgres:h", `bad address "h"`},
		{"postgres:h:1 user=\"a\x00b\"", `option user: "a\x00b" holds a control character`},
		{"postgres:h:1 password=P", `unknown option "password" (options for postgres: user, database, timeout_ms)`},
		{"docker:nope", `bad socket "nope": want docker: (for /var/run/docker.sock) or docker:unix:/ABSOLUTE/PATH`},
		{"docker:unix:rel.sock", `bad socket "unix:rel.sock"`},
		{"docker:/var/run/docker.sock", `bad socket "/var/run/docker.sock"`},
		{"tls:unix:/x", `bad address "unix:/x": TLS needs HOST:PORT`},
		{"tls:h:443 days=36501", `option days: "36501" is not a whole number of days (0 to 36500)`},
		{"tls:h", `bad address "h"`},
		{"memcached:", `probe shorthand "memcached:": empty target; want e.g. "memcached:127.0.0.1:11211"`},
		{"memcached: timeout_ms=5", `empty target; want e.g. "memcached:127.0.0.1:11211"`},
		{"memcached:h", `bad address "h": want HOST:PORT, [IPV6]:PORT or unix:/PATH`},
		{"memcached:tls:h:1", `bad address "tls:h:1": want HOST:PORT, [IPV6]:PORT or unix:/PATH (address tls:h:1: too many colons in address)`},
		{"memcached:unix:run/m.sock", `bad address "unix:run/m.sock": want unix:/PATH with an absolute, clean path`},
		{"memcached:h:1 password=P", `unknown option "password" (options for memcached: timeout_ms)`},
		{"memcached:0:11211", `bad target "0:11211": dial grant "0:11211"`},
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
