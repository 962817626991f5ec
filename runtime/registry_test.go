package runtime

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gate-dev/gate/hostfuncs"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fakeClock is moved by hand: At(30*time.Second) is t=30.
type fakeClock struct {
	mu sync.Mutex
	t0 time.Time
	d  time.Duration
}

func newFakeClock() *fakeClock { return &fakeClock{t0: time.Unix(1000, 0)} }

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t0.Add(c.d)
}

func (c *fakeClock) At(d time.Duration) {
	c.mu.Lock()
	c.d = d
	c.mu.Unlock()
}

// scripted answers from a queue of outcomes (the last one repeats) and
// counts its runs.
type scripted struct {
	mu    sync.Mutex
	queue []Result
	runs  atomic.Int32
	delay time.Duration
}

var (
	ok    = Result{Outcome: Available}
	no    = Result{Outcome: Unavailable, Reason: "SERP_API_KEY not set"}
	noWhy = Result{Outcome: Unavailable}
	//lint:ignore ST1005 the words of the reference's transient failure, as a probe raises them
	raises = Result{Outcome: Failed, Err: errors.New("Network unreachable"), Reason: "Network unreachable"}
)

func script(rs ...Result) *scripted { return &scripted{queue: rs} }

func (s *scripted) Run(ctx context.Context) Result {
	s.runs.Add(1)
	if s.delay > 0 {
		time.Sleep(s.delay) // a slow probe, on purpose
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	r := s.queue[0]
	if len(s.queue) > 1 {
		s.queue = s.queue[1:]
	}
	return r
}

// logRecorder keeps what the registry logged, as "LEVEL message".
type logRecorder struct {
	mu    sync.Mutex
	lines []string
}

func (l *logRecorder) Enabled(context.Context, slog.Level) bool { return true }
func (l *logRecorder) WithAttrs([]slog.Attr) slog.Handler       { return l }
func (l *logRecorder) WithGroup(string) slog.Handler            { return l }
func (l *logRecorder) Handle(_ context.Context, r slog.Record) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.lines = append(l.lines, r.Level.String()+" "+r.Message)
	return nil
}

// take returns what was logged since the last take, registrations left out.
func (l *logRecorder) take() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []string
	for _, s := range l.lines {
		if len(s) < 16 || s[:16] != "DEBUG Registered" {
			out = append(out, s)
		}
	}
	l.lines = nil
	return out
}

type harness struct {
	*Registry
	clock *fakeClock
	logs  *logRecorder
}

func newHarness(cfg registryConfig) *harness {
	h := &harness{clock: newFakeClock(), logs: &logRecorder{}}
	h.Registry = newRegistry(cfg.WithClock(h.clock).WithLogger(slog.New(h.logs)))
	return h
}

func (h *harness) listed(t *testing.T) []string {
	t.Helper()
	var names []string
	for _, tool := range h.ListAvailable(context.Background()) {
		names = append(names, tool.Name)
	}
	return names
}

func (h *harness) status(t *testing.T, name string) Status {
	t.Helper()
	st, err := h.Status(context.Background(), name)
	require.NoError(t, err)
	return st[0]
}

// step is one read at a time, with what it must show.
type step struct {
	at     time.Duration
	listed bool
	runs   int32 // probe runs so far
	logs   []string
}

func (h *harness) walk(t *testing.T, name string, p *scripted, steps []step) {
	t.Helper()
	for _, s := range steps {
		h.clock.At(s.at)
		got := h.listed(t)
		assert.Equal(t, s.listed, contains(got, name), "t=%v listed", s.at)
		assert.Equal(t, s.runs, p.runs.Load(), "t=%v probe runs", s.at)
		assert.Equal(t, s.logs, h.logs.take(), "t=%v logs", s.at)
	}
}

func contains(names []string, n string) bool {
	for _, x := range names {
		if x == n {
			return true
		}
	}
	return false
}

const (
	debugUnavailable = "DEBUG Tool 'flaky' unavailable: SERP_API_KEY not set"
	debugGraced      = "DEBUG Availability check failed for tool 'flaky' but serving last-good within grace window: Network unreachable"
	warnFailed       = "WARN Availability check failed for tool 'flaky': Network unreachable"
)

// TestAvailabilityRules walks every row of the behaviour and caching
// tables of PraisonAI's Tool Availability Gating documentation with the
// fake clock, at the defaults (TTL = grace = 30 s)
// unless a row needs otherwise.
func TestAvailabilityRules(t *testing.T) {
	tests := []struct {
		name  string
		cfg   registryConfig
		probe *scripted
		steps []step
	}{
		{"returns True: listed, cached for the TTL", newRegistryConfig(), script(ok), []step{
			{at: 0, listed: true, runs: 1},
			{at: 29 * time.Second, listed: true, runs: 1}, // reused; probe skipped
			{at: 30 * time.Second, listed: true, runs: 2}, // strictly less than the TTL
		}},
		{"returns False with a reason: hidden, DEBUG, cached False for the TTL", newRegistryConfig(), script(no, ok), []step{
			{at: 0, listed: false, runs: 1, logs: []string{debugUnavailable}},
			{at: 29999 * time.Millisecond, listed: false, runs: 1}, // a fresh False is honoured for its whole TTL
			{at: 30 * time.Second, listed: true, runs: 2},
		}},
		{"returns False without a reason: hidden, no log", newRegistryConfig(), script(noWhy), []step{
			{at: 0, listed: false, runs: 1},
		}},
		{"raises with no prior success: hidden, WARNING, False cached", newRegistryConfig(), script(raises, ok), []step{
			{at: 0, listed: false, runs: 1, logs: []string{warnFailed}},
			{at: 10 * time.Second, listed: false, runs: 1},
			{at: 30 * time.Second, listed: true, runs: 2},
		}},
		{"at the defaults: success at 0, raising at 30 and 45 is served, at 60 hidden", newRegistryConfig(), script(ok, raises), []step{
			{at: 0, listed: true, runs: 1},
			{at: 30 * time.Second, listed: true, runs: 2, logs: []string{debugGraced}},
			{at: 45 * time.Second, listed: true, runs: 3, logs: []string{debugGraced}}, // nothing cached: probed again
			{at: 59 * time.Second, listed: true, runs: 4, logs: []string{debugGraced}},
			{at: 60 * time.Second, listed: false, runs: 5, logs: []string{warnFailed}},
			{at: 89 * time.Second, listed: false, runs: 5}, // the failure is cached for the TTL
		}},
		{"success then raising at t+0: graced, DEBUG, nothing cached", newRegistryConfig().WithTTL(0), script(ok, raises), []step{
			{at: 0, listed: true, runs: 1},
			{at: 0, listed: true, runs: 2, logs: []string{debugGraced}},
			{at: 0, listed: true, runs: 3, logs: []string{debugGraced}},
		}},
		{"grace counts from the last real success, not from graced serves", newRegistryConfig().WithTTL(10 * time.Second).WithGrace(10 * time.Second), script(ok, raises), []step{
			{at: 0, listed: true, runs: 1},
			{at: 10 * time.Second, listed: true, runs: 2, logs: []string{debugGraced}},
			{at: 19 * time.Second, listed: true, runs: 3, logs: []string{debugGraced}},
			{at: 20 * time.Second, listed: false, runs: 4, logs: []string{warnFailed}}, // last success not refreshed at 10 or 19
		}},
		{"success then raising after the window: hidden", newRegistryConfig().WithTTL(5 * time.Second).WithGrace(5 * time.Second), script(ok, raises), []step{
			{at: 0, listed: true, runs: 1},
			{at: 11 * time.Second, listed: false, runs: 2, logs: []string{warnFailed}},
		}},
		{"an explicit unavailable is never graced", newRegistryConfig().WithTTL(0), script(ok, no), []step{
			{at: 0, listed: true, runs: 1},
			{at: time.Second, listed: false, runs: 2, logs: []string{debugUnavailable}},
		}},
		{"grace 0: a failure right after a success hides the tool", newRegistryConfig().WithTTL(0).WithGrace(0), script(ok, raises), []step{
			{at: 0, listed: true, runs: 1},
			{at: 0, listed: false, runs: 2, logs: []string{warnFailed}},
		}},
		{"recovery after a graced failure shows at once", newRegistryConfig(), script(ok, raises, ok), []step{
			{at: 0, listed: true, runs: 1},
			{at: 30 * time.Second, listed: true, runs: 2, logs: []string{debugGraced}},
			{at: 31 * time.Second, listed: true, runs: 3},
			{at: 60 * time.Second, listed: true, runs: 3}, // the new success is cached until 61
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(tt.cfg)
			require.NoError(t, h.Register(Tool{Name: "flaky", Probe: tt.probe}, false))
			h.walk(t, "flaky", tt.probe, tt.steps)
		})
	}
}

func TestStatusSaysWhereTheAnswerCameFrom(t *testing.T) {
	h := newHarness(newRegistryConfig())
	p := script(ok, raises)
	require.NoError(t, h.Register(Tool{Name: "flaky", Probe: p}, false))
	require.NoError(t, h.Register(Tool{Name: "plain"}, false))

	st := h.status(t, "flaky")
	assert.Equal(t, StateAvailable, st.State)
	assert.False(t, st.Cached)
	assert.Equal(t, h.clock.Now(), st.CheckedAt)
	st = h.status(t, "flaky")
	assert.True(t, st.Cached)

	h.clock.At(30 * time.Second)
	st = h.status(t, "flaky")
	assert.True(t, st.Graced)
	assert.Equal(t, StateAvailable, st.State)
	assert.EqualError(t, st.Err, "Network unreachable")

	plain := h.status(t, "plain")
	assert.Equal(t, Status{Name: "plain", State: StateAvailable}, plain, "no probe: always available, nothing cached")

	_, err := h.Status(context.Background(), "nope")
	assert.EqualError(t, err, `no tool named "nope"`)

	st2, err := h.Refresh(context.Background(), "flaky")
	require.NoError(t, err)
	assert.False(t, st2[0].Cached)
}

func TestRegisterOverwriteAndEviction(t *testing.T) {
	t.Run("overwrite=false on an existing name is refused", func(t *testing.T) {
		h := newHarness(newRegistryConfig())
		require.NoError(t, h.Register(Tool{Name: "x", Description: "v1"}, false))
		err := h.Register(Tool{Name: "x", Description: "v2"}, false)
		assert.ErrorIs(t, err, ErrExists)
		tool, _ := h.Get("x")
		assert.Equal(t, "v1", tool.Description)
	})
	t.Run("a different probe drops last-good", func(t *testing.T) {
		h := newHarness(newRegistryConfig().WithTTL(0))
		healthy := script(ok)
		require.NoError(t, h.Register(Tool{Name: "swap", Probe: healthy}, false))
		assert.Equal(t, []string{"swap"}, h.listed(t))
		broken := script(raises)
		require.NoError(t, h.Register(Tool{Name: "swap", Probe: broken}, true))
		assert.Empty(t, h.listed(t), "a broken replacement must not ride the old tool's health")
		assert.Equal(t, []string{"WARN Availability check failed for tool 'swap': Network unreachable"}, h.logs.take())
	})
	t.Run("the same instance keeps its cache and last-good", func(t *testing.T) {
		h := newHarness(newRegistryConfig())
		p := script(ok, raises)
		require.NoError(t, h.Register(Tool{Name: "same", Probe: p, Description: "v1"}, false))
		assert.Equal(t, []string{"same"}, h.listed(t))
		require.NoError(t, h.Register(Tool{Name: "same", Probe: p, Description: "v2"}, true))
		assert.Equal(t, []string{"same"}, h.listed(t))
		assert.Equal(t, int32(1), p.runs.Load(), "the cached answer is kept")
		h.clock.At(30 * time.Second)
		tools := h.ListAvailable(context.Background())
		require.Len(t, tools, 1, "last-good is kept: the failure is graced")
		assert.Equal(t, "v2", tools[0].Description)
	})
	t.Run("unregister and clear evict", func(t *testing.T) {
		h := newHarness(newRegistryConfig())
		p := script(ok)
		require.NoError(t, h.Register(Tool{Name: "a", Probe: p}, false))
		h.listed(t)
		assert.True(t, h.Unregister("a"))
		assert.False(t, h.Unregister("a"))
		assert.Empty(t, h.listed(t))
		require.NoError(t, h.Register(Tool{Name: "a", Probe: p}, false))
		h.listed(t)
		assert.Equal(t, int32(2), p.runs.Load(), "re-registered: probed afresh")
		h.Clear()
		assert.Zero(t, h.Len())
		require.NoError(t, h.Register(Tool{Name: "a", Probe: p}, false))
		h.listed(t)
		assert.Equal(t, int32(3), p.runs.Load())
	})
	t.Run("results are keyed by the registered name", func(t *testing.T) {
		h := newHarness(newRegistryConfig())
		p := script(ok)
		require.NoError(t, h.Register(Tool{Name: "one", Probe: p}, false))
		require.NoError(t, h.Register(Tool{Name: "two", Probe: p}, false))
		assert.Equal(t, []string{"one", "two"}, h.listed(t))
		assert.Equal(t, int32(2), p.runs.Load())
	})
	t.Run("a tool without a probe is always listed and never cached", func(t *testing.T) {
		h := newHarness(newRegistryConfig())
		require.NoError(t, h.Register(Tool{Name: "plain"}, false))
		for _, at := range []time.Duration{0, time.Hour} {
			h.clock.At(at)
			assert.Equal(t, []string{"plain"}, h.listed(t))
		}
	})
	t.Run("listing keeps registration order", func(t *testing.T) {
		h := newHarness(newRegistryConfig())
		for _, n := range []string{"c", "a", "b"} {
			require.NoError(t, h.Register(Tool{Name: n}, false))
		}
		require.NoError(t, h.Register(Tool{Name: "a", Description: "again"}, true))
		assert.Equal(t, []string{"c", "a", "b"}, h.listed(t))
		var all []string
		for _, tool := range h.List() {
			all = append(all, tool.Name)
		}
		assert.Equal(t, []string{"c", "a", "b"}, all)
	})
}

// TestOneRunPerToolPerTTL: however many callers read at once, each tool's
// probe runs once per TTL window.
func TestOneRunPerToolPerTTL(t *testing.T) {
	h := newHarness(newRegistryConfig())
	probes := make([]*scripted, 20)
	for i := range probes {
		probes[i] = script(ok)
		probes[i].delay = 5 * time.Millisecond
		require.NoError(t, h.Register(Tool{Name: fmt.Sprint("t", i), Probe: probes[i]}, false))
	}
	for _, at := range []time.Duration{0, 10 * time.Second, 30 * time.Second, 45 * time.Second} {
		h.clock.At(at)
		var wg sync.WaitGroup
		for range 50 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				assert.Len(t, h.ListAvailable(context.Background()), len(probes))
			}()
		}
		wg.Wait()
	}
	for i, p := range probes {
		assert.Equal(t, int32(2), p.runs.Load(), "probe %d: one run at t=0 and one at t=30", i)
	}
}

// hammerPolicies are the policies TestRegistryHammer's tools take turns
// with: none, and one that counts, retries and holds.
var hammerPolicies = []*Policy{nil, {FailureThreshold: 2, SuccessThreshold: 2, Retry: time.Millisecond / 2, HoldDown: 3 * time.Millisecond}}

// TestRegistryHammer lists, registers, unregisters and checks from many
// goroutines at once; run it with -race.
func TestRegistryHammer(t *testing.T) {
	h := newHarness(newRegistryConfig().WithTTL(time.Millisecond))
	var wg sync.WaitGroup
	stop := make(chan struct{})
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				name := fmt.Sprint("tool", (g*7+i)%16)
				switch i % 5 {
				case 0:
					_ = h.Register(Tool{Name: name, Probe: script(ok, raises, no), Policy: hammerPolicies[i%len(hammerPolicies)]}, i%2 == 0)
				case 1:
					h.Unregister(name)
				case 2:
					h.clock.At(time.Duration(i) * time.Millisecond)
					for _, tool := range h.ListAvailable(context.Background()) {
						assert.NotEmpty(t, tool.Name)
					}
				case 3:
					_, _ = h.Status(context.Background())
				case 4:
					h.List()
					if i%97 == 0 {
						h.Clear()
					}
				}
			}
		}()
	}
	time.Sleep(300 * time.Millisecond) // how long the hammer runs
	close(stop)
	wg.Wait()
}

// TestHangingProbeCostsOneBudget: a stale tool whose probe hangs costs its
// readers one budget in all, not one each, and the other tools answer
// without waiting on it longer than that.
func TestHangingProbeCostsOneBudget(t *testing.T) {
	h := newHarness(newRegistryConfig())
	var hangs atomic.Int32
	budget := 50 * time.Millisecond
	hang := NewNativeProbe(budget, func(ctx context.Context) (bool, string, error) {
		hangs.Add(1)
		<-ctx.Done()
		return false, "", ctx.Err()
	})
	require.NoError(t, h.Register(Tool{Name: "hangs", Probe: hang}, false))
	for i := range 10 {
		require.NoError(t, h.Register(Tool{Name: fmt.Sprint("fine", i), Probe: script(ok)}, false))
	}
	start := time.Now()
	var wg sync.WaitGroup
	for range 20 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			assert.Len(t, h.ListAvailable(context.Background()), 10)
		}()
	}
	wg.Wait()
	took := time.Since(start)
	assert.Equal(t, int32(1), hangs.Load(), "one run for all twenty readers")
	assert.Less(t, took, 10*budget, "twenty readers must not cost twenty budgets (took %v)", took)
}

func TestNativeProbe(t *testing.T) {
	ctx := context.Background()
	yes := NewNativeProbe(0, func(context.Context) (bool, string, error) { return true, "", nil })
	assert.Equal(t, Available, yes.Run(ctx).Outcome)
	not := NewNativeProbe(0, func(context.Context) (bool, string, error) { return false, "no key", nil })
	res := not.Run(ctx)
	assert.Equal(t, Unavailable, res.Outcome)
	assert.Equal(t, "no key", res.Reason)
	boom := NewNativeProbe(0, func(context.Context) (bool, string, error) { panic("boom") })
	res = boom.Run(ctx)
	assert.Equal(t, Failed, res.Outcome)
	assert.Equal(t, "native probe panicked: boom", res.Reason)

	release := make(chan struct{})
	stuck := NewNativeProbe(10*time.Millisecond, func(context.Context) (bool, string, error) {
		<-release // ignores its context
		return true, "", nil
	})
	res = stuck.Run(ctx)
	assert.ErrorIs(t, res.Err, context.DeadlineExceeded)
	res = stuck.Run(ctx)
	assert.ErrorIs(t, res.Err, ErrStillRunning, "no second copy while the first is stuck")
	close(release)
	require.Eventually(t, func() bool { return stuck.Run(ctx).Outcome == Available }, time.Second, time.Millisecond)
}

// TestSubscribeSeesFlips: subscribers hear every flip, in order, and
// nothing for answers that do not change what is listed.
func TestSubscribeSeesFlips(t *testing.T) {
	h := newHarness(newRegistryConfig().WithTTL(10 * time.Second).WithGrace(5 * time.Second))
	p := script(ok, ok, raises, raises, no, ok)
	require.NoError(t, h.Register(Tool{Name: "flaky", Probe: p}, false))
	var got []string
	stop := h.Subscribe(func(c Change) {
		got = append(got, fmt.Sprintf("%v %s %v graced=%v %s", c.At.Sub(h.clock.t0), c.Name, c.Available, c.Graced, c.Reason))
	})
	for _, at := range []time.Duration{0, 10, 20, 24, 25, 35, 45} {
		h.clock.At(at * time.Second)
		h.listed(t)
	}
	assert.Equal(t, []string{
		// 0 ok (first answer: no change), 10 ok, 20 raises: graced (still listed: no change),
		// 24 raises: graced, 25 raises... the script's next is "no" at 25: hidden
		"25s flaky false graced=false SERP_API_KEY not set",
		"35s flaky true graced=false ",
	}, got)
	stop()
	h.clock.At(100 * time.Second)
	h.listed(t)
	assert.Len(t, got, 2, "no calls after unsubscribing")
}

// TestBackgroundRefresh: with background refresh, reads never run a probe
// once a tool has an answer; RefreshDue re-probes each tool before its
// answer expires, spread by a per-tool jitter; the availability rules are
// unchanged.
func TestBackgroundRefresh(t *testing.T) {
	h := newHarness(newRegistryConfig().WithTTL(10 * time.Second).WithGrace(10 * time.Second).WithBackgroundRefresh(true))
	p := script(ok, raises, raises, raises)
	require.NoError(t, h.Register(Tool{Name: "flaky", Probe: p}, false))
	others := make([]*scripted, 50)
	for i := range others {
		others[i] = script(ok)
		require.NoError(t, h.Register(Tool{Name: fmt.Sprint("t", i), Probe: others[i]}, false))
	}
	ctx := context.Background()

	// The first read probes what was never probed; later reads never probe.
	assert.Len(t, h.ListAvailable(ctx), 51)
	assert.Equal(t, int32(1), p.runs.Load())
	h.clock.At(time.Hour)
	assert.Len(t, h.ListAvailable(ctx), 51, "a read serves the latest answer, however old")
	st := h.status(t, "flaky")
	assert.True(t, st.Cached)
	assert.Equal(t, int32(1), p.runs.Load())

	// RefreshDue: nothing is due before 10s - 2s - jitter (up to 1s).
	h.clock.At(0)
	h.Registry = rebuilt(t, h) // a fresh start at t=0
	h.ListAvailable(ctx)
	h.clock.At(6999 * time.Millisecond)
	assert.Zero(t, h.RefreshDue(ctx))
	h.clock.At(8 * time.Second)
	assert.Equal(t, 51, h.RefreshDue(ctx), "everything is due 2 s (plus jitter) before it expires")
	assert.Zero(t, h.RefreshDue(ctx), "and not again right after")

	// The jitter spreads them: between 7 s and 8 s some are due, not all.
	h.Registry = rebuilt(t, h)
	h.clock.At(0)
	h.ListAvailable(ctx)
	h.clock.At(7500 * time.Millisecond)
	n := h.RefreshDue(ctx)
	assert.Greater(t, n, 0)
	assert.Less(t, n, 51)
}

// TestBackgroundGrace: a failing probe is graced by the refresher as by a
// reader, re-probed by the end of the window at the latest, then hidden.
func TestBackgroundGrace(t *testing.T) {
	h := newHarness(newRegistryConfig().WithTTL(10 * time.Second).WithGrace(10 * time.Second).WithBackgroundRefresh(true))
	p := script(ok, raises)
	require.NoError(t, h.Register(Tool{Name: "flaky", Probe: p}, false))
	ctx := context.Background()
	h.ListAvailable(ctx) // t=0: ok, last success 0
	h.clock.At(8 * time.Second)
	h.RefreshDue(ctx) // raises: graced until 0+10+10 = 20
	st := h.status(t, "flaky")
	assert.True(t, st.Graced)
	assert.True(t, st.Available())
	assert.Equal(t, []string{"DEBUG Availability check failed for tool 'flaky' but serving last-good within grace window: Network unreachable"}, h.logs.take())
	h.clock.At(14 * time.Second)
	assert.Zero(t, h.RefreshDue(ctx))
	h.clock.At(16500 * time.Millisecond)
	assert.Equal(t, 1, h.RefreshDue(ctx), "a graced answer is due after the TTL less the margin, like any other")
	h.clock.At(20 * time.Second)
	assert.Equal(t, 1, h.RefreshDue(ctx), "and at the end of the grace window at the latest")
	assert.Equal(t, StateError, h.status(t, "flaky").State)
	assert.Empty(t, h.ListAvailable(ctx))
}

// rebuilt returns a new background registry on h's clock and logger with
// the same tools and fresh probes.
func rebuilt(t *testing.T, h *harness) *Registry {
	r := newRegistry(h.cfg)
	for _, tool := range h.List() {
		tool.Probe = script(ok)
		require.NoError(t, r.Register(tool, false))
	}
	return r
}

// TestAnswerKeepsWhatItIsGiven: the record an entry keeps of an answer
// gives back the Status it was made of.
func TestAnswerKeepsWhatItIsGiven(t *testing.T) {
	at := time.Now()
	e := &entry{tool: Tool{Name: "t"}, label: "env:T"}
	denied := []hostfuncs.Denial{{Kind: "env", Request: "T", Probe: "t"}}
	for _, state := range answerStates {
		st := Status{Name: "t", State: state, Reason: "why", Err: errors.New("e"), Latency: time.Millisecond,
			HasProbe: true, CheckedAt: at, Late: true, Code: CodeProbeRaised, Probe: "env:T", Denied: denied}
		assert.Equal(t, st, answerOf(st).status(e))
	}
}

// TestAnswerAfterRemovalChangesNothing: a probe that answers after its
// tool was unregistered, replaced or cleared flips nothing anyone hears
// of: the tool it answers for is no longer listed.
func TestAnswerAfterRemovalChangesNothing(t *testing.T) {
	for _, remove := range []struct {
		name string
		do   func(*Registry) error
	}{
		{"unregister", func(r *Registry) error { r.Unregister("t"); return nil }},
		{"replace", func(r *Registry) error { return r.Register(Tool{Name: "t"}, true) }},
		{"clear", func(r *Registry) error { r.Clear(); return nil }},
	} {
		t.Run(remove.name, func(t *testing.T) {
			ctx := context.Background()
			var runs atomic.Int32
			running, release := make(chan struct{}), make(chan struct{})
			r := newRegistry(newRegistryConfig().WithTTL(0))
			require.NoError(t, r.Register(Tool{Name: "t", Probe: NewNativeProbe(0, func(context.Context) (bool, string, error) {
				if runs.Add(1) == 1 {
					return true, "", nil
				}
				close(running)
				<-release
				return false, "gone", nil
			})}, false))
			require.Len(t, r.ListAvailable(ctx), 1)
			var heard atomic.Int32
			r.Subscribe(func(Change) { heard.Add(1) })
			listed := make(chan struct{})
			go func() {
				defer close(listed)
				r.ListAvailable(ctx)
			}()
			<-running
			require.NoError(t, remove.do(r))
			close(release)
			<-listed
			assert.Zero(t, heard.Load(), "a change heard of a tool that is gone")
		})
	}
}
