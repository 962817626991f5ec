package runtime

import (
	"context"
	"fmt"
	goruntime "runtime"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestNativeProbeOverrunInRegistry: a registry runs NativeProbes on its
// workers, and one that ignores its context is still answered as overrun
// at its budget, while the other tools of the same listing get their own
// answers; until it returns, the next listing answers "still running"
// without calling it again.
func TestNativeProbeOverrunInRegistry(t *testing.T) {
	release := make(chan struct{})
	var calls atomic.Int32
	stuck := NewNativeProbe(10*time.Millisecond, func(context.Context) (bool, string, error) {
		calls.Add(1)
		<-release // ignores its context
		return true, "", nil
	})
	r := newRegistry(newRegistryConfig().WithTTL(time.Nanosecond))
	require.NoError(t, r.Register(Tool{Name: "stuck", Probe: stuck}, false))
	for i := range 100 {
		require.NoError(t, r.Register(Tool{Name: fmt.Sprint("t", i), Probe: NewNativeProbe(0, func(context.Context) (bool, string, error) {
			return i%2 == 0, "odd", nil
		})}, false))
	}
	ctx := context.Background()
	sts, err := r.Status(ctx)
	require.NoError(t, err)
	require.Len(t, sts, 101)
	assert.Equal(t, StateError, sts[0].State)
	assert.Equal(t, CodeOverrun, sts[0].Code)
	assert.ErrorIs(t, sts[0].Err, context.DeadlineExceeded)
	for i, st := range sts[1:] {
		assert.Equal(t, i%2 == 0, st.Available(), "%s: %s", st.Name, st.Reason)
	}
	sts, err = r.Status(ctx, "stuck")
	require.NoError(t, err)
	assert.ErrorIs(t, sts[0].Err, ErrStillRunning)
	assert.Equal(t, int32(1), calls.Load(), "no second copy while the first is stuck")
	close(release)
	require.Eventually(t, func() bool {
		sts, _ := r.Status(ctx, "stuck")
		return sts[0].Available()
	}, 5*time.Second, time.Millisecond)
}

// TestNativeProbesWaitTogether: native probes that wait (a lookup, a
// dial) run at the same time, not one after another on the registry's
// few workers: each of these waits until all of them are running, and
// would overrun if they ran in turn.
func TestNativeProbesWaitTogether(t *testing.T) {
	const n = 20
	var running atomic.Int32
	all := make(chan struct{})
	r := newRegistry(newRegistryConfig())
	for i := range n {
		require.NoError(t, r.Register(Tool{Name: fmt.Sprint("t", i), Probe: NewNativeProbe(0, func(ctx context.Context) (bool, string, error) {
			if running.Add(1) == n {
				close(all)
			}
			select {
			case <-all:
				return true, "", nil
			case <-ctx.Done():
				return false, "", ctx.Err()
			}
		})}, false))
	}
	sts, err := r.Status(context.Background())
	require.NoError(t, err)
	for _, st := range sts {
		assert.True(t, st.Available(), "%s: %s", st.Name, st.Reason)
	}
}

// TestNativeAmongOtherProbers: a read whose tools mix native probes (run
// on the workers) with a host app's own Probers (a goroutine each), in
// any order, answers each tool with its own probe's answer.
func TestNativeAmongOtherProbers(t *testing.T) {
	const n = 60
	r := newRegistry(newRegistryConfig())
	for i := range n {
		var p Prober = script(ok)
		switch i % 5 {
		case 1:
			p = script(no)
		case 2, 3:
			p = NewNativeProbe(0, func(context.Context) (bool, string, error) { return i%2 == 0, "odd", nil })
		}
		require.NoError(t, r.Register(Tool{Name: fmt.Sprint("t", i), Probe: p}, false))
	}
	sts, err := r.Status(context.Background())
	require.NoError(t, err)
	for i, st := range sts {
		want := i%5 == 0 || i%5 == 4 || (i%5 == 2 || i%5 == 3) && i%2 == 0
		assert.Equal(t, want, st.Available(), "%s: %s", st.Name, st.Reason)
	}
}

// TestNativeProbeContext: the function's context carries the caller's
// values, has the budget's deadline, and ends when the caller's does.
func TestNativeProbeContext(t *testing.T) {
	type key struct{}
	parent, cancel := context.WithCancel(context.WithValue(context.Background(), key{}, "v"))
	var deadline time.Time
	started := make(chan struct{})
	p := NewNativeProbe(50*time.Millisecond, func(ctx context.Context) (bool, string, error) {
		assert.Equal(t, "v", ctx.Value(key{}))
		deadline, _ = ctx.Deadline()
		close(started)
		<-ctx.Done()
		return false, "", ctx.Err()
	})
	go func() {
		<-started
		cancel()
	}()
	before := time.Now()
	res := p.Run(parent)
	assert.Equal(t, Failed, res.Outcome)
	assert.ErrorIs(t, res.Err, context.Canceled)
	assert.Equal(t, CodeCanceled, res.Code)
	assert.WithinDuration(t, before.Add(50*time.Millisecond), deadline, 50*time.Millisecond)
}

// TestNativeContextOutlivesItsRun: a worker makes its runs one after
// another in one bookkeeping record, but each function gets a context of
// its own, which a function may keep: once its run is over it stays
// ended, whatever runs the worker makes next, and its deadline stays its
// own run's.
func TestNativeContextOutlivesItsRun(t *testing.T) {
	const n = 50
	kept := make([]context.Context, n)
	deadlines := make([]time.Time, n)
	r := newRegistry(newRegistryConfig())
	for i := range n {
		require.NoError(t, r.Register(Tool{Name: fmt.Sprint("t", i), Probe: NewNativeProbe(time.Duration(i+1)*time.Millisecond, func(ctx context.Context) (bool, string, error) {
			require.NoError(t, ctx.Err(), "a run's context is live while it runs")
			kept[i] = ctx
			deadlines[i], _ = ctx.Deadline()
			if i%2 == 0 {
				ctx.Done() // made while the run is under way; the others' after
			}
			return true, "", nil
		})}, false))
	}
	before := time.Now()
	require.Len(t, r.ListAvailable(context.Background()), n)
	after := time.Now()
	for i, ctx := range kept {
		assert.ErrorIs(t, ctx.Err(), context.Canceled, "t%d", i)
		select {
		case <-ctx.Done():
		default:
			t.Errorf("t%d: the context of a run that is over is not done", i)
		}
		d, ok := ctx.Deadline()
		assert.True(t, ok)
		assert.Equal(t, deadlines[i], d, "t%d", i)
		// Its own budget's, from when it started: after the listing began,
		// and no later than its budget after the listing's end.
		budget := time.Duration(i+1) * time.Millisecond
		assert.False(t, d.Before(before.Add(budget)), "t%d: deadline %v before the budget", i, d.Sub(before))
		assert.False(t, d.After(after.Add(budget)), "t%d: deadline %v past the budget", i, d.Sub(before))
		for j := range i {
			assert.NotSame(t, kept[j], ctx, "t%d and t%d share a context", j, i)
		}
	}
}

// TestNativeColdListAllocs: a cold listing of native tools allocates
// about one object a tool, the function's context (80 bytes), and little
// else: not a goroutine, a context with a timer and two channels (19
// objects a tool), nor a Status a tool in the read and another in its
// flight (650 bytes a tool in all); the read's own slices are a few words
// a tool.
func TestNativeColdListAllocs(t *testing.T) {
	const n = 1000
	tools := make([]Tool, n)
	for i := range tools {
		tools[i] = Tool{Name: fmt.Sprint("t", i), Probe: NewNativeProbe(0, func(context.Context) (bool, string, error) {
			return i%2 == 0, "odd", nil
		})}
	}
	regs := make([]*Registry, 0, 20)
	for range cap(regs) {
		r := newRegistry(newRegistryConfig())
		for _, tl := range tools {
			require.NoError(t, r.Register(tl, false))
		}
		regs = append(regs, r)
	}
	ctx := context.Background()
	next := 0
	var before, after goruntime.MemStats
	goruntime.ReadMemStats(&before)
	allocs := testing.AllocsPerRun(len(regs)-1, func() { // and once more to warm up
		if got := len(regs[next].ListAvailable(ctx)); got != n/2 {
			t.Fatalf("%d available", got)
		}
		next++
	})
	goruntime.ReadMemStats(&after)
	bytes := float64(after.TotalAlloc-before.TotalAlloc) / float64(len(regs)) / n
	t.Logf("%.2f allocations, %.0f bytes a tool", allocs/n, bytes)
	assert.Less(t, allocs/n, 1.1)
	assert.Less(t, bytes, 250.0)
}
