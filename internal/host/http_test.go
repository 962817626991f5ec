package host

import (
	"crypto/x509"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gate-dev/gate/internal/testnet"
)

func (g *guest) http(t testing.TB, c *Call, req string, flags, timeoutMS int32) int32 {
	t.Helper()
	p, n := g.put(t, argAt, req)
	return g.v2(t, c, "http", p, n, uint32(flags), uint32(timeoutMS))
}

func (g *guest) body(t testing.TB, c *Call, h int32) (int32, string) {
	t.Helper()
	n := g.v2(t, c, "http_body", uint32(h), bufAt, bufCap)
	if n < 0 {
		return n, ""
	}
	return n, g.read(bufAt, uint32(min(n, bufCap)))
}

func (g *guest) header(t testing.TB, c *Call, h int32, name string) (int32, string) {
	t.Helper()
	p, n := g.put(t, argAt, name)
	got := g.v2(t, c, "http_header", uint32(h), p, n, bufAt, bufCap)
	if got < 0 {
		return got, ""
	}
	return got, g.read(bufAt, uint32(min(got, bufCap)))
}

// echoHandler answers with what it was sent: the method, the request URI,
// the headers it got (as X-Got-Name) and the body, with the status from
// ?status=.
func echoHandler(w http.ResponseWriter, r *http.Request) {
	for k, vs := range r.Header {
		for _, v := range vs {
			w.Header().Add("X-Got-"+k, v)
		}
	}
	w.Header().Add("X-Multi", "a")
	w.Header().Add("X-Multi", "b")
	w.Header().Set("X-Got-Host", r.Host)
	w.Header().Set("X-Got-Length", fmt.Sprint(r.ContentLength))
	status := 200
	fmt.Sscan(r.URL.Query().Get("status"), &status)
	w.WriteHeader(status)
	body, _ := io.ReadAll(r.Body)
	fmt.Fprintf(w, "%s %s\n%s", r.Method, r.RequestURI, body)
}

func TestHTTP(t *testing.T) {
	g := newGuest(t)
	srv := httptest.NewServer(http.HandlerFunc(echoHandler))
	defer srv.Close()
	c := testCall(t, Grants{HTTP: []string{"http://127.0.0.1:*/ok"}})
	defer c.End()

	h := g.http(t, c, "GET "+srv.URL+"/ok/a?status=201&q=x%20y\r\nAccept: text/plain\r\nX-Two: 1\r\nx-two: 2\r\n\r\n", 0, 0)
	require.Positive(t, h, g.lastError(t, c))
	assert.Equal(t, int32(201), g.v2(t, c, "http_status", uint32(h)))
	n, body := g.body(t, c, h)
	assert.Equal(t, "GET /ok/a?status=201&q=x%20y\n", body)
	assert.Equal(t, int32(len(body)), n)
	for _, tt := range []struct{ name, want string }{
		{"x-got-accept", "text/plain"},
		{"X-GOT-USER-AGENT", "gate-probe"},
		{"X-Got-X-Two", "1, 2"},
		{"X-Multi", "a, b"},
		{"X-Got-Host", srv.Listener.Addr().String()},
	} {
		n, got := g.header(t, c, h, tt.name)
		assert.Equal(t, tt.want, got, tt.name)
		assert.Equal(t, int32(len(tt.want)), n)
	}
	n, _ = g.header(t, c, h, "X-Absent")
	assert.Equal(t, StatusNotFound, n)
	assert.Equal(t, StatusNotFound, g.v2(t, c, "tls", uint32(h), dataAt))

	// A body, a probe's own User-Agent, and "\n" line ends.
	h = g.http(t, c, "POST "+srv.URL+"/ok\nUser-Agent: mine\nContent-Length: 999\n\n{\"a\":1}", 0, 0)
	require.Positive(t, h, g.lastError(t, c))
	_, body = g.body(t, c, h)
	assert.Equal(t, "POST /ok\n{\"a\":1}", body)
	_, ua := g.header(t, c, h, "X-Got-User-Agent")
	assert.Equal(t, "mine", ua)
	_, cl := g.header(t, c, h, "X-Got-Length")
	assert.Equal(t, "7", cl, "the host writes Content-Length")

	// The request line alone is a request.
	h = g.http(t, c, "HEAD "+srv.URL+"/ok", 0, 0)
	require.Positive(t, h, g.lastError(t, c))
	assert.Equal(t, int32(200), g.v2(t, c, "http_status", uint32(h)))

	// Readers refuse a stream handle and a closed one.
	assert.Equal(t, StatusOK, g.v2(t, c, "close", uint32(h)))
	assert.Equal(t, StatusBadHandle, g.v2(t, c, "http_status", uint32(h)))
	n, _ = g.body(t, c, h)
	assert.Equal(t, StatusBadHandle, n)
	n, _ = g.header(t, c, h, "X-Multi")
	assert.Equal(t, StatusBadHandle, n)
}

func TestHTTPRefusals(t *testing.T) {
	g := newGuest(t)
	srv := httptest.NewServer(http.HandlerFunc(echoHandler))
	defer srv.Close()
	closedAddr := testnet.ClosedAddr(t)
	c := testCall(t, Grants{HTTP: []string{"http://127.0.0.1:*/ok"}})
	defer c.End()
	tests := []struct {
		req     string
		flags   int32
		want    int32
		lastErr string
	}{
		{"GET " + srv.URL + "/nope", 0, StatusDenied, `http "` + srv.URL + `/nope" not granted`},
		{"GET " + srv.URL + "/ok/../nope", 0, StatusDenied, "not granted"},
		{"GET http://" + closedAddr + "/ok", 0, StatusRefused, "connection refused"},
		{"GET " + srv.URL + "/ok", 2, StatusBadRequest, "unknown flags"},
		{"GET", 0, StatusBadRequest, "METHOD URL"},
		{"G(T " + srv.URL + "/ok", 0, StatusBadRequest, "not an HTTP token"},
		{"GET " + srv.URL + "/ok\nBad Name: x", 0, StatusBadRequest, "header name"},
		{"GET " + srv.URL + "/ok\nNoColon", 0, StatusBadRequest, "no colon"},
		{"GET " + srv.URL + "/ok\nX: a\x00b", 0, StatusBadRequest, "control characters"},
		{"GET " + srv.URL + "/ok\n\n" + strings.Repeat("b", MaxHTTPRequestBody+1), 0, StatusBadRequest, "the body is"},
		{"GET ftp://127.0.0.1/ok", 0, StatusBadRequest, ""},
		{"GET http://user@127.0.0.1/ok", 0, StatusBadRequest, ""},
		{"GET " + srv.URL + "/${secret:X}", 0, StatusBadRequest, "placeholder"},
	}
	for _, tt := range tests {
		t.Run(tt.req[:min(len(tt.req), 60)], func(t *testing.T) {
			assert.Equal(t, tt.want, g.http(t, c, tt.req, tt.flags, 200))
			assert.Contains(t, g.lastError(t, c), tt.lastErr)
		})
	}
	// A range outside memory traps.
	_, err := g.call(c, "http", 65000, 4096, 0, 0)
	var merr *MemoryError
	assert.ErrorAs(t, err, &merr)
}

func TestHTTPS(t *testing.T) {
	g := newGuest(t)
	srv := httptest.NewTLSServer(http.HandlerFunc(echoHandler))
	defer srv.Close()
	leaf := srv.Certificate()
	pool := srv.Client().Transport.(*http.Transport).TLSClientConfig.RootCAs
	addr := srv.Listener.Addr().String()
	grants := Grants{HTTP: []string{"https://127.0.0.1:*/"}, Insecure: []string{addr}}
	get := "GET " + srv.URL + "/x\n"

	t.Run("verified", func(t *testing.T) {
		c := testCall(t, grants)
		c.Net = &Net{RootCAs: pool}
		defer c.End()
		h := g.http(t, c, get, 0, 0)
		require.Positive(t, h, g.lastError(t, c))
		assert.Equal(t, int32(200), g.v2(t, c, "http_status", uint32(h)))
		ok, notAfter, _ := g.tlsFacts(t, c, h)
		assert.Equal(t, int32(1), ok)
		assert.Equal(t, leaf.NotAfter.Unix(), notAfter)
	})
	t.Run("unknown authority", func(t *testing.T) {
		_, err := x509.SystemCertPool() // loaded once, outside the budget
		require.NoError(t, err)
		c := testCall(t, grants)
		defer c.End()
		assert.Equal(t, StatusTLS, g.http(t, c, get, 0, 0))
		assert.Contains(t, g.lastError(t, c), "certificate signed by unknown authority")
	})
	t.Run("insecure with its grant", func(t *testing.T) {
		c := testCall(t, grants)
		defer c.End()
		h := g.http(t, c, get, FlagInsecure, 0)
		require.Positive(t, h, g.lastError(t, c))
		ok, notAfter, _ := g.tlsFacts(t, c, h)
		assert.Equal(t, int32(0), ok)
		assert.Equal(t, leaf.NotAfter.Unix(), notAfter)
	})
	t.Run("insecure without its grant", func(t *testing.T) {
		c := testCall(t, Grants{HTTP: grants.HTTP})
		defer c.End()
		assert.Equal(t, StatusDenied, g.http(t, c, get, FlagInsecure, 0))
		assert.Equal(t, []string{`insecure "` + addr + `" not granted to probe "t"`}, c.Denials())
	})
}

func TestHTTPUnixSocket(t *testing.T) {
	g := newGuest(t)
	sock := filepath.Join(t.TempDir(), "docker.sock")
	l, err := net.Listen("unix", sock)
	require.NoError(t, err)
	srv := httptest.NewUnstartedServer(http.HandlerFunc(echoHandler))
	srv.Listener = l
	srv.Start()
	defer srv.Close()
	c := testCall(t, Grants{HTTP: []string{"unix:" + sock + ":/_ping"}})
	defer c.End()

	h := g.http(t, c, "GET unix:"+sock+":/_ping\n", 0, 0)
	require.Positive(t, h, g.lastError(t, c))
	assert.Equal(t, int32(200), g.v2(t, c, "http_status", uint32(h)))
	_, body := g.body(t, c, h)
	assert.Equal(t, "GET /_ping\n", body)
	_, host := g.header(t, c, h, "X-Got-Host")
	assert.Equal(t, "localhost", host)

	assert.Equal(t, StatusDenied, g.http(t, c, "GET unix:"+sock+":/containers/json\n", 0, 0))
	missing := filepath.Join(t.TempDir(), "none.sock")
	c2 := testCall(t, Grants{HTTP: []string{"unix:" + missing}})
	defer c2.End()
	assert.Equal(t, StatusRefused, g.http(t, c2, "GET unix:"+missing+":/_ping\n", 0, 0))
}

func TestHTTPRedirects(t *testing.T) {
	g := newGuest(t)
	var hits atomic.Int32
	other := httptest.NewServer(http.HandlerFunc(echoHandler))
	defer other.Close()
	mux := http.NewServeMux()
	mux.HandleFunc("/ok/hop", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/ok/echo", http.StatusFound)
	})
	mux.HandleFunc("/ok/echo", echoHandler)
	mux.HandleFunc("/ok/loop", func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		http.Redirect(w, r, "/ok/loop", http.StatusFound)
	})
	mux.HandleFunc("/ok/out", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/elsewhere", http.StatusFound)
	})
	mux.HandleFunc("/ok/cross", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, other.URL+"/ok/echo", http.StatusTemporaryRedirect)
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()
	c := testCall(t, Grants{HTTP: []string{"http://127.0.0.1:*/ok/"}})
	defer c.End()

	t.Run("within the grants", func(t *testing.T) {
		h := g.http(t, c, "GET "+srv.URL+"/ok/hop\nAuthorization: Basic x\n", 0, 0)
		require.Positive(t, h, g.lastError(t, c))
		assert.Equal(t, int32(200), g.v2(t, c, "http_status", uint32(h)))
		_, body := g.body(t, c, h)
		assert.Equal(t, "GET /ok/echo\n", body)
		_, auth := g.header(t, c, h, "X-Got-Authorization")
		assert.Equal(t, "Basic x", auth, "same scheme, host and port: sent again")
	})
	t.Run("to another origin", func(t *testing.T) {
		h := g.http(t, c, "GET "+srv.URL+"/ok/cross\nAuthorization: Basic x\nX-Keep: 1\n", 0, 0)
		require.Positive(t, h, g.lastError(t, c))
		assert.Equal(t, int32(200), g.v2(t, c, "http_status", uint32(h)))
		n, _ := g.header(t, c, h, "X-Got-Authorization")
		assert.Equal(t, StatusNotFound, n, "Authorization goes only to the same origin")
		_, keep := g.header(t, c, h, "X-Got-X-Keep")
		assert.Equal(t, "1", keep)
	})
	t.Run("loop", func(t *testing.T) {
		h := g.http(t, c, "GET "+srv.URL+"/ok/loop\n", 0, 0)
		require.Positive(t, h, g.lastError(t, c))
		assert.Equal(t, int32(302), g.v2(t, c, "http_status", uint32(h)))
		assert.Equal(t, int32(1+MaxRedirects), hits.Load(), "the first request and 5 redirects")
	})
	t.Run("out of the grants", func(t *testing.T) {
		h := g.http(t, c, "GET "+srv.URL+"/ok/out\n", 0, 0)
		require.Positive(t, h, g.lastError(t, c))
		assert.Equal(t, int32(302), g.v2(t, c, "http_status", uint32(h)))
		_, loc := g.header(t, c, h, "Location")
		assert.Equal(t, "/elsewhere", loc)
		// The scheme, host and port only: the path is the peer's text.
		assert.Contains(t, c.Denials(), `http "`+srv.URL+`" not granted to probe "t"`)
	})
}
