package runtime

import (
	"context"
	"fmt"
	"net"
	goruntime "runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gate-dev/gate/internal/manifest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// gatedDial is a WithDialContext that connects (to one end of a pipe)
// only once the test lets it, and counts the dials under way.
type gatedDial struct {
	dialing chan struct{} // a dial has begun
	open    chan struct{} // closed: dials connect
	now     atomic.Int32  // dials under way
	most    atomic.Int32  // the most under way at once
	hold    time.Duration // how long each dial takes once open
}

func newGatedDial(hold time.Duration) *gatedDial {
	return &gatedDial{dialing: make(chan struct{}, 1024), open: make(chan struct{}), hold: hold}
}

func (g *gatedDial) dial(ctx context.Context, _, _ string) (net.Conn, error) {
	n := g.now.Add(1)
	defer g.now.Add(-1)
	for m := g.most.Load(); n > m && !g.most.CompareAndSwap(m, n); m = g.most.Load() {
	}
	g.dialing <- struct{}{}
	select {
	case <-g.open:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	time.Sleep(g.hold)
	c, peer := net.Pipe()
	peer.Close()
	return c, nil
}

// runWithCPUTaken runs a tcp probe of budget on an engine of one CPU
// slot: it takes the slot while the probe's dial waits, lets the dial
// connect, and gives the slot back after hold, or, if hold is 0, once the
// run has answered (within ten seconds).
func runWithCPUTaken(t *testing.T, budget, hold time.Duration) Result {
	t.Helper()
	g := newGatedDial(0)
	e := newEngine(t, NewEngineConfig().WithBudget(budget).WithConcurrency(1).WithDialContext(g.dial))
	p, err := e.StandardProbe(context.Background(), "db", "tcp:db.test:5432", ProbeConfig{})
	require.NoError(t, err)
	done := make(chan Result, 1)
	go func() { done <- p.Run(context.Background()) }()
	<-g.dialing
	require.NoError(t, e.cpu.Acquire(context.Background())) // the probe gave it back to dial
	close(g.open)
	defer e.cpu.Release()
	if hold > 0 {
		time.Sleep(hold) // the scenario: the CPU is taken for hold
		e.cpu.Release()
		defer func() { require.NoError(t, e.cpu.Acquire(context.Background())) }()
	}
	select {
	case res := <-done:
		return res
	case <-time.After(10 * time.Second):
		t.Fatal("the run waited for a CPU past its late limit")
		return Result{}
	}
}

// TestWaitForCPUAfterAWaitIsNotCharged: a run whose dial ended while
// another held the only CPU slot for three budgets answers "available":
// the wait for the slot is the host's, not the probe's (it was charged,
// and the run stopped as an overrun in gate.dial).
func TestWaitForCPUAfterAWaitIsNotCharged(t *testing.T) {
	const budget = 50 * time.Millisecond
	res := runWithCPUTaken(t, budget, 3*budget)
	assert.Equal(t, Available, res.Outcome, "%s", res.Reason)
}

// TestNoCPUPastTheLateLimitIsHostBusy: a run that cannot have a CPU back
// after a wait before its late limit fails as the host's shortage
// (host_busy, retryable), never as an overrun or a timeout.
func TestNoCPUPastTheLateLimitIsHostBusy(t *testing.T) {
	res := runWithCPUTaken(t, 5*time.Millisecond, 0)
	require.Equal(t, Failed, res.Outcome, "%s", res.Reason)
	assert.Equal(t, CodeHostBusy, res.Code, "%s", res.Reason)
	assert.True(t, res.Code.Retryable())
	assert.ErrorIs(t, res.Err, ErrHostBusy)
	var perr *ProbeError
	require.ErrorAs(t, res.Err, &perr)
	assert.Equal(t, KindBusy, perr.Kind)
}

// TestRunsInFlightAreBounded: a registry's read of many tools has at most
// WithMaxRuns runs in flight, and a run's budget starts once it has its
// place: thirty dials of 10 ms each, three at a time, take 100 ms, five
// times each run's own budget, and every answer is "available".
func TestRunsInFlightAreBounded(t *testing.T) {
	const budget, places, tools = 20 * time.Millisecond, 3, 30
	g := newGatedDial(10 * time.Millisecond)
	close(g.open)
	e := newEngine(t, NewEngineConfig().WithBudget(budget).WithMaxRuns(places).WithDialContext(g.dial))
	r := newRegistry(newRegistryConfig())
	for i := range tools {
		p, err := e.StandardProbe(context.Background(), fmt.Sprint("t", i), "tcp:db.test:5432", ProbeConfig{})
		require.NoError(t, err)
		require.NoError(t, r.Register(Tool{Name: fmt.Sprint("t", i), Probe: p}, false))
	}
	start := time.Now()
	st, err := r.Status(context.Background())
	took := time.Since(start)
	require.NoError(t, err)
	for _, s := range st {
		assert.Equal(t, StateAvailable, s.State, "%s: %s", s.Name, s.Reason)
	}
	assert.LessOrEqual(t, g.most.Load(), int32(places), "dials under way at once")
	assert.GreaterOrEqual(t, took, time.Duration(tools/places)*10*time.Millisecond, "the runs took turns")
}

// TestNoPlaceBeforeTheCallersDeadlineIsHostBusy: a direct Run that waits
// for a place among the runs in flight past its caller's deadline fails
// as the host's shortage, not as "canceled".
func TestNoPlaceBeforeTheCallersDeadlineIsHostBusy(t *testing.T) {
	g := newGatedDial(0)
	e := newEngine(t, NewEngineConfig().WithMaxRuns(1).WithDialContext(g.dial))
	p, err := e.StandardProbe(context.Background(), "db", "tcp:db.test:5432", ProbeConfig{})
	require.NoError(t, err)
	first := make(chan Result, 1)
	go func() { first <- p.Run(context.Background()) }()
	<-g.dialing // the only place is taken
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Millisecond)
	defer cancel()
	res := p.Run(ctx)
	close(g.open)
	assert.Equal(t, CodeHostBusy, res.Code, "%s", res.Reason)
	assert.ErrorIs(t, res.Err, ErrHostBusy)
	assert.Equal(t, Available, (<-first).Outcome)

	// A caller that gives up is still "canceled".
	ctx, cancel = context.WithCancel(context.Background())
	cancel()
	g2 := newGatedDial(0)
	e2 := newEngine(t, NewEngineConfig().WithMaxRuns(1).WithDialContext(g2.dial))
	p2, err := e2.StandardProbe(context.Background(), "db", "tcp:db.test:5432", ProbeConfig{})
	require.NoError(t, err)
	go p2.Run(context.Background())
	<-g2.dialing
	assert.Equal(t, CodeCanceled, p2.Run(ctx).Code)
	close(g2.open)
}

// TestManifestMaxRuns: runtime.max_runs sets the engine's places, and
// without it they are 16 for each execution slot.
func TestManifestMaxRuns(t *testing.T) {
	for _, tc := range []struct {
		src  string
		want int
	}{
		{"[runtime]\nmax_runs = 3\n", 3},
		{"[runtime]\nconcurrency = 2\n", 2 * runsPerCPU},
	} {
		m, err := manifest.Parse("/abs/gate.toml", []byte(tc.src))
		require.NoError(t, err)
		g, err := openManifest(context.Background(), m, NewGateConfig())
		require.NoError(t, err)
		assert.Equal(t, tc.want, cap(g.Engine().runs), "%q", tc.src)
		require.NoError(t, g.Close(context.Background()))
	}
}

// TestHungNativeProbesDoNotHoldThePlaces: native functions that never
// return (more of them than there are places) are answered at their
// budget and give their places back, so that the honest tools of the same
// read are answered too: the places bound the runs in flight, and a
// function gate gave up on is no longer one of them.
func TestHungNativeProbesDoNotHoldThePlaces(t *testing.T) {
	release := make(chan struct{})
	t.Cleanup(func() { close(release) })
	r := newRegistry(newRegistryConfig())
	hung := 2*runsPerCPU*goruntime.GOMAXPROCS(0) + 1
	for i := range hung {
		require.NoError(t, r.Register(Tool{Name: fmt.Sprint("hung", i), Probe: NewNativeProbe(5*time.Millisecond,
			func(context.Context) (bool, string, error) { <-release; return true, "", nil })}, false))
	}
	for i := range 10 {
		require.NoError(t, r.Register(Tool{Name: fmt.Sprint("honest", i), Probe: NewNativeProbe(0,
			func(context.Context) (bool, string, error) { return true, "", nil })}, false))
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	st, err := r.Status(ctx)
	require.NoError(t, err)
	require.NoError(t, ctx.Err(), "the read waited for functions that never return")
	for _, s := range st {
		if strings.HasPrefix(s.Name, "honest") {
			assert.Equal(t, StateAvailable, s.State, "%s: %s", s.Name, s.Reason)
		} else {
			assert.Equal(t, CodeOverrun, s.Code, "%s: %s", s.Name, s.Reason)
		}
	}
}

// TestNativeGoexitIsAnswered: a native function that calls
// runtime.Goexit (t.FailNow in a test's probe, say) ends its goroutine
// mid-run; its run is answered all the same, as an error, its place goes
// back, and the rest of the read is answered.
func TestNativeGoexitIsAnswered(t *testing.T) {
	r := newRegistry(newRegistryConfig())
	places := runsPerCPU * goruntime.GOMAXPROCS(0)
	for i := range places + 1 {
		require.NoError(t, r.Register(Tool{Name: fmt.Sprint("exits", i), Probe: NewNativeProbe(0,
			func(context.Context) (bool, string, error) { goruntime.Goexit(); return true, "", nil })}, false))
	}
	require.NoError(t, r.Register(Tool{Name: "honest", Probe: NewNativeProbe(0,
		func(context.Context) (bool, string, error) { return true, "", nil })}, false))
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	st, err := r.Status(ctx)
	require.NoError(t, err)
	require.NoError(t, ctx.Err(), "the read waited for runs that were never answered")
	for _, s := range st[:places+1] {
		assert.Equal(t, CodeProbeError, s.Code, "%s: %s", s.Name, s.Reason)
	}
	assert.Equal(t, StateAvailable, st[places+1].State)
	assert.Equal(t, places, cap(r.nativeRuns))
	// A place goes back as its goroutine ends, just after its run was
	// answered.
	assert.Eventually(t, func() bool { return len(r.nativeRuns) == 0 }, 10*time.Second, time.Millisecond, "places still held")

	// Run, on a goroutine of its own, answers too.
	res := NewNativeProbe(0, func(context.Context) (bool, string, error) { goruntime.Goexit(); return true, "", nil }).Run(ctx)
	assert.Equal(t, CodeProbeError, res.Code, "%s", res.Reason)
}
