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

func TestParseHTTPTarget(t *testing.T) {
	t.Parallel()
	tests := []struct {
		raw  string
		want HTTPTarget
		url  string // String(); "" means raw
	}{
		{"https://api.example.com/v1/models?q=1",
			HTTPTarget{Scheme: "https", Host: "api.example.com", Port: 443, Path: "/v1/models", RawQuery: "q=1"}, ""},
		{"http://127.0.0.1:8080/health",
			HTTPTarget{Scheme: "http", Host: "127.0.0.1", Port: 8080, Path: "/health"}, ""},
		{"HTTPS://API.EXAMPLE.COM./v1/x",
			HTTPTarget{Scheme: "https", Host: "api.example.com", Port: 443, Path: "/v1/x"}, "https://api.example.com/v1/x"},
		{"https://api.example.com:443/v1/",
			HTTPTarget{Scheme: "https", Host: "api.example.com", Port: 443, Path: "/v1/"}, "https://api.example.com/v1/"},
		{"http://api.example.com:443/",
			HTTPTarget{Scheme: "http", Host: "api.example.com", Port: 443, Path: "/"}, ""},
		{"http://example.com",
			HTTPTarget{Scheme: "http", Host: "example.com", Port: 80, Path: "/"}, "http://example.com/"},
		{"http://example.com?x",
			HTTPTarget{Scheme: "http", Host: "example.com", Port: 80, Path: "/", RawQuery: "x"}, "http://example.com/?x"},
		{"http://example.com/x?",
			HTTPTarget{Scheme: "http", Host: "example.com", Port: 80, Path: "/x"}, "http://example.com/x"},
		// Dots and empty segments, written plainly or escaped, resolve
		// before anything is matched.
		{"https://api.example.com/v1/../admin",
			HTTPTarget{Scheme: "https", Host: "api.example.com", Port: 443, Path: "/admin"}, "https://api.example.com/admin"},
		{"https://api.example.com/v1/%2e%2e/admin",
			HTTPTarget{Scheme: "https", Host: "api.example.com", Port: 443, Path: "/admin"}, "https://api.example.com/admin"},
		{"https://api.example.com/v1/%2E./admin",
			HTTPTarget{Scheme: "https", Host: "api.example.com", Port: 443, Path: "/admin"}, "https://api.example.com/admin"},
		{"http://h.example/../../etc/passwd",
			HTTPTarget{Scheme: "http", Host: "h.example", Port: 80, Path: "/etc/passwd"}, "http://h.example/etc/passwd"},
		{"http://h.example//a/./b//",
			HTTPTarget{Scheme: "http", Host: "h.example", Port: 80, Path: "/a/b/"}, "http://h.example/a/b/"},
		{"http://h.example/a/b/..",
			HTTPTarget{Scheme: "http", Host: "h.example", Port: 80, Path: "/a/"}, "http://h.example/a/"},
		{"http://h.example/a/.",
			HTTPTarget{Scheme: "http", Host: "h.example", Port: 80, Path: "/a/"}, "http://h.example/a/"},
		{"http://h.example/..",
			HTTPTarget{Scheme: "http", Host: "h.example", Port: 80, Path: "/"}, "http://h.example/"},
		{"http://h.example/a..b/.x",
			HTTPTarget{Scheme: "http", Host: "h.example", Port: 80, Path: "/a..b/.x"}, ""},
		// Escapes of unreserved characters are decoded, the rest upper-cased;
		// what may not stand raw in a path is escaped.
		{"http://h.example/%41%7e%2d%5f%7b%3f",
			HTTPTarget{Scheme: "http", Host: "h.example", Port: 80, Path: "/A~-_%7B%3F"}, "http://h.example/A~-_%7B%3F"},
		{"http://h.example/a|b{c}\"",
			HTTPTarget{Scheme: "http", Host: "h.example", Port: 80, Path: "/a%7Cb%7Bc%7D%22"}, "http://h.example/a%7Cb%7Bc%7D%22"},
		{"http://h.example/a:b@c;d=e,f!$&'()*+",
			HTTPTarget{Scheme: "http", Host: "h.example", Port: 80, Path: "/a:b@c;d=e,f!$&'()*+"}, ""},
		{"http://h.example/%25252e",
			HTTPTarget{Scheme: "http", Host: "h.example", Port: 80, Path: "/%25252e"}, ""},
		// IP literals as dial reads them.
		{"http://[::1]:8080/",
			HTTPTarget{Scheme: "http", Host: "::1", Port: 8080, Path: "/"}, ""},
		{"http://[0:0::1]/",
			HTTPTarget{Scheme: "http", Host: "::1", Port: 80, Path: "/"}, "http://[::1]/"},
		{"http://[::ffff:127.0.0.1]/",
			HTTPTarget{Scheme: "http", Host: "127.0.0.1", Port: 80, Path: "/"}, "http://127.0.0.1/"},
		// The query is kept as written: placeholders are substituted later.
		{"https://serpapi.com/search?api_key=${secret:SERP_API_KEY}&q=a%20b#",
			HTTPTarget{}, ""}, // refused below for the fragment; see the next
		{"https://serpapi.com/search?api_key=${secret:SERP_API_KEY}&q=a%20b",
			HTTPTarget{Scheme: "https", Host: "serpapi.com", Port: 443, Path: "/search", RawQuery: "api_key=${secret:SERP_API_KEY}&q=a%20b"}, ""},
		{"http://h.example/a?b/../c?d",
			HTTPTarget{Scheme: "http", Host: "h.example", Port: 80, Path: "/a", RawQuery: "b/../c?d"}, ""},
		// unix sockets: the socket path ends at the first ':'.
		{"unix:/var/run/docker.sock:/_ping",
			HTTPTarget{Scheme: "http", Unix: "/var/run/docker.sock", Path: "/_ping"}, ""},
		{"UNIX://var/run//docker.sock:/v1.43/containers/json?all=1",
			HTTPTarget{Scheme: "http", Unix: "/var/run/docker.sock", Path: "/v1.43/containers/json", RawQuery: "all=1"}, "unix:/var/run/docker.sock:/v1.43/containers/json?all=1"},
		{"unix:/run/x.sock:/a/../b",
			HTTPTarget{Scheme: "http", Unix: "/run/x.sock", Path: "/b"}, "unix:/run/x.sock:/b"},
	}
	for _, tt := range tests {
		t.Run(tt.raw, func(t *testing.T) {
			t.Parallel()
			got, err := ParseHTTPTarget(tt.raw)
			if tt.want == (HTTPTarget{}) {
				require.Error(t, err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
			url := tt.url
			if url == "" {
				url = tt.raw
			}
			assert.Equal(t, url, got.String())
			again, err := ParseHTTPTarget(got.String())
			require.NoError(t, err)
			assert.Equal(t, got, again, "String re-parses to the same target")
		})
	}
}

func TestParseHTTPTargetErrors(t *testing.T) {
	t.Parallel()
	tests := []struct{ raw, want string }{
		{"", "empty URL"},
		{"api.example.com/v1", "want http://host/path"},
		{"ftp://example.com/", `scheme "ftp": want http, https or unix`},
		{"file:///etc/passwd", `scheme "file"`},
		{"https:/api.example.com/", "want https://host/path"},
		{"https://user:pw@api.example.com/", "user info (user@host) is not allowed"},
		{"https://api.example.com/#frag", "no fragment"},
		{"https://api.example.com/v1?q#x", "no fragment"},
		{"https://api.example.com/v 1", "no spaces"},
		{"https://api.example.com/v1\r\nHost: evil", "control characters"},
		{"https://api.example.com/v1\x00", "control characters"},
		{"https://api.example.com/caf\xc3\xa9", "ASCII only"},
		{"https://api.example.com/a\\..\\admin", `no \`},
		{"https://api.example.com/v1/%2F../admin", `an escaped '/' is refused: servers differ`},
		{"https://api.example.com/v1/%2f", `an escaped '/' is refused`},
		{"https://api.example.com/v1/%00", `an escaped '\x00' is refused`},
		{"https://api.example.com/v1/%5c", `an escaped '\\' is refused`},
		{"https://api.example.com/v1/%zz", "two-digit hex escape"},
		{"https://api.example.com/v1/%4", "two-digit hex escape"},
		{"https://api.example.com/v1/%", "two-digit hex escape"},
		// Placeholders only in the query: the grants read the rest.
		{"https://${secret:HOST}/v1", "placeholder may appear only in the query"},
		{"https://api.example.com/${secret:K}/v1", "placeholder may appear only in the query"},
		{"unix:/run/${secret:K}.sock:/", "placeholder may appear only in the query"},
		// Hosts as dial refuses them.
		{"http://127.1/", `host "127.1" is neither an IP address nor a host name`},
		{"http://0x7f000001/", "neither an IP address nor a host name"},
		{"http://10.0.0.010/", "neither an IP address nor a host name"},
		{"http:///x", "empty host"},
		{"http://:80/", "empty host"},
		{"http://[]/", "empty host"},
		{"http://a..b/", "labels have 1 to 63 characters"},
		{"http://*.example.com/", `'*' is not allowed in a host name`},
		{"http://h.example:0/", `port "0"`},
		{"http://h.example:65536/", `port "65536"`},
		{"http://h.example:/", "empty port"},
		{"http://h.example:*/", `port "*"`},
		{"http://::1/", "write an IPv6 address in brackets"},
		{"http://[127.0.0.1]/", "brackets go around IPv6 addresses"},
		{"http://[::1/", "missing ]"},
		{"http://[::1]x/", "want [ipv6] or [ipv6]:port"},
		{"http://[fe80::1%25eth0]/", "no percent-encoding or IPv6 zones"},
		{"http://h%2eexample/", "no percent-encoding"},
		// Sockets as dial refuses them.
		{"unix:/var/run/docker.sock", "want unix:/path/to.sock:/request/path"},
		{"unix:/var/run/docker.sock:_ping", "a socket path may not hold"},
		{"unix:relative.sock:/", "must be absolute"},
		{"unix:/run/../etc/x.sock:/", ".."},
		{"unix::/", "unix: needs a socket path"},
	}
	for _, tt := range tests {
		t.Run(tt.raw, func(t *testing.T) {
			t.Parallel()
			_, err := ParseHTTPTarget(tt.raw)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.want)
		})
	}
}

func htestAllow(t *testing.T, grant string, cases map[string]bool) {
	t.Helper()
	p, err := Grants{HTTP: []string{grant}}.Compile()
	require.NoError(t, err, grant)
	for raw, want := range cases {
		target, err := ParseHTTPTarget(raw)
		require.NoError(t, err, raw)
		assert.Equal(t, want, p.AllowHTTP(target), "grant %s, request %s", grant, raw)
	}
}

func TestHTTPGrantsPaths(t *testing.T) {
	t.Parallel()
	htestAllow(t, "https://api.example.com/v1", map[string]bool{
		"https://api.example.com/v1":         true,
		"https://api.example.com/v1/":        true,
		"https://api.example.com/v1/models":  true,
		"https://api.example.com/v1x":        false,
		"https://api.example.com/v1beta/x":   false,
		"https://api.example.com/":           false,
		"https://api.example.com/v1/../v2":   false,
		"https://api.example.com/v1/%2e%2e/": false,
		"https://api.example.com/x/../v1/y":  true,
		"https://api.example.com/%76%31/y":   true, // "v1", escaped
		"https://api.example.com//v1//y":     true,
		"https://api.example.com/V1":         false, // paths are case-sensitive
	})
	htestAllow(t, "https://api.example.com/v1/", map[string]bool{
		"https://api.example.com/v1/x": true,
		"https://api.example.com/v1/":  true,
		"https://api.example.com/v1":   false,
		"https://api.example.com/v1x":  false,
	})
	for _, grant := range []string{"https://api.example.com", "https://api.example.com/", "https://api.example.com/a/.."} {
		htestAllow(t, grant, map[string]bool{
			"https://api.example.com":               true,
			"https://api.example.com/anything/at/1": true,
			"http://api.example.com/":               false,
			"https://api.example.com:8443/":         false,
		})
	}
	// A grant's path is normalised as a request's is.
	htestAllow(t, "http://h.example/a/%7e/./b//", map[string]bool{
		"http://h.example/a/~/b/c": true,
		"http://h.example/a/~/b":   false,
	})
	htestAllow(t, "http://h.example/a%7Cb", map[string]bool{
		"http://h.example/a|b":     true,
		"http://h.example/a%7cb/c": true,
	})
}

func TestHTTPGrantsHosts(t *testing.T) {
	t.Parallel()
	htestAllow(t, "https://*.example.com", map[string]bool{
		"https://a.example.com/anything": true,
		"https://A.EXAMPLE.COM./x":       true,
		"https://a.b.example.com/":       false,
		"https://example.com/":           false,
		"https://a.example.com:8443/":    false,
		"http://a.example.com/":          false,
	})
	htestAllow(t, "http://127.0.0.1:*/health", map[string]bool{
		"http://127.0.0.1:8080/health":     true,
		"http://127.0.0.1/health":          true,
		"http://[::ffff:127.0.0.1]/health": true, // as dial: mapped is IPv4
		"http://localhost:8080/health":     false,
		"https://127.0.0.1:8080/health":    false,
	})
	htestAllow(t, "http://10.0.0.*:8080", map[string]bool{
		"http://10.0.0.5:8080/":                  true,
		"http://10.0.0.5.attacker.example:8080/": false, // IPv4 patterns never match names
	})
	htestAllow(t, "http://[::1]:8080/", map[string]bool{
		"http://[::1]:8080/x":   true,
		"http://[0:0::1]:8080/": true, // compared as addresses
		"http://[::2]:8080/":    false,
		"http://[::1]/":         false,
		"http://localhost:8080": false,
	})
	htestAllow(t, "http://[fd00::/8]:*", map[string]bool{
		"http://[fd00::1]:9/":             true,
		"http://[fe80::1]:9/":             false,
		"http://[::ffff:10.0.0.1]:9/":     false,
		"http://[fdff:ffff::1]:1234/a/b/": true,
	})
	htestAllow(t, "http://*:*/metrics", map[string]bool{
		"http://anything.example:9100/metrics": true,
		"http://10.1.2.3:9100/metrics":         true,
		"http://[::1]:1/metrics/x":             true,
		"http://[::1]:1/metricsx":              false,
		"https://[::1]:1/metrics":              false,
	})
	htestAllow(t, "http://LocalHost.:8080", map[string]bool{
		"http://localhost:8080/":     true,
		"http://LOCALHOST.:8080/":    true,
		"http://localhost/":          false,
		"http://localhost.evil:8080": false,
	})
}

func TestHTTPGrantsUnix(t *testing.T) {
	t.Parallel()
	htestAllow(t, "unix:/var/run/docker.sock:/_ping", map[string]bool{
		"unix:/var/run/docker.sock:/_ping":           true,
		"unix:/var/run//docker.sock:/x/../_ping":     true,
		"unix:/var/run/docker.sock:/_ping/x":         true,
		"unix:/var/run/docker.sock:/containers/json": false,
		"unix:/var/run/docker.sock:/_pingx":          false,
		"unix:/var/run/other.sock:/_ping":            false,
	})
	htestAllow(t, "unix:/var/run/docker.sock", map[string]bool{
		"unix:/var/run/docker.sock:/_ping":           true,
		"unix:/var/run/docker.sock:/containers/json": true,
		"unix:/var/run/docker.sock.x:/_ping":         false,
	})
	// '*' in a socket path covers what it covers in dial: never a '/'.
	htestAllow(t, "unix:/run/app/*.sock:/", map[string]bool{
		"unix:/run/app/a.sock:/x":   true,
		"unix:/run/app/b/a.sock:/x": false,
	})
	// A unix grant is no tcp grant and the other way round.
	p, err := Grants{HTTP: []string{"http://localhost"}}.Compile()
	require.NoError(t, err)
	target, err := ParseHTTPTarget("unix:/localhost:/")
	require.NoError(t, err)
	assert.False(t, p.AllowHTTP(target))
}

// TestAllowHTTPNormalFormOnly: a target assembled by hand, not in the form
// ParseHTTPTarget gives, is never granted, whatever it holds.
func TestAllowHTTPNormalFormOnly(t *testing.T) {
	t.Parallel()
	p, err := Grants{HTTP: []string{"https://api.example.com/v1/", "unix:/run/x.sock"}}.Compile()
	require.NoError(t, err)
	ok := HTTPTarget{Scheme: "https", Host: "api.example.com", Port: 443, Path: "/v1/models"}
	require.True(t, p.AllowHTTP(ok))
	for name, change := range map[string]func(*HTTPTarget){
		"dots":          func(t *HTTPTarget) { t.Path = "/v1/../admin" },
		"no slash":      func(t *HTTPTarget) { t.Path = "v1/models" },
		"empty path":    func(t *HTTPTarget) { t.Path = "" },
		"upper host":    func(t *HTTPTarget) { t.Host = "API.example.com" },
		"host with /":   func(t *HTTPTarget) { t.Host = "api.example.com/v1/x@evil" },
		"port 0":        func(t *HTTPTarget) { t.Port = 0 },
		"scheme":        func(t *HTTPTarget) { t.Scheme = "HTTPS" },
		"ftp":           func(t *HTTPTarget) { t.Scheme = "ftp" },
		"fragment":      func(t *HTTPTarget) { t.RawQuery = "a#b" },
		"secret host":   func(t *HTTPTarget) { t.Host = "${secret:K}" },
		"escaped slash": func(t *HTTPTarget) { t.Path = "/v1/a%2F..%2F..%2Fadmin" },
		"unix and host": func(t *HTTPTarget) { t.Unix = "/run/x.sock" },
	} {
		bad := ok
		change(&bad)
		assert.False(t, p.AllowHTTP(bad), name)
	}
	assert.False(t, (*Policy)(nil).AllowHTTP(ok))
	zero, err := Grants{}.Compile()
	require.NoError(t, err)
	assert.False(t, zero.AllowHTTP(ok))
}

func TestHTTPGrantErrors(t *testing.T) {
	t.Parallel()
	tests := []struct{ grant, want string }{
		{"", `http grant "": empty URL prefix`},
		{"api.example.com", `http grant "api.example.com": want http://host/path, https://host/path or unix:/socket:/path`},
		{"ftp://x.example/", `http grant "ftp://x.example/": scheme "ftp": want http, https or unix`},
		{"https://api.example.com/v1?x=1", `http grant "https://api.example.com/v1?x=1": a grant matches scheme, host, port and path; it has no query`},
		{"https://api.example.com/#x", `http grant "https://api.example.com/#x": a grant has no fragment (#)`},
		{"https://u@api.example.com/", `http grant "https://u@api.example.com/": user info (user@host) is not allowed: send credentials in a header, from a secret`},
		{"https://api.example.com/v1/*", `http grant "https://api.example.com/v1/*": path "/v1/*": an http grant's path is a prefix, not a pattern (no *)`},
		{"https://${secret:K}/", `http grant "https://${secret:K}/": a grant holds no ${...} placeholders`},
		{"https://api.example.com/%2F", `http grant "https://api.example.com/%2F": path "/%2F": an escaped '/' is refused: servers differ on whether it is one, so one spelling could reach a path that another is not granted`},
		{"http://127.1/", `http grant "http://127.1/": "127.1": an IPv4 pattern has four octets, each 0-255 or *`},
		{"http://h.example:0/", `http grant "http://h.example:0/": port "0": want a number from 1 to 65535, or *`},
		{"http://[::1/", `http grant "http://[::1/": host "[::1": missing ]`},
		{"http://a b/", `http grant "http://a b/": a URL holds no spaces (write %20)`},
		{"unix:/run/../x.sock", `http grant "unix:/run/../x.sock": ".." is not allowed`},
		{"unix:/run/x.sock:v1", `http grant "unix:/run/x.sock:v1": want unix:/path/to.sock:/request/path (a socket path may not hold ":")`},
	}
	for _, tt := range tests {
		t.Run(tt.grant, func(t *testing.T) {
			t.Parallel()
			_, err := Grants{HTTP: []string{tt.grant}}.Compile()
			require.Error(t, err)
			assert.Equal(t, tt.want, err.Error())
		})
	}
}

// TestABIDocHTTPGrantTable keeps the table in "Grants for version 2" of
// docs/ABI.md true: every URL in a "matches" cell is granted by the row's
// grant, and every one in a "does not match" cell is not.
func TestABIDocHTTPGrantTable(t *testing.T) {
	t.Parallel()
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "ABI.md"))
	require.NoError(t, err)
	_, section, ok := strings.Cut(string(doc), "\n### Grants for version 2\n")
	require.True(t, ok)
	section, _, _ = strings.Cut(section, "\n### ")
	code := regexp.MustCompile("`([^`]+)`")
	rows, urls := 0, 0
	for line := range strings.Lines(section) {
		cells := strings.Split(strings.TrimSpace(line), "|")
		if len(cells) != 5 {
			continue
		}
		first := code.FindStringSubmatch(cells[1])
		if first == nil {
			continue // the header and the rule under it
		}
		p, err := Grants{HTTP: []string{first[1]}}.Compile()
		require.NoError(t, err, first[1])
		for i, want := range map[int]bool{2: true, 3: false} {
			for _, m := range code.FindAllStringSubmatch(cells[i], -1) {
				target, err := ParseHTTPTarget(m[1])
				require.NoError(t, err, m[1])
				assert.Equal(t, want, p.AllowHTTP(target), "grant %s, request %s", first[1], m[1])
				urls++
			}
		}
		rows++
	}
	assert.Equal(t, 4, rows, "rows checked")
	assert.Equal(t, 14, urls, "URLs checked")
}

// FuzzParseHTTPTarget hands the URL parser and the http grants arbitrary
// requests and grants. Whatever they are, nothing panics; a parsed target
// prints as a URL that parses back to it, in normal form (no dot or empty
// segments, no placeholder or fragment outside the query, lower-case
// host) and its own URL, as a grant, allows it; a target a grant allows is allowed after that round trip too, is
// under the grant's path by whole segments, and has an address that dial's
// parser reads.
func FuzzParseHTTPTarget(f *testing.F) {
	seeds := [][2]string{
		{"https://api.example.com/v1/%2e%2e/admin", "https://api.example.com/v1/"},
		{"https://api.example.com/v1/../admin", "https://api.example.com/v1"},
		{"HTTPS://API.EXAMPLE.COM./v1/x", "https://*.example.com"},
		{"http://[::1]:8080/", "http://[::1]:*/"},
		{"http://[::ffff:127.0.0.1]/", "http://127.0.0.*:*"},
		{"http://127.1/", "http://*:*"},
		{"unix:/var/run/docker.sock:/_ping?x=${secret:K}", "unix:/var/run/docker.sock:/_ping"},
		{"unix:/run/a.sock:/x", "unix:/run/*.sock"},
		{"http://h.example/a|b%7c/./c//?q#f", "http://h.example/a%7Cb"},
		{"http://u@h.example/", "http://[fd00::/8]:*/"},
		{"http://h.example/a*b", "http://h.example/a"},
	}
	for _, s := range seeds {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, raw, grant string) {
		target, err := ParseHTTPTarget(raw)
		if err != nil {
			return
		}
		url := target.String()
		again, err := ParseHTTPTarget(url)
		if err != nil || again != target {
			t.Fatalf("%q parses to %+v, printed %q, which parses to %+v (%v)", raw, target, url, again, err)
		}
		head, _, _ := strings.Cut(url, "?")
		if strings.Contains(head, "${") || strings.Contains(url, "#") || strings.Contains(url, " ") {
			t.Fatalf("%q: target %q holds what it may not", raw, url)
		}
		if strings.Contains(target.Path+"/", "/./") || strings.Contains(target.Path+"/", "/../") || strings.Contains(target.Path, "//") || !strings.HasPrefix(target.Path, "/") {
			t.Fatalf("%q: path %q is not clean", raw, target.Path)
		}
		if target.Host != strings.ToLower(target.Host) {
			t.Fatalf("%q: host %q is not in lower case", raw, target.Host)
		}
		// The grant written from the target itself allows it (unless its
		// path holds a '*', which grants refuse as a likely glob).
		self, _, _ := strings.Cut(url, "?")
		if p, err := (Grants{HTTP: []string{self}}).Compile(); !strings.Contains(target.Path, "*") && (err != nil || !p.AllowHTTP(target)) {
			t.Fatalf("%q: the grant %q does not allow it (%v)", raw, self, err)
		}
		p, err := Grants{HTTP: []string{grant}}.Compile()
		if err != nil || !p.AllowHTTP(target) {
			return
		}
		if !p.AllowHTTP(again) {
			t.Fatalf("%q allowed by %q, its round trip %q is not", raw, grant, url)
		}
		if _, err := ParseDialAddr(target.Addr()); err != nil {
			t.Fatalf("%q allowed by %q, but its address %q is not one: %v", raw, grant, target.Addr(), err)
		}
		if u, err := splitHTTPHead(grant, true); err == nil && !pathHasPrefix(target.Path, u.path) {
			t.Fatalf("%q allowed by %q outside its path", raw, grant)
		}
	})
}
