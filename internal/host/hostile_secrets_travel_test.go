package host

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Where the value travels next. A request that carried a value to its
// destination may be redirected: Go's client sends a Referer with the URL
// (and so a query's value) to the next origin, sends headers and a 307's
// body again to the same origin whatever path it is, and follows a
// Location the first server built from the value. A value never travels
// on to a destination it is not bound to, and a denied redirect records
// its target without the value in any form.

// TestHostileSecretRedirects: a request to the value's destination is
// redirected, to another origin or to a path of the same origin the
// secret is not bound to, with the value in the URL, a header or a 307's
// body. The second destination (granted, but not the value's) must never
// receive the value in any form, and no redirect sends a Referer.
func TestHostileSecretRedirects(t *testing.T) {
	g := newGuest(t)
	v := specialValue(51)
	for _, tt := range []struct {
		name     string
		bound    string // the path prefix the secret is bound to on the first origin
		req      string // the probe's request to the first origin, without it
		location func(first *http.Request, other string) (string, int)
	}{
		{"Referer to another origin", "/ok/", "GET /ok/go?key=${secret:P}\n",
			func(_ *http.Request, other string) (string, int) { return other + "/ok/land", http.StatusFound }},
		{"the value reflected to another origin", "/ok/", "GET /ok/go?key=${secret:P}\n",
			func(r *http.Request, other string) (string, int) {
				return other + "/ok/land?k=" + url.QueryEscape(r.URL.Query().Get("key")), http.StatusFound
			}},
		{"Authorization to another origin", "/ok/", "GET /ok/go\nAuthorization: Bearer ${secret:P}\n",
			func(_ *http.Request, other string) (string, int) { return other + "/ok/land", http.StatusFound }},
		{"a header to another path", "/ok/api/", "GET /ok/api/go\nX-Api-Key: ${secret:P}\n",
			func(*http.Request, string) (string, int) { return "/ok/other/land", http.StatusFound }},
		{"a 307's body to another path", "/ok/api/", "POST /ok/api/go\n\n{\"key\":\"${secret:P}\"}",
			func(*http.Request, string) (string, int) { return "/ok/other/land", http.StatusTemporaryRedirect }},
		{"the value reflected to another path", "/ok/api/", "GET /ok/api/go?key=${secret:P}\n",
			func(r *http.Request, _ string) (string, int) {
				return "/ok/other/land?k=" + url.QueryEscape(r.URL.Query().Get("key")), http.StatusFound
			}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			second := &received{}
			other, _ := hostileHTTP(t, dumpHandler(second))
			var origin string
			mux := http.NewServeMux()
			mux.HandleFunc("/ok/other/", dumpHandler(second))
			mux.HandleFunc("/ok/", func(w http.ResponseWriter, r *http.Request) {
				loc, code := tt.location(r, other)
				http.Redirect(w, r, loc, code)
			})
			origin, _ = hostileHTTP(t, mux)
			c := hostileCall(t, grantsOf(reach(origin+"/ok/", other+"/ok/"), boundSecret("P", origin+tt.bound)), map[string]string{"P": v})
			method, rest, _ := strings.Cut(tt.req, " ")
			h := g.http(t, c, method+" "+origin+rest, 0, 0)
			if answered(t, g, c, h, "P", origin) {
				status := g.v2(t, c, "http_status", uint32(h))
				_, loc := g.header(t, c, h, "Location")
				t.Logf("the probe got %d", status)
				assertNoLeak(t, v, "the Location the probe read", loc)
			}
			t.Logf("the second destination received %q", second.String())
			assertNoLeak(t, v, "what the second destination received", second.String())
			assert.NotContains(t, strings.ToLower(second.String()), "\nreferer:", "a redirect sends no Referer")
		})
	}
}

// TestHostileSecretRedirectDenial: the value's destination redirects to a
// URL the grants do not allow, with the value in it; the redirect is not
// followed, and its denial (which becomes the run's reason, and so reaches
// /v1/status and the model) must hold the value in no form: not as the
// peer escaped it in the query, nor in the path. The host knows the target
// it records, so it can leave the query out and redact the path decoded.
func TestHostileSecretRedirectDenial(t *testing.T) {
	g := newGuest(t)
	v := specialValue(52)
	for _, tt := range []struct {
		name     string
		location func(key string) string
	}{
		{"query, escaped as a query", func(k string) string { return "/elsewhere?k=" + url.QueryEscape(k) }},
		{"query, escaped as a path", func(k string) string { return "/elsewhere?k=" + url.PathEscape(k) }},
		{"query, lower-case escapes", func(k string) string { return "/elsewhere?k=" + lowerEscapes(url.QueryEscape(k)) }},
		{"path", func(k string) string { return "/elsewhere/" + url.PathEscape(k) }},
	} {
		t.Run(tt.name, func(t *testing.T) {
			origin, _ := hostileHTTP(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				http.Redirect(w, r, tt.location(r.URL.Query().Get("key")), http.StatusFound)
			}))
			dest := origin + "/ok/"
			c := hostileCall(t, grantsOf(reach(dest), boundSecret("P", dest)), map[string]string{"P": v})
			h := g.http(t, c, "GET "+origin+"/ok/go?key=${secret:P}\n", 0, 0)
			if answered(t, g, c, h, "P", origin) {
				assert.Equal(t, int32(http.StatusFound), g.v2(t, c, "http_status", uint32(h)), "not followed")
			}
			require.NotEmpty(t, c.Denials(), "the redirect is denied")
			c.RedactRun()
			reason, _ := c.Reason()
			// Not the Location the probe reads: the destination wrote it,
			// and may write the value in a form the host cannot recognise.
			// The denial is the host's own text.
			for what, got := range map[string]string{
				"the denials":    strings.Join(c.Denials(), "\n"),
				"the last error": g.lastError(t, c),
				"the reason":     reason,
			} {
				assertNoLeak(t, v, what, got)
			}
			t.Logf("denials: %q", c.Denials())
		})
	}
}

// TestHostileRedirectPathAsChecked: a Location whose path holds escaped
// dot segments is granted as the path they resolve to, and must be sent
// as that path: a server that resolves dot segments before it decodes
// escapes would serve /admin/%2e%2e/ok/x from /admin.
func TestHostileRedirectPathAsChecked(t *testing.T) {
	g := newGuest(t)
	for _, loc := range []string{"/admin/%2e%2e/ok/x", "/admin/%2E%2E/ok/x", "/admin/.%2e/ok/x", "/ok/%2e%2e/admin/%2e%2e/ok/x"} {
		t.Run(loc, func(t *testing.T) {
			var got []string
			origin, _ := hostileHTTP(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				got = append(got, r.RequestURI)
				if r.RequestURI == "/ok/start" {
					w.Header().Set("Location", loc)
					w.WriteHeader(http.StatusFound)
				}
			}))
			c := hostileCall(t, reach(origin+"/ok/"), nil)
			h := g.http(t, c, "GET "+origin+"/ok/start\n", 0, 0)
			require.Positive(t, h, g.lastError(t, c))
			t.Logf("the server was asked for %q", got)
			for _, uri := range got {
				assert.True(t, strings.HasPrefix(uri, "/ok/") && !strings.Contains(strings.ToLower(uri), "admin") && !strings.Contains(strings.ToLower(uri), "%2e"),
					"the server was asked for %q, not the path that was granted", uri)
			}
		})
	}
}
