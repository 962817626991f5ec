package mcpgw

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gate-dev/gate/internal/manifest"
)

// breakerStep is one thing that happens to a breaker at a time after the
// start (a fake clock): a call's verdict, or a computation of the offered
// set that settles it with a probe answer and the session's readiness.
type breakerStep struct {
	at time.Duration
	// A call, when h is not healthNone; who is the client whose call it
	// was (for a healthCallFault).
	h   health
	who string
	// A settle, when settle is set.
	settle bool
	probe  *probeAnswerAt // nil: the server has no probe
	ready  bool

	// What the step must leave.
	state  string
	change string // the change it made ("" for none)
	wake   time.Duration
	hides  string // a part of why the tools are hidden ("" when offered)
}

// probeAnswerAt is a probe answer whose run started at a time after the
// start.
type probeAnswerAt struct {
	available bool
	at        time.Duration
}

func call(at time.Duration, h health, state string) breakerStep {
	return breakerStep{at: at, h: h, state: state}
}

// callOf is a call of client who that a 5xx failed.
func callOf(at time.Duration, who, state string) breakerStep {
	return breakerStep{at: at, h: healthCallFault, who: who, state: state}
}

func TestBreakerStateMachine(t *testing.T) {
	policy := breakerPolicy{failures: 3, window: 10 * time.Second, cooldown: 5 * time.Second}
	fail, ok := healthFault, healthOK
	up := &probeAnswerAt{available: true}
	tests := []struct {
		name   string
		policy breakerPolicy
		steps  []breakerStep
	}{
		{"failures in a row open it", policy, []breakerStep{
			call(0, fail, BreakerClosed),
			call(time.Second, fail, BreakerClosed),
			{at: 2 * time.Second, h: fail, state: BreakerOpen, change: BreakerOpen, hides: "3 calls in a row failed (last: boom)"},
		}},
		{"an answer between failures resets the count", policy, []breakerStep{
			call(0, fail, BreakerClosed),
			call(1, fail, BreakerClosed),
			call(2, ok, BreakerClosed),
			call(3, fail, BreakerClosed),
			call(4, fail, BreakerClosed),
			{at: 5, h: fail, state: BreakerOpen, change: BreakerOpen},
		}},
		{"calls that say nothing neither count nor reset", policy, []breakerStep{
			call(0, fail, BreakerClosed),
			call(1, healthNone, BreakerClosed),
			call(2, fail, BreakerClosed),
			call(3, healthNone, BreakerClosed),
			{at: 4, h: fail, state: BreakerOpen, change: BreakerOpen},
		}},
		{"failures further apart than the window do not add up", policy, []breakerStep{
			call(0, fail, BreakerClosed),
			call(6*time.Second, fail, BreakerClosed),
			call(12*time.Second, fail, BreakerClosed), // the first is 12s old
			{at: 13 * time.Second, h: fail, state: BreakerOpen, change: BreakerOpen},
		}},
		{"failures 0 is no breaker", breakerPolicy{window: time.Second, cooldown: time.Second}, []breakerStep{
			call(0, fail, BreakerClosed), call(1, fail, BreakerClosed), call(2, fail, BreakerClosed), call(3, fail, BreakerClosed),
		}},
		{"without a probe: cool-down, then a trial that is answered closes it", policy, []breakerStep{
			call(0, fail, BreakerClosed), call(0, fail, BreakerClosed), call(0, fail, BreakerOpen),
			{at: time.Second, settle: true, ready: true, state: BreakerOpen, wake: 5 * time.Second, hides: "failed"},
			{at: 2 * time.Second, settle: true, ready: true, state: BreakerOpen, hides: "failed"}, // asked to be woken already
			{at: 5 * time.Second, settle: true, ready: false, state: BreakerOpen, hides: "failed"},
			{at: 6 * time.Second, settle: true, ready: true, state: BreakerHalfOpen, change: BreakerHalfOpen},
			call(7*time.Second, healthNone, BreakerHalfOpen),
			{at: 7 * time.Second, h: ok, state: BreakerClosed, change: BreakerClosed},
			// Closed again, it needs as many failures as before.
			call(8*time.Second, fail, BreakerClosed), call(8*time.Second, fail, BreakerClosed),
		}},
		{"a failed trial opens it again, the cool-down doubled", policy, []breakerStep{
			call(0, fail, BreakerClosed), call(0, fail, BreakerClosed), call(0, fail, BreakerOpen),
			{at: 5 * time.Second, settle: true, ready: true, state: BreakerHalfOpen, change: BreakerHalfOpen},
			{at: 6 * time.Second, h: fail, state: BreakerOpen, change: BreakerOpen, hides: "a trial call failed too (last: boom)"},
			{at: 7 * time.Second, settle: true, ready: true, state: BreakerOpen, wake: 16 * time.Second},
			{at: 16 * time.Second, settle: true, ready: true, state: BreakerHalfOpen, change: BreakerHalfOpen},
			{at: 16 * time.Second, h: fail, state: BreakerOpen, change: BreakerOpen},
			{at: 17 * time.Second, settle: true, ready: true, state: BreakerOpen, wake: 36 * time.Second},
		}},
		{"the doubling stops at 8 times", breakerPolicy{failures: 1, window: time.Second, cooldown: time.Second}, []breakerStep{
			call(0, fail, BreakerOpen),
			{at: 1 * time.Second, settle: true, ready: true, state: BreakerHalfOpen},
			{at: 1 * time.Second, h: fail, state: BreakerOpen}, // 2s
			{at: 3 * time.Second, settle: true, ready: true, state: BreakerHalfOpen},
			{at: 3 * time.Second, h: fail, state: BreakerOpen}, // 4s
			{at: 7 * time.Second, settle: true, ready: true, state: BreakerHalfOpen},
			{at: 7 * time.Second, h: fail, state: BreakerOpen}, // 8s
			{at: 15 * time.Second, settle: true, ready: true, state: BreakerHalfOpen},
			{at: 15 * time.Second, h: fail, state: BreakerOpen}, // 8s again, not 16s
			{at: 15 * time.Second, settle: true, ready: true, state: BreakerOpen, wake: 23 * time.Second},
		}},
		{"answers of calls sent before it opened change nothing", policy, []breakerStep{
			call(0, fail, BreakerClosed), call(0, fail, BreakerClosed), call(0, fail, BreakerOpen),
			call(1, ok, BreakerOpen), call(2, fail, BreakerOpen),
		}},
		{"a probe that confirms the failure keeps it open until it says available", policy, []breakerStep{
			call(time.Second, fail, BreakerClosed), call(time.Second, fail, BreakerClosed), call(time.Second, fail, BreakerOpen),
			// An answer from before it opened says nothing.
			{at: 2 * time.Second, settle: true, ready: true, probe: &probeAnswerAt{available: false, at: 0}, state: BreakerOpen, wake: 6 * time.Second},
			{at: 3 * time.Second, settle: true, ready: true, probe: &probeAnswerAt{available: false, at: 3 * time.Second}, state: BreakerOpen, hides: "3 calls"},
			// Confirmed: the cool-down does not apply.
			{at: time.Minute, settle: true, ready: true, probe: &probeAnswerAt{available: false, at: 50 * time.Second}, state: BreakerOpen},
			{at: 61 * time.Second, settle: true, ready: true, probe: &probeAnswerAt{available: true, at: 61 * time.Second}, state: BreakerClosed, change: BreakerClosed},
		}},
		{"one client's failed calls never open it, however many", policy, []breakerStep{
			callOf(0, "a", BreakerClosed), callOf(1, "a", BreakerClosed), callOf(2, "a", BreakerClosed),
			callOf(3, "a", BreakerClosed), callOf(4, "a", BreakerClosed), callOf(5, "a", BreakerClosed),
		}},
		{"failed calls of two clients open it", policy, []breakerStep{
			callOf(0, "a", BreakerClosed), callOf(1, "a", BreakerClosed),
			{at: 2, h: healthCallFault, who: "b", state: BreakerOpen, change: BreakerOpen, hides: "3 calls in a row failed (last: boom)"},
		}},
		{"the server's own failure with one client's makes them the server's", policy, []breakerStep{
			callOf(0, "a", BreakerClosed), callOf(1, "a", BreakerClosed),
			{at: 2, h: fail, state: BreakerOpen, change: BreakerOpen},
		}},
		{"half-open: one client's failed call does not open it again, two clients' do", policy, []breakerStep{
			call(0, fail, BreakerClosed), call(0, fail, BreakerClosed), call(0, fail, BreakerOpen),
			{at: 5 * time.Second, settle: true, ready: true, state: BreakerHalfOpen, change: BreakerHalfOpen},
			callOf(6*time.Second, "a", BreakerHalfOpen), callOf(6*time.Second, "a", BreakerHalfOpen),
			{at: 7 * time.Second, h: healthCallFault, who: "b", state: BreakerOpen, change: BreakerOpen, hides: "a trial call failed too"},
		}},
		{"a probe that never saw the failure leaves it to the cool-down", policy, []breakerStep{
			call(time.Second, fail, BreakerClosed), call(time.Second, fail, BreakerClosed), call(time.Second, fail, BreakerOpen),
			{at: 2 * time.Second, settle: true, ready: true, probe: &probeAnswerAt{available: true, at: 2 * time.Second}, state: BreakerOpen, wake: 6 * time.Second},
			{at: 6 * time.Second, settle: true, ready: true, probe: up, state: BreakerHalfOpen, change: BreakerHalfOpen},
		}},
	}
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b := newBreaker()
			for i, s := range tc.steps {
				now := start.Add(s.at)
				before := b.current()
				var change breakerChange
				var changed bool
				var wake time.Time
				if s.settle {
					var probe probeAnswer
					if s.probe != nil {
						probe = probeAnswer{has: true, available: s.probe.available, at: start.Add(s.probe.at)}
					}
					change, changed, wake = b.settle(now, tc.policy, probe, s.ready)
				} else {
					var who any
					if s.who != "" {
						who = s.who
					}
					change, changed = b.record(now, tc.policy, s.h, "boom", who)
				}
				require.Equal(t, s.state, b.current(), "step %d", i)
				require.Equal(t, before != s.state, changed, "step %d: a change is reported exactly when the state changes", i)
				if s.change != "" {
					assert.Equal(t, s.change, change.state, "step %d", i)
				}
				if s.wake != 0 {
					assert.Equal(t, start.Add(s.wake), wake, "step %d: wake", i)
				} else if s.settle {
					assert.True(t, wake.IsZero(), "step %d: woken at %v", i, wake)
				}
				if s.hides != "" {
					assert.Contains(t, b.hiding(), s.hides, "step %d", i)
				}
				if b.current() != BreakerOpen {
					assert.Empty(t, b.hiding(), "step %d", i)
				}
			}
		})
	}
}

func TestBreakerTurnedOff(t *testing.T) {
	on := breakerPolicy{failures: 1, window: time.Second, cooldown: time.Hour}
	b := newBreaker()
	now := time.Now()
	_, changed := b.record(now, on, healthFault, "boom", nil)
	require.True(t, changed)
	require.Equal(t, BreakerOpen, b.current())
	change, changed, _ := b.settle(now, breakerPolicy{}, probeAnswer{}, true)
	require.True(t, changed)
	assert.Equal(t, breakerChange{state: BreakerClosed, why: "the breaker was turned off"}, change)
	assert.Empty(t, b.hiding())
}

func TestBreakerPolicyFromTheManifest(t *testing.T) {
	cfg := NewConfig().WithBreaker(7, time.Minute, 2*time.Minute)
	assert.Equal(t, breakerPolicy{failures: 7, window: time.Minute, cooldown: 2 * time.Minute}, cfg.policyFor(nil))
	zero, window := 0, 3*time.Second
	assert.Equal(t, breakerPolicy{failures: 0, window: window, cooldown: 2 * time.Minute},
		cfg.policyFor(&manifest.Breaker{Failures: &zero, Window: &window}), "the manifest's keys win, key by key")
	assert.Equal(t, breakerPolicy{failures: DefaultBreakerFailures, window: DefaultBreakerWindow, cooldown: DefaultBreakerCooldown},
		NewConfig().policyFor(nil))
	assert.Equal(t, NewConfig().policyFor(nil), NewConfig().WithBreaker(-1, 0, -time.Second).policyFor(nil), "out of range selects the defaults")
}
