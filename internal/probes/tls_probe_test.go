package probes_test

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gate-dev/gate/hostfuncs"
	"github.com/gate-dev/gate/internal/probes"
	"github.com/gate-dev/gate/internal/testnet"
	"github.com/gate-dev/gate/internal/testsvc"
	"github.com/gate-dev/gate/runtime"
)

// tlsSetup is a run against addr, granted to connect there, trusting roots
// (nil: the system's).
func tlsSetup(addr string, config map[string]string, ca *testsvc.CA) setup {
	cfg := map[string]string{"addr": addr}
	for k, v := range config {
		cfg[k] = v
	}
	s := setup{config: cfg, grants: hostfuncs.Grants{Dial: []string{addr}}}
	if ca != nil {
		s.roots = ca.Pool()
	}
	return s
}

func TestTLSProbe(t *testing.T) {
	ca := testsvc.NewCA(t)
	valid := testsvc.ServeTLS(t, ca.Server(t, 90*testsvc.Day))
	expiringCert := ca.Server(t, 2*testsvc.Day)
	expiring := testsvc.ServeTLS(t, expiringCert)
	expiringDate := expiringCert.Leaf.NotAfter.UTC().Format(time.DateOnly)
	expired := testsvc.ServeTLS(t, ca.Expired(t))
	selfSigned := testsvc.ServeTLS(t, testsvc.SelfSigned(t, 90*testsvc.Day))
	refused := testnet.ClosedAddr(t)
	runProbeCases(t, probes.TLS, []probeCase{
		{"valid, tls_ca given", tlsSetup(valid, nil, ca), runtime.Available, ""},
		{"valid for more than days", tlsSetup(valid, map[string]string{"days": "89"}, ca), runtime.Available, ""},
		{"valid for fewer than days", tlsSetup(valid, map[string]string{"days": "365"}, ca), runtime.Unavailable,
			valid + ": certificate expires in 89 days (" + time.Now().Add(90*testsvc.Day).UTC().Format(time.DateOnly) + ")"},
		{"expiring within the default 14 days", tlsSetup(expiring, nil, ca), runtime.Unavailable,
			expiring + ": certificate expires in 1 day (" + expiringDate + ")"},
		{"expiring, days=1", tlsSetup(expiring, map[string]string{"days": "1"}, ca), runtime.Available, ""},
		{"expiring, days=0", tlsSetup(expiring, map[string]string{"days": "0"}, ca), runtime.Available, ""},
		{"refused", tlsSetup(refused, nil, ca), runtime.Unavailable, refused + ": connection refused"},
		{"addr not set", setup{}, runtime.Failed, `tls probe: config "addr" is not set`},
		{"days not a number", tlsSetup(valid, map[string]string{"days": "-1"}, ca), runtime.Failed,
			`tls probe: config "days" must be a whole number of days (0 to 36500), not "-1"`},
		{"days too many", tlsSetup(valid, map[string]string{"days": "36501"}, ca), runtime.Failed,
			`tls probe: config "days" must be a whole number of days (0 to 36500), not "36501"`},
	})

	// Verification failures quote the host's words, whatever they are.
	for name, tc := range map[string]struct {
		addr string
		ca   *testsvc.CA
		want string
	}{
		"unknown CA":               {valid, nil, "certificate signed by unknown authority"},
		"self-signed":              {selfSigned, ca, "certificate signed by unknown authority"},
		"expired":                  {expired, ca, "expired"},
		"another CA than tls_ca's": {valid, testsvc.NewCA(t), "certificate signed by unknown authority"},
	} {
		t.Run(name, func(t *testing.T) {
			got := runProbe(t, probes.TLS, tlsSetup(tc.addr, nil, tc.ca))
			assert.Equal(t, runtime.Unavailable, got.Outcome)
			assert.True(t, strings.HasPrefix(got.Reason, tc.addr+": certificate not verified: "), got.Reason)
			assert.Contains(t, got.Reason, tc.want)
		})
	}

	t.Run("stalled handshake", func(t *testing.T) {
		mute := testsvc.Mute(t)
		requireTimedOut(t, runProbeOnce(t, probes.TLS, tlsSetup(mute, nil, ca)), mute+": ")
	})
}

// TestTLSProbeDates checks the date in the reason against Go's calendar:
// the probe's civil-from-days in integer arithmetic, on both sides of
// month, year, leap-day and century boundaries.
func TestTLSProbeDates(t *testing.T) {
	ca := testsvc.NewCA(t)
	now := time.Now()
	dates := []time.Time{now.Add(3*testsvc.Day + time.Hour), now.Add(400*testsvc.Day + time.Hour)}
	for _, d := range []string{"2028-02-28T23:59:59Z", "2028-02-29T00:00:00Z", "2028-02-29T23:59:59Z",
		"2028-03-01T00:00:00Z", "2029-12-31T23:59:59Z", "2030-01-01T00:00:00Z", "2050-01-01T00:00:00Z",
		"2099-02-28T12:00:00Z", "2100-02-28T23:59:59Z", "2100-03-01T00:00:00Z"} {
		at, err := time.Parse(time.RFC3339, d)
		require.NoError(t, err)
		dates = append(dates, at)
	}
	for _, notAfter := range dates {
		t.Run(notAfter.Format(time.RFC3339), func(t *testing.T) {
			addr := testsvc.ServeTLS(t, ca.Issue(t, now.Add(-time.Hour), notAfter))
			days := int(time.Until(notAfter) / testsvc.Day)
			got := runProbe(t, probes.TLS, tlsSetup(addr, map[string]string{"days": "36500"}, ca))
			require.Equal(t, runtime.Unavailable, got.Outcome, got.Reason)
			n, date, ok := strings.Cut(strings.TrimPrefix(got.Reason, addr+": certificate expires in "), " days (")
			require.True(t, ok, got.Reason)
			assert.Equal(t, notAfter.UTC().Format(time.DateOnly)+")", date)
			// Whole days left, rounded down: the run may start just
			// after a day boundary that the test saw before it.
			assert.Contains(t, []string{strconv.Itoa(days), strconv.Itoa(days - 1)}, n)
		})
	}
}

// TestProtocolProbesAreRepeatable runs each protocol probe several times
// in one engine, which reuses its instance: a reused instance must answer
// as a fresh one did, not with a reason that grew or a reader that still
// holds the last peer's bytes.
func TestProtocolProbesAreRepeatable(t *testing.T) {
	ctx := context.Background()
	e, err := runtime.NewEngine(ctx, runtime.NewEngineConfig())
	require.NoError(t, err)
	defer e.Close(ctx)
	addr := testsvc.Script(t, "", []byte("-ERR not what you want\r\nE\x00\x00\x00\x04"))
	for _, kind := range []probes.Kind{probes.Redis, probes.Postgres, probes.TLS, probes.Memcached} {
		t.Run(string(kind), func(t *testing.T) {
			wasm, _ := probes.Wasm(kind)
			m, err := e.Compile(ctx, string(kind)+".wasm", wasm)
			require.NoError(t, err)
			p, err := e.NewProbe(ctx, string(kind), m, runtime.ProbeConfig{
				Grants: hostfuncs.Grants{Dial: []string{addr}}, Config: map[string]string{"addr": addr}})
			require.NoError(t, err)
			var first runtime.Result
			reused := false
			for i := 0; i < 4; i++ {
				res := p.Run(ctx)
				if res.Outcome == runtime.Failed && strings.Contains(res.Reason, "timed out") {
					t.Logf("run %d: the machine was late: %s", i, res.Reason)
					continue
				}
				if first.Reason == "" {
					first = res
					continue
				}
				reused = reused || !res.Fresh
				assert.Equal(t, first.Outcome, res.Outcome, "run %d", i)
				assert.Equal(t, first.Reason, res.Reason, "run %d", i)
			}
			require.NotEmpty(t, first.Reason)
			assert.True(t, reused, "no run reused an instance")
		})
	}
}
