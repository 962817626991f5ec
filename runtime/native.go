package runtime

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"
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
// The function should honour ctx, whose deadline is the budget. If it
// does not, the run still answers at the budget (as an overrun) and the
// function is left to finish on its own; until it has, further runs of
// the same NativeProbe answer at once with an error rather than start a
// second copy, so a hung check costs one goroutine, not one per caller.
type NativeProbe struct {
	fn     func(ctx context.Context) (available bool, reason string, err error)
	budget time.Duration

	mu      sync.Mutex
	running bool
}

// ErrStillRunning is the error of a native probe run that found its
// previous run, which overran, still going.
var ErrStillRunning = errors.New("the previous run is still going")

// NewNativeProbe wraps fn, which answers (true, "") when available, (false,
// reason) when not, or an error when it could not tell (the probe
// "raised"). budget 0 means MaxBudget.
func NewNativeProbe(budget time.Duration, fn func(ctx context.Context) (available bool, reason string, err error)) *NativeProbe {
	if budget <= 0 || budget > MaxBudget {
		budget = MaxBudget
	}
	return &NativeProbe{fn: fn, budget: budget}
}

// Run calls the function under the budget.
func (n *NativeProbe) Run(ctx context.Context) Result {
	n.mu.Lock()
	if n.running {
		n.mu.Unlock()
		return Result{Outcome: Failed, Err: ErrStillRunning, Reason: ErrStillRunning.Error()}
	}
	n.running = true
	n.mu.Unlock()

	start := time.Now()
	ctx, cancel := context.WithTimeout(ctx, n.budget)
	defer cancel()
	type answer struct {
		ok     bool
		reason string
		err    error
	}
	done := make(chan answer, 1)
	go func() {
		defer func() {
			n.mu.Lock()
			n.running = false
			n.mu.Unlock()
		}()
		defer func() {
			if r := recover(); r != nil {
				done <- answer{err: panicError{r}}
			}
		}()
		ok, reason, err := n.fn(ctx)
		done <- answer{ok, reason, err}
	}()
	select {
	case a := <-done:
		res := Result{Elapsed: time.Since(start), Reason: a.reason}
		switch {
		case a.err != nil:
			res.Outcome, res.Err, res.Reason = Failed, a.err, a.err.Error()
		case a.ok:
			res.Outcome = Available
		default:
			res.Outcome = Unavailable
		}
		return res
	case <-ctx.Done():
		err := ctx.Err()
		return Result{Outcome: Failed, Err: err, Reason: "native probe: " + err.Error(), Elapsed: time.Since(start)}
	}
}

type panicError struct{ v any }

func (p panicError) Error() string { return fmt.Sprintf("native probe panicked: %v", p.v) }
