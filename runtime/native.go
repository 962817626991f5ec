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

// nativeRun is the hand-over between a run and the goroutine calling fn:
// whichever of "fn returned" and "the run gave up" comes second settles
// the straggler count.
type nativeRun struct {
	mu        sync.Mutex
	finished  bool
	abandoned bool
}

// Run calls the function under the budget.
func (n *NativeProbe) Run(ctx context.Context) Result {
	if n.stragglers.Load() > 0 {
		return Result{Outcome: Failed, Err: ErrStillRunning, Reason: ErrStillRunning.Error(), Code: CodeOverrun}
	}
	start := time.Now()
	parent := ctx
	ctx, cancel := context.WithTimeout(ctx, lateLimit*n.budget)
	defer cancel()
	run := &nativeRun{}
	done := make(chan nativeAnswer, 1)
	// budget ends the function's own budget, counted from when its
	// goroutine first runs.
	budget := make(chan context.Context, 1)
	go func() {
		fctx, cancel := context.WithTimeout(ctx, n.budget)
		defer cancel()
		budget <- fctx
		var a nativeAnswer
		defer func() {
			if r := recover(); r != nil {
				a = nativeAnswer{err: panicError{r}}
			}
			run.mu.Lock()
			run.finished = true
			if run.abandoned {
				n.stragglers.Add(-1)
			}
			run.mu.Unlock()
			done <- a
		}()
		a.ok, a.reason, a.err = n.fn(fctx)
	}()
	var over <-chan struct{} = ctx.Done()
	select {
	case fctx := <-budget:
		over = fctx.Done()
	case <-ctx.Done():
	}
	select {
	case a := <-done:
		return a.result(time.Since(start), n.budget)
	case <-over:
		run.mu.Lock()
		if run.finished {
			// fn returned just as the budget ended: its answer counts.
			run.mu.Unlock()
			return (<-done).result(time.Since(start), n.budget)
		}
		run.abandoned = true
		n.stragglers.Add(1)
		run.mu.Unlock()
		err := parent.Err()
		if err == nil {
			err = context.DeadlineExceeded
		}
		return Result{Outcome: Failed, Err: err, Reason: "native probe: " + err.Error(), Elapsed: time.Since(start), Code: codeOfError(err)}
	}
}

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
