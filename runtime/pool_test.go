package runtime

import (
	"context"
	"fmt"
	goruntime "runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gate-dev/gate/hostfuncs"
	"github.com/gate-dev/gate/internal/testnet"
)

// TestInstancesStayWithTheirProbe: a non-standard module's live instances
// serve the probe they were made for and no other, not even one with the
// same grants, so that what one run keeps in memory reaches only runs of
// the same probe. stateful answers available on an instance's first run
// and unavailable ("seen before") after.
func TestInstancesStayWithTheirProbe(t *testing.T) {
	ctx := context.Background()
	e := newEngine(t, NewEngineConfig().WithConcurrency(1))
	m := hostileModule(t, e, "stateful")
	probe := func(name string, env ...string) *Probe {
		p, err := e.NewProbe(ctx, name, m, ProbeConfig{Grants: hostfuncs.Grants{Env: env}})
		require.NoError(t, err)
		return p
	}
	a := probe("a", "A", "B")
	sameGrants := probe("same", "B", "A", "A")

	assert.Equal(t, Available, a.Run(ctx).Outcome, "the first run of an instance")
	res := a.Run(ctx)
	assert.Equal(t, Unavailable, res.Outcome, "a's next run reuses its instance")
	assert.Equal(t, "seen before", res.Reason)
	assert.Equal(t, Available, sameGrants.Run(ctx).Outcome, "the same grants get an instance of their own")

	// A closed probe's pool frees its instances and is forgotten.
	require.NoError(t, a.Close(ctx))
	assert.Eventually(t, func() bool {
		e.mu.Lock()
		defer e.mu.Unlock()
		return len(e.pools) == 1
	}, 5*time.Second, time.Millisecond, "the closed pool is forgotten")
	again := probe("a", "A", "B")
	assert.Equal(t, Available, again.Run(ctx).Outcome, "a closed pool's instances are gone")
}

// TestStandardProbesShareInstances: the standard modules are gate's own
// and keep nothing between runs, so every probe of one shares its pool,
// whatever it is granted: a hundred env tools keep at most one idle
// instance per execution slot, not one each (64 KiB apiece).
func TestStandardProbesShareInstances(t *testing.T) {
	ctx := context.Background()
	const slots = 2
	e := newEngine(t, NewEngineConfig().WithConcurrency(slots))
	var probes []*Probe
	for i := range 100 {
		p, err := e.StandardProbe(ctx, fmt.Sprint("t", i), fmt.Sprint("env:GATE_POOL_TEST_", i), ProbeConfig{})
		require.NoError(t, err)
		probes = append(probes, p)
	}
	var wg sync.WaitGroup
	for _, p := range probes {
		wg.Add(1)
		go func() {
			defer wg.Done()
			res := p.Run(ctx)
			assert.Equal(t, Unavailable, res.Outcome, "%s", res.Reason)
		}()
	}
	wg.Wait()
	assert.LessOrEqual(t, e.idleBytes.Load(), int64(slots*pageSize), "idle linear memory")
	e.mu.Lock()
	pools := len(e.pools)
	e.mu.Unlock()
	assert.Equal(t, 1, pools, "one pool for the env module")
}

// TestColdReadRunsOnFewGoroutines: a cold read of many tools whose probes
// answer at once (they never wait) runs them on about one goroutine per
// CPU, not one each
// (which cost a goroutine's start and its stack's growth into wazero per
// probe).
func TestColdReadRunsOnFewGoroutines(t *testing.T) {
	ctx := context.Background()
	e := newEngine(t, NewEngineConfig())
	var most atomic.Int64
	obs := observerFunc(func() {
		n := int64(goruntime.NumGoroutine())
		for m := most.Load(); n > m && !most.CompareAndSwap(m, n); m = most.Load() {
		}
	})
	r := newRegistry(newRegistryConfig().WithObserver(obs))
	const tools = 500
	for i := range tools {
		p, err := e.StandardProbe(ctx, fmt.Sprint("t", i), "env:GATE_POOL_TEST_UNSET", ProbeConfig{})
		require.NoError(t, err)
		require.NoError(t, r.Register(Tool{Name: fmt.Sprint("t", i), Probe: p}, false))
	}
	before := goruntime.NumGoroutine()
	assert.Empty(t, r.ListAvailable(ctx))
	assert.Less(t, most.Load()-int64(before), int64(4*goruntime.GOMAXPROCS(0)+8),
		"goroutines while %d probes ran", tools)
}

// TestColdReadOfWaitingProbesTakesAboutOneBudget: a probe that waits on
// the network starts another goroutine for the read (host.Call.OnWait), up
// to the places there are, so forty probes of a black hole answer in a
// budget or two, not in forty budgets over the number of CPUs.
func TestColdReadOfWaitingProbesTakesAboutOneBudget(t *testing.T) {
	ctx := context.Background()
	const budget = 50 * time.Millisecond
	e := newEngine(t, NewEngineConfig().WithBudget(budget))
	hole := testnet.BlackHole(t)
	r := newRegistry(newRegistryConfig())
	const tools = 40
	for i := range tools {
		p, err := e.StandardProbe(ctx, fmt.Sprint("t", i), "tcp:"+hole, ProbeConfig{})
		require.NoError(t, err)
		require.NoError(t, r.Register(Tool{Name: fmt.Sprint("t", i), Probe: p}, false))
	}
	stop := schedNoise(t)
	start := time.Now()
	st, err := r.Status(ctx)
	took := time.Since(start)
	noise := stop()
	require.NoError(t, err)
	for _, s := range st {
		assert.Equal(t, StateUnavailable, s.State, "%s: %s", s.Name, s.Reason)
	}
	// On fixed workers the read would take tools/workers budgets; the
	// bound is halfway there, plus what the machine made everyone wait.
	serial := time.Duration(tools/goruntime.GOMAXPROCS(0)) * budget
	assert.Less(t, took, serial/2+noise, "a cold read of %d waiting probes", tools)
}

// observerFunc calls fn for every probe run.
type observerFunc func()

func (f observerFunc) Probed(string, Result, Status) { f() }
func (f observerFunc) Read(string, int)              {}
