package probes_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/gate-dev/gate/internal/testnet"
	"github.com/gate-dev/gate/runtime"
)

// apiHandler is a small API: /ok, /auth (wants GOOD_KEY's value as a
// bearer token), /echo (reflects the Authorization header), /missing,
// /forbidden, /teapot, /busy, /hang, /redirect (to /ok, outside a grant for
// /redirect).
func apiHandler(t *testing.T) http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("/ok", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Ready", "yes")
		_, _ = w.Write([]byte(`{"status":"ok"}`))
	})
	mux.HandleFunc("/auth", func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer "+secrets["GOOD_KEY"] {
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		_, _ = w.Write([]byte("welcome"))
	})
	mux.HandleFunc("/echo", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Echo", r.Header.Get("Authorization"))
		_, _ = w.Write([]byte("you sent " + r.Header.Get("Authorization")))
	})
	mux.HandleFunc("/missing", http.NotFound)
	mux.HandleFunc("/forbidden", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusForbidden) })
	mux.HandleFunc("/teapot", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusTeapot) })
	mux.HandleFunc("/busy", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusServiceUnavailable) })
	mux.HandleFunc("/hang", hang(t))
	mux.HandleFunc("/redirect", func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, "/ok", http.StatusFound) })
	return mux
}

func TestHTTPProbeReal(t *testing.T) {
	e := newEngine(t)
	srv := httptest.NewServer(apiHandler(t))
	defer srv.Close()
	u := srv.URL // http://127.0.0.1:PORT
	closed := "http://" + testnet.ClosedAddr(t) + "/health"
	runReal(t, e, runtime.ProbeConfig{}, []realCase{
		{shorthand: u + "/ok", outcome: runtime.Available},
		{shorthand: u + `/ok status=200 expect_body="\"status\":\"ok\"" expect_header=X-Ready:yes reject_body=error`, outcome: runtime.Available},
		{shorthand: u + "/ok expect_body=down", outcome: runtime.Unavailable, reason: u + `/ok: HTTP 200, but the body does not contain "down"`},
		{shorthand: u + "/ok expect_header=X-Ready:no", outcome: runtime.Unavailable, reason: u + `/ok: HTTP 200, but header X-Ready is "yes", without "no"`},
		{shorthand: u + "/ok status=204", outcome: runtime.Unavailable, reason: u + "/ok: HTTP 200 (want 204)"},
		{shorthand: u + "/auth bearer=GOOD_KEY", outcome: runtime.Available},
		{shorthand: u + "/auth bearer=BAD_KEY", outcome: runtime.Unavailable, reason: u + "/auth: credentials rejected (HTTP 401)"},
		{shorthand: u + "/auth", outcome: runtime.Unavailable, reason: u + "/auth: credentials rejected (HTTP 401)"},
		{shorthand: u + "/auth bearer=UNSET_KEY", outcome: runtime.Unavailable, contains: "UNSET_KEY"},
		{shorthand: u + "/forbidden", outcome: runtime.Unavailable, reason: u + "/forbidden: credentials rejected (HTTP 403)"},
		{shorthand: u + "/missing", outcome: runtime.Unavailable, reason: u + "/missing: not found (HTTP 404)"},
		{shorthand: u + "/teapot", outcome: runtime.Unavailable, reason: u + "/teapot: HTTP 418"},
		{shorthand: u + "/busy", outcome: runtime.Failed, reason: u + "/busy: HTTP 503 (transient)"},
		{shorthand: u + "/busy status=200-299,503", outcome: runtime.Available},
		{shorthand: u + "/hang timeout_ms=20", outcome: runtime.Failed, reason: u + "/hang: timed out"},
		{shorthand: u + "/redirect", outcome: runtime.Available}, // 302, not followed out of the grant
		{shorthand: u + "/redirect status=200", outcome: runtime.Unavailable, reason: u + "/redirect: HTTP 302 (want 200)"},
		{shorthand: closed, outcome: runtime.Unavailable, reason: closed + ": connection refused"},
		// The server reflects the secret: what it sent back is withheld
		// whole, whatever the probe looks for in it, and the answer names
		// the secret and the server only (docs/ABI.md, "Secrets").
		{shorthand: u + "/echo bearer=GOOD_KEY expect_header=X-Echo:nothing", outcome: runtime.Unavailable,
			contains: `secret "GOOD_KEY" came back from ` + u},
		{shorthand: u + "/echo bearer=GOOD_KEY reject_body=Bearer", outcome: runtime.Unavailable,
			contains: `secret "GOOD_KEY" came back from ` + u},
		{shorthand: u + "/echo bearer=GOOD_KEY reject_body=" + secrets["GOOD_KEY"], outcome: runtime.Unavailable,
			contains: `secret "GOOD_KEY" came back from ` + u},
	})
}

func TestHTTPSProbeReal(t *testing.T) {
	e := newEngine(t)
	srv := httptest.NewTLSServer(apiHandler(t))
	defer srv.Close()
	u := srv.URL // https://127.0.0.1:PORT
	runReal(t, e, runtime.ProbeConfig{TLSRootCAs: pool(srv)}, []realCase{
		{shorthand: u + "/ok", outcome: runtime.Available},
		{shorthand: u + "/auth bearer=GOOD_KEY", outcome: runtime.Available},
		{shorthand: u + "/auth bearer=BAD_KEY", outcome: runtime.Unavailable, reason: u + "/auth: credentials rejected (HTTP 401)"},
		{shorthand: u + "/busy", outcome: runtime.Failed, reason: u + "/busy: HTTP 503 (transient)"},
	})
	// Without the test CA the server's certificate is not trusted.
	runReal(t, e, runtime.ProbeConfig{}, []realCase{
		{shorthand: u + "/ok", outcome: runtime.Unavailable, contains: u + "/ok: TLS: "},
	})
	// http:// to a TLS server: the host sees broken HTTP.
	plain := "http://" + strings.TrimPrefix(u, "https://") + "/ok"
	runReal(t, e, runtime.ProbeConfig{}, []realCase{
		{shorthand: plain, outcome: runtime.Unavailable, reason: plain + ": HTTP 400"},
	})
}
