package runtime

import (
	"context"
	"fmt"
	"github.com/gate-dev/gate/internal/limits"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gate-dev/gate/internal/host"
)

// Prober answers whether something is available now. A WebAssembly *Probe
// is one; a *NativeProbe wraps a Go function, for host apps that embed gate
// and gate their own tools.
type Prober interface {
	Run(ctx context.Context) Result
}

// NativeProbe is a Go function used as a probe. It is held by pointer so
// that the registry can tell "the same probe registered again" from "a
// different probe" (see Registry.Register).
//
// The function should honour ctx, whose deadline is the budget from when
// the function starts running: a machine that is late starting its
// goroutine does not shorten its budget, up to ten budgets after Run was
// called (the late limit; the answer then says Late). A Go function's own
// CPU cannot be told from its waits, and a context's deadline cannot move
// once made, so past its start the budget is the wall clock's. If fn does
// not honour ctx, the run still answers at the budget (as an overrun) and
// the function is left to finish on its own; until it has, further runs of
// the same NativeProbe answer at once with ErrStillRunning rather than
// start another copy, so a hung check costs one goroutine, not one per
// caller. Runs that answer in time may overlap (one NativeProbe registered
// under two names runs for both), so fn must be safe for concurrent use.
// A Registry calls fn on one of the goroutines of its read, in a place
// among its NativeProbe runs in flight; a function that overruns gives
// the place back when its run is answered, and its goroutine ends once
// the function returns.
type NativeProbe struct {
	fn     func(ctx context.Context) (available bool, reason string, err error)
	budget time.Duration

	// stragglers counts runs that answered at the budget while fn went on.
	stragglers atomic.Int32
}

// NewNativeProbe wraps fn, which answers (true, "") when available, (false,
// reason) when not, or an error when it could not tell (the probe
// "raised"). budget 0 means MaxBudget.
func NewNativeProbe(budget time.Duration, fn func(ctx context.Context) (available bool, reason string, err error)) *NativeProbe {
	if budget <= 0 || budget > limits.MaxBudget {
		budget = limits.MaxBudget
	}
	return &NativeProbe{fn: fn, budget: budget}
}

// nativeAnswer is what fn returned.
type nativeAnswer struct {
	ok     bool
	reason string
	err    error
}

// Run calls the function under the budget, on a goroutine of its own, so
// that Run answers at the budget whatever the function does.
func (n *NativeProbe) Run(ctx context.Context) Result {
	if n.stragglers.Load() > 0 {
		return stillRunning()
	}
	done := make(chan Result, 1)
	r := newNativeRun(ctx, func(_ probeJob, res Result) { done <- res })
	defer r.close()
	r.begin(n, probeJob{}, true)
	go r.call(time.Time{})
	return <-done
}

// runHere runs job's function, n's, on the calling goroutine, one of a
// registry's, in r, that goroutine's run (see newNativeRun), and returns
// once the function has returned; the answer settles job, once: the
// function's, or at the budget, from r's timer, the overrun's while the
// function goes on. It reports whether the function went on past the
// run's end (r.onStraggle was told).
func (n *NativeProbe) runHere(r *nativeRun, job probeJob) (straggled bool) {
	if n.stragglers.Load() > 0 {
		r.answer(job, stillRunning())
		return false
	}
	r.call(r.begin(n, job, false))
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.straggled
}

func stillRunning() Result {
	return Result{Outcome: Failed, Err: ErrStillRunning, Reason: ErrStillRunning.Error(), Code: CodeOverrun}
}

// endedResult is the answer of a run that ended, by err, before its
// function returned.
func endedResult(err error, elapsed time.Duration) Result {
	return Result{Outcome: Failed, Err: err, Reason: "native probe: " + err.Error(), Elapsed: elapsed, Code: codeOfError(err)}
}

// nativeRun is the bookkeeping of the runs of NativeProbes that one
// goroutine makes, one after another (a registry's goroutine makes many,
// Run one). A run ends at its function's budget, counted from when the
// function starts; at the late limit if it has not started by then; or
// when the caller's context ends: whichever comes first. The first of
// "the function returned" and "the run ended" answers the run; a function
// still running when the run ended is a straggler until it returns, and
// the goroutine's next run waits for it. One timer does all the waiting,
// for every run: the late limit until the function starts, then the
// budget. What a run must keep past its end, the function's context, is a
// nativeCtx of its own.
type nativeRun struct {
	parent context.Context
	answer func(job probeJob, res Result)
	// stopWatch stops watching a parent that can end (context.AfterFunc).
	stopWatch func() bool
	timer     *time.Timer
	// onWait, when set, is told of a function that has run for
	// nativeWaitAfter: a Go function cannot say when it waits, so one that
	// takes that long is taken to wait (see batch.waiting). onStraggle,
	// when set, is told of a run that ended while its function goes on.
	onWait, onStraggle func()

	// The run under way, guarded by mu: the timer and the watch read it
	// while the function runs, and it changes between runs.
	mu    sync.Mutex
	n     *NativeProbe
	job   probeJob
	ctx   *nativeCtx // the function's, once it has started
	start time.Time  // when the run was asked for
	// deadline is the budget's end, set when the function starts.
	deadline  time.Time
	started   bool
	finished  bool
	answered  bool
	straggled bool // counted in n.stragglers
	waited    bool // onWait has been told
}

// nativeWaitAfter is how long a NativeProbe's function may run before
// its goroutine's other jobs are taken up by another (see batch.waiting):
// about what a loopback dial takes.
const nativeWaitAfter = 200 * time.Microsecond

// newNativeRun makes the runs' record for one goroutine, whose answers go
// to answer. Close it once the goroutine has made its last run.
func newNativeRun(ctx context.Context, answer func(probeJob, Result)) *nativeRun {
	r := &nativeRun{parent: ctx, answer: answer, answered: true, finished: true}
	r.timer = time.AfterFunc(time.Hour, r.tick)
	r.timer.Stop()
	if ctx.Done() != nil {
		r.stopWatch = context.AfterFunc(ctx, func() { r.end(ctx.Err()) })
	}
	return r
}

// begin starts the bookkeeping of a run of n asked for now, which it
// returns. A run whose function starts on another goroutine (later)
// has the timer set for its late limit until then.
func (r *nativeRun) begin(n *NativeProbe, job probeJob, later bool) time.Time {
	now := time.Now()
	r.mu.Lock()
	r.n, r.job, r.ctx, r.start = n, job, nil, now
	r.started, r.finished, r.answered, r.straggled, r.waited = false, false, false, false, false
	if later {
		r.timer.Reset(lateLimit * n.budget)
	}
	r.mu.Unlock()
	if err := r.parent.Err(); err != nil {
		r.end(err) // the parent ended before: the watch has fired already
	}
	return now
}

// close stops the timer and the watch.
func (r *nativeRun) close() {
	r.timer.Stop()
	if r.stopWatch != nil {
		r.stopWatch()
	}
}

// call calls the function, unless the run ended before it could start;
// now is when it was begun on this goroutine, or zero.
func (r *nativeRun) call(now time.Time) {
	r.mu.Lock()
	if r.answered {
		r.mu.Unlock()
		return
	}
	if now.IsZero() {
		now = time.Now()
	}
	r.started = true
	r.deadline = now.Add(r.n.budget)
	if limit := r.start.Add(lateLimit * r.n.budget); limit.Before(r.deadline) {
		r.deadline = limit
	}
	ctx := &nativeCtx{parent: r.parent, deadline: r.deadline}
	r.ctx = ctx
	fn := r.n.fn
	if r.onWait != nil {
		r.timer.Reset(nativeWaitAfter)
	} else {
		r.timer.Reset(r.deadline.Sub(now))
	}
	r.mu.Unlock()

	returned := false
	defer func() {
		if !returned {
			// The function called runtime.Goexit, which ends this goroutine
			// whatever its callers do: the run is answered all the same.
			r.finish(nativeAnswer{err: panicError{"runtime.Goexit"}})
		}
	}()
	var a nativeAnswer
	func() {
		defer func() {
			if v := recover(); v != nil {
				a = nativeAnswer{err: panicError{v}}
			}
		}()
		a.ok, a.reason, a.err = fn(ctx)
	}()
	returned = true
	r.finish(a)
}

// straggledRun reports whether the last run ended while its function
// went on.
func (r *nativeRun) straggledRun() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.straggled
}

// tick is the timer's: the run's time is up, unless it is not due yet (a
// tick set for a run before, for the late limit of a run whose function
// has started since, or for onWait), when it sets itself again for when
// it is.
func (r *nativeRun) tick() {
	r.mu.Lock()
	if r.answered {
		r.mu.Unlock()
		return
	}
	due := r.start.Add(lateLimit * r.n.budget)
	if r.started {
		due = r.deadline
	}
	wait := r.started && r.onWait != nil && !r.waited
	r.waited = r.waited || wait
	if now := time.Now(); now.Before(due) {
		r.timer.Reset(due.Sub(now))
		r.mu.Unlock()
		if wait {
			r.onWait()
		}
		return
	}
	r.mu.Unlock()
	r.end(context.DeadlineExceeded)
}

// end answers the run under way as ended by err, unless it was answered.
func (r *nativeRun) end(err error) {
	r.mu.Lock()
	if r.answered {
		r.mu.Unlock()
		return
	}
	r.answered = true
	if r.ctx != nil {
		r.ctx.end(err)
	}
	straggled := r.started && !r.finished
	if straggled {
		r.straggled = true
		r.n.stragglers.Add(1)
	}
	r.timer.Stop()
	job, start := r.job, r.start
	r.mu.Unlock()
	if pe := r.parent.Err(); pe != nil {
		err = pe
	}
	r.answer(job, endedResult(err, time.Since(start)))
	if straggled && r.onStraggle != nil {
		r.onStraggle()
	}
}

// finish takes the function's answer: the run's, unless it ended first.
func (r *nativeRun) finish(a nativeAnswer) {
	r.mu.Lock()
	r.finished = true
	answered := r.answered
	r.answered = true
	if r.straggled {
		r.n.stragglers.Add(-1)
	}
	// The function's context ends with its run, as a deferred cancel
	// would end it.
	r.ctx.end(context.Canceled)
	r.timer.Stop()
	job, start, budget := r.job, r.start, r.n.budget
	r.mu.Unlock()
	if !answered {
		r.answer(job, a.result(time.Since(start), budget))
	}
}

// nativeCtx is the context a run's function is given: its deadline is
// the budget's, its values the caller's, and it ends with the run. It is
// made for each run, as the function may keep it past its return (a
// goroutine it started may still wait on Done), and must then still say
// that its run has ended.
type nativeCtx struct {
	parent   context.Context
	deadline time.Time // fixed before the function is given the context

	mu   sync.Mutex
	err  error         // why the context ended; nil until it has
	done chan struct{} // made by the first Done
}

// end ends the context with err, unless it has ended.
func (c *nativeCtx) end(err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.err != nil {
		return
	}
	c.err = err
	if c.done == nil {
		c.done = closedDone
	} else {
		close(c.done)
	}
}

// closedDone is the Done of a run that ended before anyone asked.
var closedDone = func() chan struct{} {
	c := make(chan struct{})
	close(c)
	return c
}()

// Deadline, Done, Err and Value make a nativeCtx a context.Context.
func (c *nativeCtx) Deadline() (time.Time, bool) {
	if pd, ok := c.parent.Deadline(); ok && pd.Before(c.deadline) {
		return pd, true
	}
	return c.deadline, true
}

func (c *nativeCtx) Done() <-chan struct{} {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.done == nil {
		c.done = make(chan struct{})
	}
	return c.done
}

func (c *nativeCtx) Err() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.err
}

func (c *nativeCtx) Value(key any) any { return c.parent.Value(key) }

// result is the run's Result; an answer after the budget on the wall
// clock is late (the function itself had its whole budget).
func (a nativeAnswer) result(elapsed, budget time.Duration) Result {
	res := Result{Elapsed: elapsed, Reason: a.reason, Late: elapsed > budget && a.err == nil}
	switch {
	case a.err != nil:
		res.Outcome, res.Err, res.Reason = Failed, a.err, a.err.Error()
	case a.ok:
		res.Outcome = Available
	default:
		res.Outcome = Unavailable
	}
	if res.Outcome != Available {
		res.Code = codeOfFailure(host.FailNone)
	}
	if res.Err != nil {
		res.Code = codeOfError(res.Err)
	}
	return res
}

type panicError struct{ v any }

func (p panicError) Error() string { return fmt.Sprintf("native probe panicked: %v", p.v) }
