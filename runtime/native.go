package runtime

import (
	"context"
	"errors"
	"fmt"
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
// A Registry calls fn on one of its probe workers rather than on a
// goroutine of its own: a function that has not returned 200 µs after it
// started has its worker's other probes taken up by another worker.
type NativeProbe struct {
	fn     func(ctx context.Context) (available bool, reason string, err error)
	budget time.Duration

	// stragglers counts runs that answered at the budget while fn went on.
	stragglers atomic.Int32
}

// ErrStillRunning is the error of a native probe run that found an earlier
// run, which overran, still going.
var ErrStillRunning = errors.New("the previous run overran and is still going")

// NewNativeProbe wraps fn, which answers (true, "") when available, (false,
// reason) when not, or an error when it could not tell (the probe
// "raised"). budget 0 means MaxBudget.
func NewNativeProbe(budget time.Duration, fn func(ctx context.Context) (available bool, reason string, err error)) *NativeProbe {
	if budget <= 0 || budget > MaxBudget {
		budget = MaxBudget
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
// that Run answers at the budget whatever the function does. A Registry
// runs a NativeProbe on its probe workers instead (see runHere), without
// a goroutine a run.
func (n *NativeProbe) Run(ctx context.Context) Result {
	if n.stragglers.Load() > 0 {
		return stillRunning()
	}
	done := make(chan Result, 1)
	r := &nativeRun{n: n, parent: ctx, start: time.Now(), answer: func(res Result) { done <- res }}
	// Until the goroutine starts the function, the run ends at the late
	// limit.
	r.mu.Lock()
	r.timer = time.AfterFunc(lateLimit*n.budget, r.tickOwn)
	r.mu.Unlock()
	r.watchParent()
	go r.callOwn()
	return <-done
}

// runHere runs job's NativeProbe, n, on the calling goroutine, one of a
// registry's probe workers, in the worker's run: its answer settles the
// job, either the function's or, at the budget, the overrun's, from the
// worker's timer while the function goes on; and if the function has not
// returned handOnAfter after it started, another worker takes up the rest
// of the jobs meanwhile.
func (n *NativeProbe) runHere(nw *nativeWorker, job probeJob) {
	if n.stragglers.Load() > 0 {
		nw.settle(job, stillRunning())
		return
	}
	start := nw.clock()
	if err := nw.run.parent.Err(); err != nil {
		nw.settle(job, endedResult(err, time.Since(start)))
		return
	}
	// A worker's run starts as it is asked for: the budget counts from
	// now.
	c := &nativeCtx{parent: nw.run.parent, deadline: start.Add(n.budget)}
	r := &nw.run
	r.mu.Lock()
	r.n, r.job, r.ctx = n, job, c
	r.start, r.began, r.deadline = start, start, c.deadline
	r.started, r.finished, r.answered, r.handedOn, r.straggled = true, false, false, false, false
	r.mu.Unlock()
	nw.begin()
	r.invoke()
}

func stillRunning() Result {
	return Result{Outcome: Failed, Err: ErrStillRunning, Reason: ErrStillRunning.Error(), Code: CodeOverrun}
}

// endedResult is the answer of a run that ended, by err, before its
// function returned.
func endedResult(err error, elapsed time.Duration) Result {
	return Result{Outcome: Failed, Err: err, Reason: "native probe: " + err.Error(), Elapsed: elapsed, Code: codeOfError(err)}
}

// nativeRun is the bookkeeping of a run of a NativeProbe. The run ends at
// the function's budget, counted from when the function starts; at the
// late limit if it has not started by then; or when the caller's context
// ends: whichever comes first. The first of "the function returned" and
// "the run ended" answers the run; a function still running when the run
// ended is a straggler until it returns.
//
// One timer does all the waiting: the late limit until the function
// starts, then the budget. A worker's runs have none of their own: the
// worker's timer ticks every handOnAfter or so while it works and acts
// for the run under way, which hands on once it has run that long and
// has the timer set for its budget's end. A worker keeps one nativeRun
// for all the runs it makes, one after another (it waits for each
// function to return before it starts the next): what a run must keep
// past its end, the function's context, is a nativeCtx of its own.
type nativeRun struct {
	parent context.Context // the caller's: a worker's, for all its runs
	// answer takes the answer of a run that is not a worker's; a worker's
	// settles its job.
	answer func(Result)
	worker *nativeWorker
	// stopWatch stops watching a parent that can end (context.AfterFunc);
	// a worker watches its parent for all its runs.
	stopWatch func() bool

	mu    sync.Mutex
	n     *NativeProbe
	job   probeJob
	ctx   *nativeCtx // the function's, once it has started
	start time.Time  // when the run was asked for
	// began is when the function started, and deadline its budget's end:
	// set before it starts, then fixed.
	began     time.Time
	deadline  time.Time
	timer     *time.Timer // the run's own: nil on a worker
	started   bool
	finished  bool
	answered  bool
	handedOn  bool
	straggled bool // counted in n.stragglers
}

// watchParent ends the run when the caller's context does.
func (r *nativeRun) watchParent() {
	if r.parent.Done() == nil {
		return
	}
	stop := context.AfterFunc(r.parent, func() { r.end(r.parent.Err()) })
	r.mu.Lock()
	r.stopWatch = stop
	r.mu.Unlock()
}

// callOwn calls the function of a run that is not a worker's, unless the
// run ended before it could start.
func (r *nativeRun) callOwn() {
	r.mu.Lock()
	if r.answered {
		r.mu.Unlock()
		return
	}
	now := time.Now()
	r.started, r.began = true, now
	r.deadline = now.Add(r.n.budget)
	if limit := r.start.Add(lateLimit * r.n.budget); limit.Before(r.deadline) {
		r.deadline = limit
	}
	r.ctx = &nativeCtx{parent: r.parent, deadline: r.deadline}
	r.timer.Reset(r.deadline.Sub(now))
	r.mu.Unlock()
	r.invoke()
}

// invoke calls the function of a run that has started, and takes its
// answer. Only the goroutine that calls the function reads r.n and r.ctx
// without r.mu: they change only between its runs.
func (r *nativeRun) invoke() {
	var a nativeAnswer
	func() {
		defer func() {
			if v := recover(); v != nil {
				a = nativeAnswer{err: panicError{v}}
			}
		}()
		a.ok, a.reason, a.err = r.n.fn(r.ctx)
	}()
	r.finish(a)
}

// tickOwn is the timer of a run that is not a worker's.
func (r *nativeRun) tickOwn() {
	if again := r.tick(); again > 0 {
		r.mu.Lock()
		r.timer.Reset(again)
		r.mu.Unlock()
	}
}

// tick is a timer's: the function has run handOnAfter (a worker hands
// on), or the run's time is up. It returns how long until the run wants
// the next tick; 0 once it has been answered (a worker's run between two
// runs has been). A tick that comes early (a worker's tick comes every
// handOnAfter or so, whenever its run began) does nothing but say so.
func (r *nativeRun) tick() (again time.Duration) {
	r.mu.Lock()
	if r.answered {
		r.parkWorker()
		r.mu.Unlock()
		return 0
	}
	now := time.Now()
	due := r.start.Add(lateLimit * r.n.budget) // until the function starts
	handOn := false
	if r.started {
		due = r.deadline
		if r.worker != nil && !r.handedOn {
			if at := r.began.Add(handOnAfter); now.Before(at) {
				due = at
			} else {
				r.handedOn, handOn = true, true
			}
		}
	}
	r.mu.Unlock()
	if handOn {
		r.worker.handOn()
	}
	if now.Before(due) {
		return due.Sub(now)
	}
	r.end(context.DeadlineExceeded)
	return 0
}

// end answers the run as ended by err, unless it was answered.
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
	if r.started && !r.finished {
		r.straggled = true
		r.n.stragglers.Add(1)
		r.parkWorker()
	}
	r.stop()
	// The job and start are read under r.mu: once the function returns, a
	// worker's run may be the next one's.
	job, start := r.job, r.start
	r.mu.Unlock()
	if pe := r.parent.Err(); pe != nil {
		err = pe
	}
	r.deliver(job, endedResult(err, time.Since(start)))
}

// deliver hands the run's answer to whoever asked for it.
func (r *nativeRun) deliver(job probeJob, res Result) {
	if r.worker != nil {
		r.worker.settle(job, res)
		return
	}
	r.answer(res)
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
	r.stop()
	job, start, budget := r.job, r.start, r.n.budget
	r.mu.Unlock()
	if !answered {
		r.deliver(job, a.result(time.Since(start), budget))
	}
}

// parkWorker stops a worker's timer from ticking on while its function,
// answered as overrun, has yet to return (perhaps never): the worker's
// next run sets it going again. r.mu is held, so that the function's
// return (finish) comes before or after, never in between.
func (r *nativeRun) parkWorker() {
	if r.worker != nil && !r.finished {
		r.worker.parked.Store(true)
	}
}

// stop stops the run's own timer and the parent's watch, if it has them;
// r.mu is held.
func (r *nativeRun) stop() {
	if r.worker != nil {
		return // the worker's timer and watch outlive the run
	}
	r.timer.Stop()
	if r.stopWatch != nil {
		r.stopWatch()
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
