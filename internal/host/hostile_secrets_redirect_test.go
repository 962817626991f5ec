package host

import (
	"bufio"
	"encoding/base64"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Redirects judged by where they go. A secret is bound only to service A's
// /login; B is granted to the probe, but not bound to the secret. A has an
// open redirect (a real Go http.Redirect of its "next" parameter, as a
// login page has), which writes the value back in a spelling of its own:
// decoded, escaped twice, '%'-prefixed, with a stray "%zz" that no
// decoder reads, base64. Whatever the spelling, the host must not follow
// a redirect from an origin it sent the value to towards one the value is
// not bound to; B must receive nothing, and the denial names B's scheme,
// host and port only.

// reencodings are the spellings in which A writes the value it was sent
// (its ?key=) into the Location it sends to B.
var reencodings = []struct {
	name string
	next func(b, key string) string
}{
	{"as decoded", func(b, k string) string { return b + "/land?v=" + k }},
	{"query-escaped twice", func(b, k string) string { return b + "/land?v=" + url.QueryEscape(url.QueryEscape(k)) }},
	{"%25-prefixed", func(b, k string) string { return b + "/land?v=%25" + url.QueryEscape(k) + "%20x" }},
	{"a stray %zz", func(b, k string) string { return b + "/land?bad=%zz&v=" + url.QueryEscape(k) }},
	{"plus for space, lower-case hex", func(b, k string) string {
		return b + "/land?v=" + lowerEscapes(strings.ReplaceAll(url.PathEscape(k), "%20", "+"))
	}},
	{"mixed-case hex", func(b, k string) string { return b + "/land?v=" + mixedEscapes(url.QueryEscape(k)) }},
	{"base64", func(b, k string) string { return b + "/land?v=" + base64.URLEncoding.EncodeToString([]byte(k)) }},
	{"in the path", func(b, k string) string { return b + "/land/" + url.PathEscape(k) }},
}

// mixedEscapes writes every other hex digit of s's escapes in lower case.
func mixedEscapes(s string) string {
	b := []byte(s)
	for i := 0; i+2 < len(b); i++ {
		if b[i] == '%' {
			b[i+2] = strings.ToLower(string(b[i+2]))[0]
		}
	}
	return string(b)
}

// openRedirectService is A: /login redirects wherever its "next" says
// (http.Redirect, as a real one does), after spelling the value it got in
// ?key= into it; /go redirects to "next" as given.
func openRedirectService(t *testing.T, b string, spell func(b, key string) string) string {
	t.Helper()
	mux := http.NewServeMux()
	mux.HandleFunc("/login", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, spell(b, r.URL.Query().Get("key")), http.StatusFound)
	})
	mux.HandleFunc("/go", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, r.URL.Query().Get("next"), http.StatusSeeOther)
	})
	a, _ := hostileHTTP(t, mux)
	return a
}

func TestHostileSecretRedirectByDestination(t *testing.T) {
	g := newGuest(t)
	v := specialValue(71)
	for _, tt := range reencodings {
		t.Run(tt.name, func(t *testing.T) {
			seenByB := &received{}
			b, _ := hostileHTTP(t, dumpHandler(seenByB))
			a := openRedirectService(t, b, tt.next)
			c := hostileCall(t, grantsOf(reach(a+"/", b+"/"), boundSecret("S", a+"/login")), map[string]string{"S": v})
			h := g.http(t, c, "GET "+a+"/login?key=${secret:S}\n", 0, 0)
			if answered(t, g, c, h, "S", a) {
				// A spelling the host does not look for: the 3xx is read.
				assert.Equal(t, int32(http.StatusFound), g.v2(t, c, "http_status", uint32(h)), "the 3xx is the answer")
			}
			assert.Empty(t, seenByB.String(), "B, which the value is not bound to, was asked")
			assert.Contains(t, c.Denied(), Denial{Kind: "secret", Request: "S", To: b, Probe: c.Probe},
				"the denial names B's scheme, host and port, nothing A wrote")
			assertNoLeak(t, v, "the denials", strings.Join(c.Denials(), "\n"))
			assertNoLeak(t, v, "the last error", g.lastError(t, c))
		})
	}
}

// TestHostileSecretRedirectLaterRequest: the value went to A in one
// request; a later request of the same run, carrying no secret, meets A's
// open redirect with a "next" the probe spelt so that A writes the value
// (which A kept) its own way. A redirect from an origin the run sent the
// value to is not followed where the value is not bound, whatever the
// request carried.
func TestHostileSecretRedirectLaterRequest(t *testing.T) {
	g := newGuest(t)
	v := specialValue(72)
	for _, next := range []string{"%25${secret:S}%20x", "/land?v=%2525zz"} {
		t.Run(next, func(t *testing.T) {
			seenByB := &received{}
			b, _ := hostileHTTP(t, dumpHandler(seenByB))
			a := openRedirectService(t, b, func(string, string) string { return "/" })
			c := hostileCall(t, grantsOf(reach(a+"/", b+"/"), boundSecret("S", a+"/login")), map[string]string{"S": v})
			h := g.http(t, c, "GET "+a+"/login?key=${secret:S}\n", 0, 0)
			require.Positive(t, h, g.lastError(t, c))
			h = g.http(t, c, "GET "+a+"/go?next="+url.QueryEscape(b)+"%2Fland\n", 0, 0)
			require.Positive(t, h, g.lastError(t, c))
			assert.Equal(t, int32(http.StatusSeeOther), g.v2(t, c, "http_status", uint32(h)))
			assert.Empty(t, seenByB.String(), "B was asked")
		})
	}
}

// TestRedirectFollowedWithoutSecrets: the rule costs an honest run
// nothing: one that sent no secret to A follows A's redirect to B.
func TestRedirectFollowedWithoutSecrets(t *testing.T) {
	g := newGuest(t)
	seenByB := &received{}
	b, _ := hostileHTTP(t, dumpHandler(seenByB))
	a := openRedirectService(t, b, func(string, string) string { return "/" })
	c := hostileCall(t, grantsOf(reach(a+"/", b+"/"), boundSecret("S", a+"/login")), map[string]string{"S": "v"})
	h := g.http(t, c, "GET "+a+"/go?next="+url.QueryEscape(b+"/land")+"\n", 0, 0)
	require.Positive(t, h, g.lastError(t, c))
	assert.Equal(t, int32(http.StatusOK), g.v2(t, c, "http_status", uint32(h)))
	assert.Contains(t, seenByB.String(), "GET /land")
	assert.Empty(t, c.Denied())
}

// TestHostileSecretRedirectLocationNotQuoted: a Location net/http cannot
// parse ("%zz" before the value, spelt in base64) ends the exchange; the
// host's words for it, which the probe reads and may make its reason, do
// not quote what the peer wrote.
func TestHostileSecretRedirectLocationNotQuoted(t *testing.T) {
	g := newGuest(t)
	v := specialValue(73)
	a, _ := hostileHTTP(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Location", "/land/%zz"+base64.StdEncoding.EncodeToString([]byte(r.URL.Query().Get("key"))))
		w.WriteHeader(http.StatusFound)
	}))
	c := hostileCall(t, grantsOf(reach(a+"/"), boundSecret("S", a+"/")), map[string]string{"S": v})
	h := g.http(t, c, "GET "+a+"/login?key=${secret:S}\n", 0, 0)
	require.Negative(t, h)
	last := g.lastError(t, c)
	assert.NotContains(t, last, "%zz", "the last error quotes the Location")
	assert.NotContains(t, last, base64.StdEncoding.EncodeToString([]byte(v))[:8])
}

// TestHostileSecretNoComputedLength: a peer that echoes the request's
// headers would tell the probe the length of a value substituted into the
// body by the Content-Length the host computed. A body that held a value
// goes without one, so two values of different lengths read the same.
func TestHostileSecretNoComputedLength(t *testing.T) {
	g := newGuest(t)
	origin, _ := hostileHTTP(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		fmt.Fprintf(w, "length %d, transfer %q, header %q", r.ContentLength, r.TransferEncoding, r.Header.Get("Content-Length"))
	}))
	dest := origin + "/"
	run := func(v string) seen {
		c := hostileCall(t, grantsOf(reach(dest), boundSecret("S", dest)), map[string]string{"S": v})
		h := g.http(t, c, "POST "+origin+"/echo\nContent-Type: application/json\n\n{\"token\":\"${secret:S}\"}", 0, 0)
		require.Positive(t, h, g.lastError(t, c))
		_, body := g.wholeBody(t, c, h)
		return seen{fmt.Sprint(g.v2(t, c, "http_status", uint32(h))), body}
	}
	a, b := run(hostileValue(74, 9)), run(hostileValue(75, 31))
	t.Logf("the peer saw %q", a)
	assertSameObservations(t, "values of 9 and 31 bytes", a, b)
	assert.Contains(t, a[1], `transfer ["chunked"]`)
}

// TestHostileSecretPeerLineNotQuoted: a peer that was sent the value
// answers a status line net/http cannot read, with the value in it spelt
// backwards (no form redaction knows). The host's words for the failure,
// which the probe reads and may make its reason, name the failure and
// leave out what the peer wrote.
func TestHostileSecretPeerLineNotQuoted(t *testing.T) {
	g := newGuest(t)
	v := hostileValue(76, 24)
	backwards := []byte(v)
	slices.Reverse(backwards)
	peer, _ := hostilePeer(t, func(c net.Conn) {
		_, _ = bufio.NewReader(c).ReadString('\n')
		fmt.Fprintf(c, "HTTP/1.1 %s OK\r\n\r\n", backwards)
	})
	dest := "http://" + peer + "/"
	c := hostileCall(t, grantsOf(reach(dest), boundSecret("S", dest)), map[string]string{"S": v})
	h := g.http(t, c, "GET "+dest+"x\nAuthorization: Bearer ${secret:S}\n", 0, 0)
	require.Negative(t, h)
	last := g.lastError(t, c)
	t.Logf("last error: %q", last)
	assert.NotContains(t, last, string(backwards[:8]), "the peer's line is quoted")
	assert.Contains(t, last, "malformed HTTP")
}
