package host

import (
	"encoding/base64"
	"encoding/hex"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"
)

// redirectSpellings are the ways FuzzRedirectBinding's service writes the
// value it was sent into the Location: each a spelling a peer may choose,
// none of which the host may need to recognise.
var redirectSpellings = []func(string) string{
	func(v string) string { return v },
	url.QueryEscape,
	func(v string) string { return url.QueryEscape(url.QueryEscape(v)) },
	func(v string) string { return "%25" + url.QueryEscape(v) },
	func(v string) string { return strings.ReplaceAll(url.PathEscape(v), "%20", "+") },
	func(v string) string { return lowerEscapes(url.QueryEscape(v)) },
	func(v string) string { return mixedEscapes(url.PathEscape(v)) },
	func(v string) string { return base64.StdEncoding.EncodeToString([]byte(v)) },
	func(v string) string { return base64.RawURLEncoding.EncodeToString([]byte(v)) },
	func(v string) string { return hex.EncodeToString([]byte(v)) },
}

// anOrigin is how a redirect's denial names its target: scheme, host and
// port, nothing the peer wrote after them.
var anOrigin = regexp.MustCompile(`^http://127\.0\.0\.1:[0-9]+$`)

// FuzzRedirectBinding: service A, the only place the secret is bound to
// (its /login), redirects to B (granted to the probe, not bound to the
// secret) with the value it was sent spelt any of redirectSpellings' ways
// between any bytes the fuzzer chooses ("%zz", "%25", '+'). The binding
// rule, whatever the spelling: B is never asked, the 3xx (or a failure,
// for a Location net/http cannot parse) is the answer, and every denial
// names an origin only. A run that sent no secret to A follows the same
// Location whenever it is granted: the decision is the binding's, not
// the value's.
func FuzzRedirectBinding(f *testing.F) {
	for _, s := range []struct {
		value         string
		spelling      uint8
		before, after string
	}{
		{"hunter2", 0, "v=", ""},
		{"4821", 3, "v=", "%20x"},
		{"a b+c/d", 4, "bad=%zz&v=", ""},
		{"Ünïcode\"'<", 6, "v=", "&w=%25"},
		{"tok", 7, "", ""},
		{"x%y", 2, "v=%", ""},
	} {
		f.Add(s.value, s.spelling, s.before, s.after)
	}
	g := newGuest(f)
	var asked atomic.Int32
	b := newHTTPServer(f, http.HandlerFunc(func(http.ResponseWriter, *http.Request) { asked.Add(1) }))
	var spell atomic.Pointer[func(key string) string]
	a := newHTTPServer(f, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, (*spell.Load())(r.URL.Query().Get("key")), http.StatusFound)
	}))
	f.Fuzz(func(t *testing.T, value string, spelling uint8, before, after string) {
		if value == "" || len(value) > MaxSecret || strings.ContainsAny(before+after, "#\r\n") {
			t.Skip()
		}
		enc := redirectSpellings[int(spelling)%len(redirectSpellings)]
		location := func(key string) string { return b + "/land?" + before + enc(key) + after }
		spell.Store(&location)
		for _, sent := range []bool{true, false} {
			asked.Store(0)
			c := hostileCall(t, grantsOf(reach(a+"/", b+"/"), boundSecret("S", a+"/login")), map[string]string{"S": value})
			req := "GET " + a + "/login?key=${secret:S}\n"
			if !sent {
				req = "GET " + a + "/login?key=" + url.QueryEscape(value) + "\n"
			}
			h := g.http(t, c, req, 0, 0)
			for _, d := range c.Denied() {
				if d.Kind == "http" && !anOrigin.MatchString(d.Request) || d.Kind == "secret" && !anOrigin.MatchString(d.To) {
					t.Fatalf("a denial names more than an origin: %+v", d)
				}
			}
			if !sent {
				continue
			}
			if n := asked.Load(); n != 0 {
				t.Fatalf("B was asked %d times after the value went to A (Location %q)", n, location(value))
			}
			if h > 0 {
				if st := g.v2(t, c, "http_status", uint32(h)); st != http.StatusFound {
					t.Fatalf("the answer is %d, not A's 302", st)
				}
			}
		}
	})
}
