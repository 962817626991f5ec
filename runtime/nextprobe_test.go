package runtime

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Status.NextProbe is when a read of the registry's own accord probes the
// tool again: the TTL after the answer, the retry interval while it
// fails, the end of a hold-down that keeps a flip waiting; nothing for a
// tool without a probe. Times are on the fake clock, exact.
func TestStatusNextProbe(t *testing.T) {
	s := time.Second
	tests := []struct {
		name   string
		policy Policy
		probe  *scripted
		reads  []time.Duration // reads before the last, at these times
		at     time.Duration   // the last read
		want   time.Duration   // its NextProbe; -1: zero
	}{
		{"an available answer: its TTL", Policy{}, script(ok), nil, 10 * s, 40 * s},
		{"an unavailable answer: its TTL without a retry", Policy{}, script(no), nil, 0, 30 * s},
		{"an unavailable answer: the retry interval", Policy{Retry: 5 * s}, script(no), nil, 2 * s, 7 * s},
		{"a flip counted toward a threshold: the retry interval after the pending answer", Policy{FailureThreshold: 2, Retry: 5 * s}, script(ok, no), []time.Duration{0}, 30 * s, 35 * s},
		{"a flip held down: the hold's end", Policy{HoldDown: 40 * s}, script(no, ok, no), []time.Duration{0, 30 * s}, 60 * s, 70 * s},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(newRegistryConfig().WithPolicy(tt.policy))
			require.NoError(t, h.Register(Tool{Name: "flaky", Probe: tt.probe}, false))
			for _, at := range tt.reads {
				h.clock.At(at)
				h.status(t, "flaky")
			}
			h.clock.At(tt.at)
			st := h.status(t, "flaky")
			assert.Equal(t, h.clock.t0.Add(tt.want), st.NextProbe, "checked at %v, pending %+v", st.CheckedAt.Sub(h.clock.t0), st.Pending)
			h.clock.At(tt.want - time.Nanosecond)
			runs := tt.probe.runs.Load()
			h.status(t, "flaky")
			assert.Equal(t, runs, tt.probe.runs.Load(), "a read before NextProbe probes nothing")
		})
	}
}

// In the background NextProbe is the refresher's own schedule: RefreshDue
// takes the tool at NextProbe and not a nanosecond before.
func TestStatusNextProbeInTheBackground(t *testing.T) {
	for _, pol := range []Policy{{}, {Retry: 10 * time.Second}} {
		h := newHarness(newRegistryConfig().WithBackgroundRefresh(true).WithPolicy(pol))
		p := script(no)
		require.NoError(t, h.Register(Tool{Name: "flaky", Probe: p}, false))
		ctx := context.Background()
		require.Equal(t, 1, h.RefreshDue(ctx))
		next := h.status(t, "flaky").NextProbe
		require.False(t, next.IsZero())
		assert.Less(t, next.Sub(h.clock.t0), h.every(false, nil, &pol), "ahead of the answer's expiry")
		h.clock.At(next.Sub(h.clock.t0) - time.Nanosecond)
		assert.Equal(t, 0, h.RefreshDue(ctx))
		h.clock.At(next.Sub(h.clock.t0))
		assert.Equal(t, 1, h.RefreshDue(ctx))
	}
}

// A tool without a probe never changes: no NextProbe. Neither has an
// answer that is not reused (graced: the next read probes).
func TestStatusNextProbeNone(t *testing.T) {
	h := newHarness(newRegistryConfig())
	require.NoError(t, h.Register(Tool{Name: "always"}, false))
	require.NoError(t, h.Register(Tool{Name: "graced", Probe: script(ok, raises)}, false))
	assert.True(t, h.status(t, "always").NextProbe.IsZero())
	h.status(t, "graced")
	h.clock.At(30 * time.Second)
	st := h.status(t, "graced")
	require.True(t, st.Graced)
	assert.True(t, st.NextProbe.IsZero())
}
