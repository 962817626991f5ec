package runtime

import (
	"context"
	"fmt"
	"math/rand/v2"
	goruntime "runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gate-dev/gate/internal/nohang"
	"github.com/gate-dev/gate/internal/testnet"
)

// running reports whether the Gate's OnChange refresh loop runs.
func (c *changeRefresh) running() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.stop != nil
}

// waitChange returns the next change, or fails the test after a bound
// far beyond what a loaded machine needs: this is about what arrives,
// not how fast.
func waitChange(t *testing.T, changes <-chan Change, what string) Change {
	t.Helper()
	select {
	case c := <-changes:
		c.At = time.Time{} // the clock's; the content is what is checked
		return c
	case <-time.After(nohang.Limit):
		t.Fatalf("no change within %v: %s", nohang.Limit, what)
		return Change{}
	}
}

// collect is an OnChange subscriber that hands every change to a channel
// without ever blocking the probe that noticed it.
func collect(changes chan Change) func(Change) {
	return func(c Change) {
		select {
		case changes <- c:
		default:
		}
	}
}

// nativeGate is a Gate built in code with one tool, gated by a native
// probe that answers what up says.
func nativeGate(t *testing.T, reg registryConfig, up *atomic.Bool) *Gate {
	t.Helper()
	ctx := context.Background()
	g, err := New(ctx, NewGateConfig().withRegistry(reg))
	require.NoError(t, err)
	t.Cleanup(func() { g.Close(ctx) })
	require.NoError(t, g.Tools().Register(Tool{Name: "gpu_infer", Probe: NewNativeProbe(0, func(context.Context) (bool, string, error) {
		if up.Load() {
			return true, "", nil
		}
		return false, "the GPU is busy", nil
	})}, false))
	return g
}

// TestOnChangeNoticesWithoutReads is what an embedder expects of the
// README's snippet: subscribe, read the starting point, and then, with no
// read at all, hear that a service came up. After the last subscriber
// stops, nothing probes in the background.
func TestOnChangeNoticesWithoutReads(t *testing.T) {
	addr := testnet.ClosedAddr(t)
	path := writeManifest(t, fmt.Sprintf(`
[runtime]
ttl = "200ms"
grace = "0s"

[[tools]]
name = "search_index"
probe = "tcp:%s"

[[tools]]
name = "echo"
`, addr), nil)
	ctx := context.Background()
	counter := &probeCounter{}
	g, err := Open(ctx, path, NewGateConfig().withRegistry(newRegistryConfig().
		WithObserver(counter)))
	require.NoError(t, err)
	t.Cleanup(func() { g.Close(ctx) })

	changes := make(chan Change, 16)
	stop := g.OnChange(collect(changes))
	require.Equal(t, []string{"echo"}, names(g.AvailableTools(ctx)), "the starting point: nothing listens yet")

	testnet.Listen(t, "tcp", addr)
	c := waitChange(t, changes, "search_index comes up while nobody reads")
	assert.Equal(t, Change{Kind: "tool", Name: "search_index", Available: true, State: StateAvailable}, c)
	assert.Equal(t, []string{"search_index", "echo"}, names(g.AvailableTools(ctx)))

	nohang.Run(t, "the last stop", stop)
	assert.False(t, g.changes.running())
	after := counter.probes.Load()
	time.Sleep(time.Second) // five TTLs: a refresh that went on would probe again and again
	assert.Equal(t, after, counter.probes.Load(), "probes ran in the background after the last subscriber stopped")
}

// TestOnChangeRefreshesUntilTheLastStop: a Gate built in code with a
// native probe is kept fresh as long as any subscriber is left, and a
// subscriber that stopped hears nothing more.
func TestOnChangeRefreshesUntilTheLastStop(t *testing.T) {
	ctx := context.Background()
	var up atomic.Bool
	counter := &probeCounter{}
	g := nativeGate(t, newRegistryConfig().WithTTL(200*time.Millisecond).WithGrace(0).WithObserver(counter), &up)

	first, second := make(chan Change, 16), make(chan Change, 16)
	stopFirst := g.OnChange(collect(first))
	stopSecond := g.OnChange(collect(second))
	require.Empty(t, g.AvailableTools(ctx))

	up.Store(true)
	back := Change{Kind: "tool", Name: "gpu_infer", Available: true, State: StateAvailable}
	assert.Equal(t, back, waitChange(t, first, "the first subscriber hears gpu_infer come back"))
	assert.Equal(t, back, waitChange(t, second, "the second subscriber hears gpu_infer come back"))

	nohang.Run(t, "the first stop", stopFirst)
	assert.True(t, g.changes.running(), "a subscriber is left")
	up.Store(false)
	// A native probe's "no" has the generic code: no host observed it.
	assert.Equal(t, Change{Kind: "tool", Name: "gpu_infer", State: StateUnavailable, Reason: "the GPU is busy", Code: CodeUnavailable},
		waitChange(t, second, "the second subscriber hears gpu_infer go"))
	assert.Empty(t, g.AvailableTools(ctx), "a read after the change shows it")
	assert.Empty(t, first, "the first subscriber stopped before the flip")

	nohang.Run(t, "the last stop", stopSecond)
	nohang.Run(t, "a second call of the same stop", stopSecond)
	assert.False(t, g.changes.running())
	after := counter.probes.Load()
	// Five TTLs in which nothing may happen: a loaded machine can only make
	// a refresh that went on probe less, never fail this.
	time.Sleep(time.Second)
	assert.Equal(t, after, counter.probes.Load(), "probes ran in the background after the last subscriber stopped")
}

// TestOnChangeReadsStayCached: the refresh probes an answer before it
// expires, so reads go on taking answers from the cache and never wait
// for a probe. The registry's clock is moved by hand; the refresh runs
// on its own.
func TestOnChangeReadsStayCached(t *testing.T) {
	ctx := context.Background()
	clock := newFakeClock()
	counter := &probeCounter{}
	var up atomic.Bool
	up.Store(true)
	g := nativeGate(t, newRegistryConfig().WithTTL(30*time.Second).WithClock(clock).WithObserver(counter), &up)
	stop := g.OnChange(func(Change) {})
	defer stop()

	require.Equal(t, []string{"gpu_infer"}, names(g.AvailableTools(ctx)))
	require.EqualValues(t, 1, counter.probes.Load())
	readProbes := counter.readProbes.Load()

	// 25 s: due for a refresh (at most 24 s after the probe), not expired.
	clock.At(25 * time.Second)
	require.Eventually(t, func() bool { return counter.probes.Load() == 2 }, nohang.Limit, 5*time.Millisecond,
		"the refresh did not probe the answer about to expire")
	// 35 s: the first answer would have expired; the refreshed one has not.
	clock.At(35 * time.Second)
	for range 100 {
		assert.Equal(t, []string{"gpu_infer"}, names(g.AvailableTools(ctx)))
	}
	st, err := g.Tools().Status(ctx, "gpu_infer")
	require.NoError(t, err)
	assert.True(t, st[0].Cached)
	assert.Equal(t, clock.t0.Add(25*time.Second), st[0].CheckedAt, "the answer is the refresh's")
	assert.Equal(t, readProbes, counter.readProbes.Load(), "a read waited for a probe")
}

// TestOnChangeOnServiceGate: a Service's Gate is refreshed by Run; a
// subscriber of its own starts no second refresh, and hears Run's
// changes.
func TestOnChangeOnServiceGate(t *testing.T) {
	l := testnet.Listen(t, "tcp", "127.0.0.1:0")
	path := writeManifest(t, fmt.Sprintf(`
[runtime]
ttl = "100ms"
grace = "0s"

[[tools]]
name = "cache_data"
probe = "tcp:%s"
`, l.Addr()), nil)
	svc, _ := startService(t, path, nil)
	g := svc.Gate()
	changes := make(chan Change, 16)
	stop := g.OnChange(collect(changes))
	defer stop()
	assert.False(t, g.changes.running(), "a Service's Gate has a second refresh")

	l.Close()
	c := waitChange(t, changes, "cache_data goes away")
	assert.Equal(t, "cache_data", c.Name)
	assert.False(t, c.Available)
	assert.Contains(t, c.Reason, "connection refused")
}

// TestOnChangeHammer subscribes, reads and unsubscribes from many
// goroutines while answers flip and the Gate is closed at a random
// moment, with a subscriber that never stops: nothing races (-race),
// nothing hangs, Close ends the refresh, a closed Gate starts none, and
// no goroutine of any Gate is left.
func TestOnChangeHammer(t *testing.T) {
	rounds := 8
	if testing.Short() {
		rounds = 3
	}
	before := goruntime.NumGoroutine()
	var heard atomic.Int64
	for range rounds {
		ctx := context.Background()
		g, err := New(ctx, NewGateConfig().withRegistry(newRegistryConfig().
			WithTTL(time.Millisecond).WithGrace(0)))
		require.NoError(t, err)
		for i := range 4 {
			require.NoError(t, g.Tools().Register(Tool{Name: fmt.Sprint("flaky", i), Probe: NewNativeProbe(0, func(context.Context) (bool, string, error) {
				return rand.IntN(2) == 0, "coin", nil
			})}, false))
		}
		// A subscriber that never stops: Close ends the refresh it holds.
		_ = g.OnChange(func(Change) {})
		closed := make(chan struct{})
		var wg sync.WaitGroup
		for range 8 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for {
					stop := g.OnChange(func(Change) { heard.Add(1) })
					g.AvailableTools(ctx)
					time.Sleep(time.Duration(rand.IntN(30)) * time.Millisecond) // a random subscription's length
					stop()
					select {
					case <-closed:
						return
					default:
					}
				}
			}()
		}
		time.Sleep(time.Duration(rand.IntN(300)) * time.Millisecond) // Close at a random moment of the hammer
		nohang.Run(t, "Close", func() { assert.NoError(t, g.Close(ctx)) })
		assert.False(t, g.changes.running(), "Close left the refresh running")
		close(closed)
		nohang.Run(t, "the subscribers", wg.Wait)

		stop := g.OnChange(func(Change) {})
		assert.False(t, g.changes.running(), "a closed Gate started a refresh")
		stop()
	}
	assert.Positive(t, heard.Load(), "no subscriber heard a flip: the hammer did not hammer")

	// Goroutines end a little after they say so: look again for a while.
	deadline := time.Now().Add(nohang.Limit)
	for goruntime.NumGoroutine() > before && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if n := goruntime.NumGoroutine(); n > before {
		buf := make([]byte, 1<<20)
		buf = buf[:goruntime.Stack(buf, true)]
		t.Fatalf("%d goroutines before the Gates, %d after Close:\n%s", before, n, buf)
	}
}
