package runtime

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gate-dev/gate/hostfuncs"
	"github.com/gate-dev/gate/internal/probes"
)

// Making a probe from "env:NAME", the tool a manifest names most and 10,000
// times over in one, costs a fixed few allocations: the shorthand's list
// and config, the compiled grants, the probe itself (with its lifetime) and
// its place in its module's pool. A map per probe (for its config, its
// grants' merge or their match) is two more and fails this.
func TestStandardProbeAllocations(t *testing.T) {
	e := newEngine(t, NewEngineConfig())
	ctx := context.Background()
	var made []*Probe
	makeOne := func() {
		p, err := e.StandardProbe(ctx, "tool", "env:GATE_TEST_ALLOCS", ProbeConfig{})
		require.NoError(t, err)
		made = append(made, p)
	}
	made = make([]*Probe, 0, 200)
	makeOne() // compiles the module and starts its pool
	allocs := testing.AllocsPerRun(100, makeOne)
	t.Logf("making an env:NAME probe: %.1f allocations", allocs)
	assert.LessOrEqual(t, allocs, float64(maxStandardProbeAllocs), "allocations to make a probe")
	for _, p := range made {
		p.Close(ctx)
	}

	// The parse and the grants alone: the name's list and the config's pair.
	parse := testing.AllocsPerRun(100, func() {
		_, _, err := probes.ParseShorthandPairs("env:GATE_TEST_ALLOCS")
		require.NoError(t, err)
	})
	assert.LessOrEqual(t, parse, 2.0, "allocations to parse env:NAME")
}

// maxStandardProbeAllocs is what making an env:NAME probe allocates: the
// name's list, the config's pair, the compiled grants (their Policy, matcher
// and name in one) and the probe (with its lifetime).
const maxStandardProbeAllocs = 4

// FuzzShorthandGrants: what StandardProbe grants, the shorthand's grants
// as they are when they are already merged, is their Merge with the
// caller's extra grants.
func FuzzShorthandGrants(f *testing.F) {
	for _, s := range []string{
		"env:A", "env:B,A", "env:A,A", "tcp:localhost:5432", "import:py:x,bin:y", "import:bin:y,py:x",
		"https://h/v1/x bearer=K", "redis:h:6379 password=P", "docker:", "tls:h:443",
	} {
		f.Add(s, "")
		f.Add(s, "EXTRA")
	}
	f.Fuzz(func(t *testing.T, shorthand, extraEnv string) {
		sh, _, err := probes.ParseShorthandPairs(shorthand)
		if err != nil {
			return
		}
		var extra hostfuncs.Grants
		if extraEnv != "" {
			extra.Env = []string{extraEnv}
		}
		want := hostfuncs.Grants{Env: sh.Env, Dial: sh.Dial, Import: sh.Import, HTTP: sh.HTTP, Secrets: sh.Secrets}.Merge(extra)
		require.Equal(t, want, shorthandGrants(sh, extra))
	})
}

// A reused env probe's run that answers costs a fixed few allocations: the
// run's context (which carries its Call), the name the probe asks for as
// a string, and whatever its answer holds. An allocation in the common case
// of judging the answer (classify) fails this.
func TestStandardProbeRunAllocations(t *testing.T) {
	t.Setenv("GATE_TEST_ALLOCS", "x")
	e := newEngine(t, NewEngineConfig())
	ctx := context.Background()
	p, err := e.StandardProbe(ctx, "tool", "env:GATE_TEST_ALLOCS", ProbeConfig{})
	require.NoError(t, err)
	require.Equal(t, Available, p.Run(ctx).Outcome) // its instance, kept
	allocs := testing.AllocsPerRun(100, func() {
		if res := p.Run(ctx); res.Outcome != Available {
			t.Fatal(res.Reason)
		}
	})
	t.Logf("a reused env:NAME probe's run: %.1f allocations", allocs)
	assert.LessOrEqual(t, allocs, float64(maxStandardRunAllocs), "allocations a run")
}

// maxStandardRunAllocs is what a reused env:NAME probe's run allocates.
const maxStandardRunAllocs = 2
