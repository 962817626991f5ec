package runtime

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gate-dev/gate/hostfuncs"
	"github.com/gate-dev/gate/internal/testnet"
)

// TestRunCodes runs real probe modules that ask the host one thing, or
// misbehave, and checks the code of each answer: an unavailable answer
// has the code of what the host observed (the probe's reason is only
// "status -N"), an error has its kind's.
func TestRunCodes(t *testing.T) {
	e := newEngine(t, NewEngineConfig().WithLookupEnv(envMap(map[string]string{"GATE_SET": "x"})))
	closed := testnet.ClosedAddr(t)
	hole := testnet.BlackHole(t)
	ask := func(op, arg string, g hostfuncs.Grants) ProbeConfig {
		return ProbeConfig{Config: map[string]string{"op": op, "arg": arg}, Grants: g}
	}
	tests := []struct {
		name, module string
		cfg          ProbeConfig
		outcome      Outcome
		code         Code
	}{
		{"env set", "ask", ask("env", "GATE_SET", hostfuncs.Grants{Env: []string{"GATE_SET"}}), Available, ""},
		{"env not set", "ask", ask("env", "GATE_UNSET", hostfuncs.Grants{Env: []string{"GATE_UNSET"}}), Unavailable, CodeEnvMissing},
		{"env not granted", "ask", ask("env", "GATE_SET", hostfuncs.Grants{}), Unavailable, CodeDenied},
		{"dial refused", "ask", ask("dial", closed, hostfuncs.Grants{Dial: []string{closed}}), Unavailable, CodeRefused},
		{"dial timed out", "ask", ask("dial", hole, hostfuncs.Grants{Dial: []string{hole}}), Unavailable, CodeTimeout},
		{"import not found", "ask", ask("import", "bin:no-such-binary-gate-codes", hostfuncs.Grants{Import: []string{"bin:*"}}), Unavailable, CodeNotFound},
		{"spins", "loop_probe", ProbeConfig{Budget: 20 * time.Millisecond}, Failed, CodeOverrun},
		{"traps", "unreachable", ProbeConfig{}, Failed, CodeProbeError},
		{"answers nonsense", "bad_status", ProbeConfig{}, Failed, CodeProbeRaised},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := hostileProbe(t, e, tt.module, tt.cfg)
			res := p.Run(context.Background())
			for attempt := 1; attempt < 5 && tt.outcome != Failed && res.Outcome == Failed; attempt++ {
				t.Logf("attempt %d: the machine was late (%v); running again", attempt, res.Err)
				res = p.Run(context.Background())
			}
			require.Equal(t, tt.outcome, res.Outcome, "reason %q, err %v", res.Reason, res.Err)
			assert.Equal(t, tt.code, res.Code, "reason %q", res.Reason)
		})
	}

	// A run that never starts: the caller gave up first.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	res := hostileProbe(t, e, "ask", ask("env", "GATE_SET", hostfuncs.Grants{Env: []string{"GATE_SET"}})).Run(ctx)
	assert.Equal(t, Failed, res.Outcome)
	assert.Equal(t, CodeCanceled, res.Code)
}

// TestNativeProbeCodes: a native probe has no host observing it, so its
// "no" has the generic code; its errors have theirs.
func TestNativeProbeCodes(t *testing.T) {
	release := make(chan struct{})
	defer close(release)
	stuck := NewNativeProbe(10*time.Millisecond, func(context.Context) (bool, string, error) {
		<-release // ignores its context
		return true, "", nil
	})
	tests := []struct {
		name    string
		probe   *NativeProbe
		outcome Outcome
		code    Code
	}{
		{"available", NewNativeProbe(0, func(context.Context) (bool, string, error) { return true, "", nil }), Available, ""},
		{"unavailable", NewNativeProbe(0, func(context.Context) (bool, string, error) { return false, "no key", nil }), Unavailable, CodeUnavailable},
		{"raises", NewNativeProbe(0, func(context.Context) (bool, string, error) { return false, "", errors.New("cannot tell") }), Failed, CodeProbeRaised},
		{"panics", NewNativeProbe(0, func(context.Context) (bool, string, error) { panic("boom") }), Failed, CodeProbeError},
		{"overruns", stuck, Failed, CodeOverrun},
		{"still running", stuck, Failed, CodeOverrun},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := tt.probe.Run(context.Background())
			assert.Equal(t, tt.outcome, res.Outcome)
			assert.Equal(t, tt.code, res.Code)
		})
	}
}

// TestRegistryKeepsCodes: the registry's Status carries the answer's code,
// from a probe run and from the cache; a graced answer keeps its error's;
// a Change carries the code of the answer that flipped it.
func TestRegistryKeepsCodes(t *testing.T) {
	refused := Result{Outcome: Unavailable, Reason: "127.0.0.1:1: connection refused", Code: CodeRefused}
	overrun := Result{Outcome: Failed, Err: context.DeadlineExceeded, Reason: "ran past its budget", Code: CodeOverrun}
	h := newHarness(newRegistryConfig().WithTTL(10 * time.Second).WithGrace(5 * time.Second))
	require.NoError(t, h.Register(Tool{Name: "db", Probe: script(ok, overrun, refused, ok)}, false))
	var changes []Change
	defer h.Subscribe(func(c Change) { changes = append(changes, c) })()

	steps := []struct {
		at        time.Duration
		available bool
		cached    bool
		code      Code
	}{
		{0, true, false, ""},
		{5, true, true, ""},
		{10, true, false, CodeOverrun}, // graced: listed, with the error's code
		{20, false, false, CodeRefused},
		{25, false, true, CodeRefused},
		{30, true, false, ""},
	}
	for _, s := range steps {
		h.clock.At(s.at * time.Second)
		st := h.status(t, "db")
		assert.Equal(t, s.available, st.Available(), "at %v", s.at)
		assert.Equal(t, s.cached, st.Cached, "at %v", s.at)
		assert.Equal(t, s.code, st.Code, "at %v", s.at)
	}
	require.Len(t, changes, 2)
	assert.Equal(t, CodeRefused, changes[0].Code)
	assert.Equal(t, Code(""), changes[1].Code)
}
