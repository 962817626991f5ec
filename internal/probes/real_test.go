package probes_test

import (
	"context"
	"crypto/x509"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gate-dev/gate/runtime"
)

// The tests in *_real_test.go run the embedded v2 probes through the real
// engine (runtime.Engine.StandardProbe, so with the grants their
// shorthands give and nothing else) against real loopback servers.

// secrets is the environment the engines of these tests see.
var secrets = map[string]string{"GOOD_KEY": "good-key-4f1d", "BAD_KEY": "bad-key-77a0"}

// newEngine returns an engine that reads secrets instead of the process'
// environment.
func newEngine(t *testing.T) *runtime.Engine {
	t.Helper()
	cfg := runtime.NewEngineConfig().WithLookupEnv(func(name string) (string, bool) {
		v, ok := secrets[name]
		return v, ok
	})
	e, err := runtime.NewEngine(context.Background(), cfg)
	require.NoError(t, err)
	t.Cleanup(func() { e.Close(context.Background()) })
	return e
}

// realCase is one run of a standard probe through the engine.
type realCase struct {
	shorthand string
	outcome   runtime.Outcome
	reason    string // the probe's own reason, exactly; "" means none
	contains  string // or: a part of it
}

// runReal runs every case, each a fresh probe, with cfg. A run that ends
// late (the probe's own timeout or the budget) where the case wants no
// raise is run again, five times at most, as runProbe does: a loaded
// machine, not the probe, may have made it late.
func runReal(t *testing.T, e *runtime.Engine, cfg runtime.ProbeConfig, cases []realCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.shorthand, func(t *testing.T) {
			p, err := e.StandardProbe(context.Background(), "p", tc.shorthand, cfg)
			require.NoError(t, err)
			defer p.Close(context.Background())
			res := p.Run(context.Background())
			for attempt := 1; attempt < 5 && tc.outcome != runtime.Failed && late(res); attempt++ {
				t.Logf("attempt %d: the machine was late (%q, %v); running again", attempt, probeReason(res), res.Err)
				res = p.Run(context.Background())
			}
			reason := probeReason(res)
			assert.Equal(t, tc.outcome, res.Outcome, "reason %q, err %v, denials %v", reason, res.Err, res.Denials)
			switch {
			case tc.contains != "":
				assert.Contains(t, reason, tc.contains)
			case tc.outcome != runtime.Available:
				assert.Equal(t, tc.reason, reason)
			}
			for _, v := range secrets {
				assert.NotContains(t, res.Reason, v, "a secret's value in the reason")
			}
		})
	}
}

// late reports whether a run raised because a wait ended with its time:
// the probe's own timeout ("timed out") or the budget.
func late(res runtime.Result) bool {
	return res.Outcome == runtime.Failed &&
		(errors.Is(res.Err, context.DeadlineExceeded) || strings.Contains(probeReason(res), ": timed out"))
}

// probeReason is the probe's own reason: Result.Reason, or for a probe
// that raised, the reason it gave.
func probeReason(res runtime.Result) string {
	var perr *runtime.ProbeError
	if res.Outcome == runtime.Failed && errors.As(res.Err, &perr) {
		return perr.Reason
	}
	return res.Reason
}

// pool is a cert pool holding the test server's certificate.
func pool(srv *httptest.Server) *x509.CertPool {
	p := x509.NewCertPool()
	p.AddCert(srv.Certificate())
	return p
}

// unixServer serves h on a unix socket in a temporary directory and
// returns its path.
func unixServer(t *testing.T, h http.Handler) string {
	t.Helper()
	// t.TempDir() can be longer than a socket path may be (108 bytes).
	dir, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	sock := filepath.Join(dir, "d.sock")
	if len(sock) > 100 {
		t.Fatalf("socket path %q is too long for a unix socket", sock)
	}
	l, err := net.Listen("unix", sock)
	require.NoError(t, err)
	srv := &http.Server{Handler: h}
	go func() { _ = srv.Serve(l) }()
	t.Cleanup(func() { _ = srv.Close() })
	return sock
}

// hang blocks a handler until its client goes away or the test ends.
func hang(t *testing.T) http.HandlerFunc {
	done := make(chan struct{})
	t.Cleanup(func() { close(done) })
	return func(w http.ResponseWriter, r *http.Request) {
		// Read the body first: until it has, the server does not watch
		// the connection, and would not see the client go away.
		_, _ = io.Copy(io.Discard, r.Body)
		select {
		case <-r.Context().Done():
		case <-done:
		}
	}
}
