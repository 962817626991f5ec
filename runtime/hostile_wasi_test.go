package runtime

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestHostileWASI: probes that tried to escape the budget through WASI,
// whose wazero implementation neither checked the deadline nor bounded the
// work of one call, are stopped at the budget like any other loop, name
// the function they were in (or the probe, when metering noticed first),
// and leave the engine healthy.
func TestHostileWASI(t *testing.T) {
	e := newEngine(t, NewEngineConfig())

	tests := []struct {
		module  string
		outcome Outcome
		phases  []string // for Failed: where it may have been stopped
	}{
		{"wasi_random_loop", Failed, []string{"wasi.random_get", "probe"}},
		{"wasi_random_initialize", Failed, []string{"wasi.random_get", "_initialize"}},
		{"wasi_fd_write_iovecs", Failed, []string{"wasi.fd_write", "probe"}},
		{"wasi_poll_clocks", Failed, []string{"wasi.poll_oneoff", "probe"}},
		// EINVAL, where wazero's overflowed and put a Go stack in the error.
		{"wasi_poll_overflow", Unavailable, nil},
	}
	for _, tt := range tests {
		t.Run(tt.module, func(t *testing.T) {
			res := runTimed(t, hostileProbe(t, e, tt.module, ProbeConfig{}))

			require.Equal(t, tt.outcome, res.Outcome, "reason: %s", res.Reason)
			if tt.outcome == Failed {
				var perr *ProbeError
				require.ErrorAs(t, res.Err, &perr)
				assert.Equal(t, KindOverrun, perr.Kind, "%s", res.Reason)
				assert.Contains(t, tt.phases, perr.Phase)
				assert.ErrorIs(t, res.Err, context.DeadlineExceeded)
				assertNoHostStack(t, perr)
			} else {
				assert.NoError(t, res.Err)
			}
			assertHealthy(t, e)
		})
	}
}

// TestWASIHonoursCallerContext: a caller that gives up after 30 ms gets
// its answer then, not at the end of the probe's budget or of a WASI call
// (wazero's ignored the caller's context).
func TestWASIHonoursCallerContext(t *testing.T) {
	e := newEngine(t, NewEngineConfig())
	p := hostileProbe(t, e, "wasi_random_loop", ProbeConfig{})
	const wait = 30 * time.Millisecond
	stop := schedNoise(t)
	start := time.Now()
	ctx, cancel := context.WithTimeout(context.Background(), wait)
	defer cancel()
	res := p.Run(ctx)
	took := time.Since(start)
	assertAnsweredInTime(t, took, wait, stop())

	require.Equal(t, Failed, res.Outcome, "reason: %s", res.Reason)
	var perr *ProbeError
	require.ErrorAs(t, res.Err, &perr)
	assert.Equal(t, KindCanceled, perr.Kind, "%s", res.Reason)
	assert.Contains(t, []string{"wasi.random_get", "probe"}, perr.Phase)
	assert.True(t, errors.Is(res.Err, context.DeadlineExceeded), "the caller's context's error")
	assertNoHostStack(t, perr)
	assertHealthy(t, e)
}

// assertNoHostStack: what a probe did wrong is reported in its own terms;
// a host Go stack in the detail (what a recovered Go panic in a host
// function adds) would be a host bug.
func assertNoHostStack(t *testing.T, perr *ProbeError) {
	t.Helper()
	for _, s := range []string{"goroutine", ".go:"} {
		assert.NotContains(t, perr.Detail(), s)
		assert.NotContains(t, perr.Error(), s)
	}
}
