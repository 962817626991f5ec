package runtime

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestPolicyRules walks thresholds, retry and hold-down with the fake
// clock, each row a read at a time (TTL = grace = 30 s unless a row says
// otherwise), and with each the rows of the reference's table they must
// leave as they are.
func TestPolicyRules(t *testing.T) {
	s := time.Second
	tests := []struct {
		name   string
		policy Policy
		cfg    registryConfig
		probe  *scripted
		steps  []step
	}{
		{"the zero policy is the reference's table: one unavailable hides", Policy{}, newRegistryConfig(), script(ok, no, ok), []step{
			{at: 0, listed: true, runs: 1},
			{at: 30 * s, listed: false, runs: 2, logs: []string{debugUnavailable}},
			{at: 59 * s, listed: false, runs: 2},
			{at: 60 * s, listed: true, runs: 3},
		}},
		{"failure_threshold 3: the third unavailable in a row hides", Policy{FailureThreshold: 3}, newRegistryConfig(), script(ok, no, no, no), []step{
			{at: 0, listed: true, runs: 1},
			{at: 30 * s, listed: true, runs: 2, logs: []string{debugUnavailable}},
			{at: 59 * s, listed: true, runs: 2}, // the pending answer is cached for the TTL
			{at: 60 * s, listed: true, runs: 3, logs: []string{debugUnavailable}},
			{at: 90 * s, listed: false, runs: 4, logs: []string{debugUnavailable}},
		}},
		{"an answer that agrees starts the count again", Policy{FailureThreshold: 2}, newRegistryConfig().WithTTL(0), script(ok, no, ok, no, ok), []step{
			{at: 0, listed: true, runs: 1},
			{at: s, listed: true, runs: 2, logs: []string{debugUnavailable}},
			{at: 2 * s, listed: true, runs: 3},
			{at: 3 * s, listed: true, runs: 4, logs: []string{debugUnavailable}},
			{at: 4 * s, listed: true, runs: 5},
		}},
		{"errors past the grace window count toward the threshold; graced ones are available", Policy{FailureThreshold: 2}, newRegistryConfig(), script(ok, raises), []step{
			{at: 0, listed: true, runs: 1},
			{at: 30 * s, listed: true, runs: 2, logs: []string{debugGraced}},
			{at: 60 * s, listed: true, runs: 3, logs: []string{warnFailed}}, // past the window: 1 of 2
			{at: 89 * s, listed: true, runs: 3},
			{at: 90 * s, listed: false, runs: 4, logs: []string{warnFailed}},
		}},
		{"success_threshold 2: the second available in a row brings it back", Policy{SuccessThreshold: 2}, newRegistryConfig(), script(no, ok, no, ok, ok), []step{
			{at: 0, listed: false, runs: 1, logs: []string{debugUnavailable}},
			{at: 30 * s, listed: false, runs: 2},
			{at: 60 * s, listed: false, runs: 3, logs: []string{debugUnavailable}},
			{at: 90 * s, listed: false, runs: 4},
			{at: 120 * s, listed: true, runs: 5},
		}},
		{"the first answer is taken at once whatever the thresholds", Policy{FailureThreshold: 5, SuccessThreshold: 5}, newRegistryConfig(), script(no), []step{
			{at: 0, listed: false, runs: 1, logs: []string{debugUnavailable}},
		}},
		{"retry: a hidden tool is probed again sooner, a healthy one after the TTL", Policy{Retry: 5 * s}, newRegistryConfig(), script(no, no, ok), []step{
			{at: 0, listed: false, runs: 1, logs: []string{debugUnavailable}},
			{at: 4 * s, listed: false, runs: 1},
			{at: 5 * s, listed: false, runs: 2, logs: []string{debugUnavailable}},
			{at: 10 * s, listed: true, runs: 3},
			{at: 39 * s, listed: true, runs: 3},
			{at: 40 * s, listed: true, runs: 4},
		}},
		{"retry: a listed tool with a failure counted is probed again sooner", Policy{FailureThreshold: 2, Retry: 5 * s}, newRegistryConfig(), script(ok, no, no), []step{
			{at: 0, listed: true, runs: 1},
			{at: 30 * s, listed: true, runs: 2, logs: []string{debugUnavailable}},
			{at: 34 * s, listed: true, runs: 2},
			{at: 35 * s, listed: false, runs: 3, logs: []string{debugUnavailable}},
			{at: 40 * s, listed: false, runs: 4, logs: []string{debugUnavailable}},
		}},
		{"retry: a hidden tool with a success counted is probed again sooner", Policy{SuccessThreshold: 2, Retry: 5 * s}, newRegistryConfig(), script(no, ok, ok), []step{
			{at: 0, listed: false, runs: 1, logs: []string{debugUnavailable}},
			{at: 5 * s, listed: false, runs: 2},
			{at: 10 * s, listed: true, runs: 3},
		}},
		{"hold_down: a flip stays for the hold, and the answers that follow flip it once it ends", Policy{HoldDown: 60 * s}, newRegistryConfig(), script(ok, no, ok), []step{
			{at: 0, listed: true, runs: 1},
			{at: 30 * s, listed: false, runs: 2, logs: []string{debugUnavailable}}, // a flip: held until 90
			{at: 60 * s, listed: false, runs: 3},                                   // available, held
			{at: 89 * s, listed: false, runs: 3},                                   // probed again when the hold ends,
			{at: 90 * s, listed: true, runs: 4},                                    // not after another TTL
		}},
		{"hold_down does not hold the first answer", Policy{HoldDown: time.Hour}, newRegistryConfig(), script(no, ok), []step{
			{at: 0, listed: false, runs: 1, logs: []string{debugUnavailable}},
			{at: 30 * s, listed: true, runs: 2},
		}},
		{"hold_down with a threshold: the count goes on during the hold", Policy{HoldDown: 45 * s, FailureThreshold: 2}, newRegistryConfig().WithTTL(10 * s).WithGrace(0), script(no, ok, no, no, ok), []step{
			{at: 0, listed: false, runs: 1, logs: []string{debugUnavailable}},
			{at: 10 * s, listed: true, runs: 2},                                   // flip at 10: held until 55
			{at: 20 * s, listed: true, runs: 3, logs: []string{debugUnavailable}}, // 1 of 2
			{at: 30 * s, listed: true, runs: 4, logs: []string{debugUnavailable}}, // 2 of 2, held
			{at: 55 * s, listed: true, runs: 5},                                   // agrees: the count starts again
			{at: 64 * s, listed: true, runs: 5},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(tt.cfg)
			require.NoError(t, h.Register(Tool{Name: "flaky", Probe: tt.probe, Policy: &tt.policy}, false))
			h.walk(t, "flaky", tt.probe, tt.steps)
		})
	}
}

// A tool's own policy wins over the registry's; a tool without one has
// the registry's.
func TestPolicyOfTheToolOrTheRegistry(t *testing.T) {
	h := newHarness(newRegistryConfig().WithTTL(0).WithPolicy(Policy{FailureThreshold: 2}))
	strict, lenient := script(ok, no), script(ok, no)
	require.NoError(t, h.Register(Tool{Name: "strict", Probe: strict, Policy: &Policy{}}, false))
	require.NoError(t, h.Register(Tool{Name: "lenient", Probe: lenient}, false))
	assert.Equal(t, []string{"strict", "lenient"}, h.listed(t))
	assert.Equal(t, []string{"lenient"}, h.listed(t))
}

// Status shows a flip under way: the answer served, and the one counted.
func TestStatusShowsThePendingFlip(t *testing.T) {
	h := newHarness(newRegistryConfig().WithPolicy(Policy{FailureThreshold: 3, HoldDown: time.Minute}))
	require.NoError(t, h.Register(Tool{Name: "flaky", Probe: script(no, ok, no)}, false))
	st := h.status(t, "flaky")
	assert.Equal(t, StateUnavailable, st.State)
	assert.Nil(t, st.Pending)

	h.clock.At(30 * time.Second) // flipped: held until 90
	st = h.status(t, "flaky")
	assert.Equal(t, StateAvailable, st.State)
	assert.Nil(t, st.Pending)

	h.clock.At(60 * time.Second)
	st = h.status(t, "flaky")
	assert.Equal(t, StateAvailable, st.State, "served as it was")
	assert.Equal(t, h.clock.t0.Add(30*time.Second), st.CheckedAt, "the answer served is the one before")
	assert.False(t, st.Cached)
	require.NotNil(t, st.Pending)
	assert.Equal(t, Pending{State: StateUnavailable, Reason: no.Reason, Count: 1, Of: 3, At: h.clock.Now()}, *st.Pending)

	st = h.status(t, "flaky")
	assert.True(t, st.Cached)
	assert.Equal(t, 1, st.Pending.Count, "a cached read shows the pending answer too")
}

// Subscribe hears of flips only; a Service's events hear of the answers a
// policy held back as well.
func TestSubscribersAndPendingAnswers(t *testing.T) {
	h := newHarness(newRegistryConfig().WithTTL(0).WithPolicy(Policy{FailureThreshold: 2}))
	require.NoError(t, h.Register(Tool{Name: "flaky", Probe: script(ok, no, no)}, false))
	var flips, all []Change
	defer h.Subscribe(func(c Change) { flips = append(flips, c) })()
	defer h.subscribe(func(c Change) { all = append(all, c) }, true)()
	for range 3 {
		h.listed(t)
	}
	require.Len(t, flips, 1)
	assert.False(t, flips[0].Available)
	assert.Nil(t, flips[0].Pending)
	require.Len(t, all, 2)
	assert.True(t, all[0].Available, "still listed")
	assert.Equal(t, &Pending{State: StateUnavailable, Reason: no.Reason, Count: 1, Of: 2, At: h.clock.Now()}, all[0].Pending)
	assert.Equal(t, flips[0], all[1])
}

// In the background a failing tool is due again by its retry interval,
// ahead of it by the same fifth-and-jitter a healthy one has of its TTL.
func TestBackgroundRetry(t *testing.T) {
	h := newHarness(newRegistryConfig().WithBackgroundRefresh(true).WithPolicy(Policy{Retry: 10 * time.Second}))
	p := script(no, ok)
	require.NoError(t, h.Register(Tool{Name: "flaky", Probe: p}, false))
	ctx := context.Background()
	assert.Equal(t, 1, h.RefreshDue(ctx))
	h.clock.At(7 * time.Second) // before 10 - 2 - up to 1
	assert.Equal(t, 0, h.RefreshDue(ctx))
	h.clock.At(8 * time.Second)
	assert.Equal(t, 1, h.RefreshDue(ctx))
	assert.Equal(t, []string{"flaky"}, h.listed(t))
	h.clock.At(20 * time.Second) // healthy: the TTL again
	assert.Equal(t, 0, h.RefreshDue(ctx))
	assert.Equal(t, int32(2), p.runs.Load())
}

// A manifest's policy keys reach the registries: [runtime]'s for every
// tool and server, an entry's key by key over them, a server's for its
// upstream tool rules.
func TestManifestPolicy(t *testing.T) {
	path := writeManifest(t, `
[runtime]
failure_threshold = 3
retry = "5s"

[[tools]]
name = "own"
probe = "env:HOME"
success_threshold = 2
hold_down = "1m"

[[tools]]
name = "plain"
probe = "env:HOME"

[[servers]]
name = "notes"
command = ["true"]
hold_down = "0s"

[[servers.tools]]
name = "delete"
probe = "env:HOME"
`, nil)
	ctx := context.Background()
	g, err := Open(ctx, path, NewGateConfig())
	require.NoError(t, err)
	defer g.Close(ctx)
	own, _ := g.Tools().Get("own")
	assert.Equal(t, &Policy{FailureThreshold: 3, SuccessThreshold: 2, Retry: 5 * time.Second, HoldDown: time.Minute}, own.Policy)
	plain, _ := g.Tools().Get("plain")
	assert.Nil(t, plain.Policy, "none of its own")
	assert.Equal(t, Policy{FailureThreshold: 3, Retry: 5 * time.Second}, g.Tools().cfg.policy)
	for _, name := range []string{"notes", "notes#delete"} {
		s, ok := g.Servers().Get(name)
		require.True(t, ok, name)
		assert.Equal(t, &Policy{FailureThreshold: 3, Retry: 5 * time.Second}, s.Policy, name)
	}
}

// A Service publishes an answer a policy held back as an event that says
// so, and the flip when the threshold is reached; serve's log and the
// event stream show both.
func TestServicePublishesPendingAnswers(t *testing.T) {
	t.Setenv("GATE_TEST_POLICY", "set")
	path := writeManifest(t, `
[runtime]
ttl = "50ms"
grace = "0s"

[[tools]]
name = "flaky"
probe = "env:GATE_TEST_POLICY"
failure_threshold = 3
`, nil)
	_, ev := startService(t, path, nil)
	os.Unsetenv("GATE_TEST_POLICY")
	flip := ev.wait(t, func(e Event) bool { return e.Name == "flaky" && e.Pending == nil }, "the flip")
	assert.False(t, flip.Available)
	var pending []Pending
	for _, e := range ev.snapshot() {
		if e.Pending != nil {
			assert.True(t, e.Available, "served as it was")
			assert.Equal(t, "available", e.State)
			pending = append(pending, *e.Pending)
		}
	}
	require.Len(t, pending, 2, "two answers held back, the third flips")
	for i, p := range pending {
		assert.Equal(t, i+1, p.Count)
		assert.Equal(t, 3, p.Of)
		assert.Equal(t, StateUnavailable, p.State)
		assert.Contains(t, p.Reason, "GATE_TEST_POLICY")
	}
}

// A late answer says so when it is read again from the cache, not only to
// the read that waited for it.
func TestCachedAnswerKeepsLate(t *testing.T) {
	h := newHarness(newRegistryConfig())
	require.NoError(t, h.Register(Tool{Name: "slow", Probe: script(Result{Outcome: Available, Late: true})}, false))
	assert.True(t, h.status(t, "slow").Late)
	st := h.status(t, "slow")
	assert.True(t, st.Cached)
	assert.True(t, st.Late)
}
