package resolve

import (
	"context"
	"errors"
	"fmt"
	"github.com/gate-dev/gate/hostfuncs"
	"sync/atomic"
)

// ErrResolverBusy is wrapped by the error for a spec whose resolver has not
// yet returned from a call that an earlier Resolve gave up on.
var ErrResolverBusy = errors.New("an earlier lookup was given up at its deadline and is still running")

// resolverEntry is one registered resolver. Its calls run where the caller
// can stop waiting for them: a resolver may block in a way that no ctx
// reaches (a host app's resolver that ignores ctx, a stat on a hung NFS
// mount), and gate.import must still answer within the probe's budget.
// A call given up on is left to finish, since Go cannot stop it; while one
// is still running the entry refuses new calls, so that a resolver that
// hangs holds at most the calls that were already in flight when the
// first one was given up on, and not one more per probe run.
type resolverEntry struct {
	scheme    string
	res       hostfuncs.Resolver
	abandoned atomic.Int32 // calls given up on that have not returned
}

type resolveResult struct {
	found bool
	err   error
}

const (
	callRunning int32 = iota
	callAnswered
	callAbandoned
)

func (e *resolverEntry) resolve(ctx context.Context, name string) (bool, error) {
	if ctx.Done() == nil {
		return e.call(ctx, name) // no deadline: nothing to give up at
	}
	if e.abandoned.Load() > 0 {
		return false, fmt.Errorf("%w: not asking the %q resolver again until it returns", ErrResolverBusy, e.scheme)
	}
	var state atomic.Int32
	done := make(chan resolveResult, 1)
	go func() {
		found, err := e.call(ctx, name)
		if state.CompareAndSwap(callRunning, callAnswered) {
			done <- resolveResult{found, err}
			return
		}
		e.abandoned.Add(-1)
	}()
	select {
	case r := <-done:
		return r.found, r.err
	case <-ctx.Done():
	}
	// Count the call before marking it, so that the goroutine's decrement,
	// which follows the mark, never runs first.
	e.abandoned.Add(1)
	if !state.CompareAndSwap(callRunning, callAbandoned) {
		e.abandoned.Add(-1) // it answered after all
		r := <-done
		return r.found, r.err
	}
	return false, fmt.Errorf("no answer in time, the lookup is left to finish: %w", ctx.Err())
}

// call runs the resolver with a panic turned into an error: in a goroutine
// of its own, a host app's bug would otherwise end the whole process.
func (e *resolverEntry) call(ctx context.Context, name string) (found bool, err error) {
	defer func() {
		if r := recover(); r != nil {
			found, err = false, fmt.Errorf("the %q resolver panicked: %v", e.scheme, r)
		}
	}()
	return e.res.Resolve(ctx, name)
}
