package probes_test

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gate-dev/gate/internal/testnet"
	"github.com/gate-dev/gate/internal/testsvc"
	"github.com/gate-dev/gate/runtime"
)

// TestStandardProbeCodes runs each standard probe kind against a real
// loopback service in the state a code names, and checks the code of its
// answer: the code comes from what the host saw on the probe's behalf (a
// variable not set, a connection refused, a dial that timed out, an HTTP
// 401, a TLS handshake that failed, a binary not found), whatever words
// the probe chose. A Redis that rejects the password answers in its own
// protocol, which the host does not read: that is the probe's judgement,
// with the generic code. A probe that raises after a failure the host
// saw has that failure's code.
func TestStandardProbeCodes(t *testing.T) {
	e := newEngine(t)
	closed := testnet.ClosedAddr(t)
	hole := testnet.BlackHole(t)
	api := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/locked" {
			w.WriteHeader(http.StatusUnauthorized)
		}
	}))
	defer api.Close()
	// Not TLS: the handshake fails on the first bytes.
	plain := testsvc.Serve(t, func(c net.Conn) {
		_, _ = c.Write([]byte("SSH-2.0-OpenSSH_9.6\r\n\r\n\r\n\r\n"))
	})
	redis := testsvc.Redis(t, secrets["GOOD_KEY"])

	tests := []struct {
		shorthand string
		outcome   runtime.Outcome
		code      runtime.Code
	}{
		{"env:GATE_CODES_UNSET", runtime.Unavailable, runtime.CodeEnvMissing},
		{"env:GOOD_KEY", runtime.Available, ""},
		{"tcp:" + closed, runtime.Unavailable, runtime.CodeRefused},
		{"tcp:" + hole, runtime.Unavailable, runtime.CodeTimeout},
		{"import:bin:no-such-binary-gate-codes", runtime.Unavailable, runtime.CodeNotFound},
		{api.URL + "/locked", runtime.Unavailable, runtime.CodeAuthRejected},
		{api.URL + "/open", runtime.Available, ""},
		{"http://" + closed + "/", runtime.Unavailable, runtime.CodeRefused},
		{"tls:" + plain, runtime.Unavailable, runtime.CodeTLS},
		{"redis:" + closed, runtime.Unavailable, runtime.CodeRefused},
		// The Redis probe raises on a connection that times out (it cannot
		// tell); the code is still the host's observation.
		{"redis:" + hole + " timeout_ms=50", runtime.Failed, runtime.CodeTimeout},
		{"redis:" + redis + " password=NO_SUCH_KEY", runtime.Unavailable, runtime.CodeEnvMissing},
		{"redis:" + redis + " password=BAD_KEY", runtime.Unavailable, runtime.CodeUnavailable},
		{"redis:" + redis + " password=GOOD_KEY", runtime.Available, ""},
	}
	for _, tt := range tests {
		t.Run(tt.shorthand, func(t *testing.T) {
			p, err := e.StandardProbe(context.Background(), "p", tt.shorthand, runtime.ProbeConfig{})
			require.NoError(t, err)
			defer p.Close(context.Background())
			res := p.Run(context.Background())
			for attempt := 1; attempt < 5 && tt.outcome != runtime.Failed && late(res); attempt++ {
				t.Logf("attempt %d: the machine was late (%q, %v); running again", attempt, res.Reason, res.Err)
				res = p.Run(context.Background())
			}
			require.Equal(t, tt.outcome, res.Outcome, "reason %q, err %v", res.Reason, res.Err)
			assert.Equal(t, tt.code, res.Code, "reason %q", res.Reason)
		})
	}
}
