package runtime

import (
	"context"
	goruntime "runtime"
	"sync/atomic"
)

// compileWorkers is how many goroutines wazero's compiler spreads one
// module over (see compileContext).
const compileWorkers = 2

// processCompiles bounds the wazero compiles under way in the process,
// every engine's together, to one per compileWorkers CPUs (one on a
// 2-core machine). A compile cannot be interrupted within a function, and one module within
// the load limits takes seconds and hundreds of megabytes (a Go probe
// near the size limit: docs/BENCHMARKS.md); more of them at once would not finish
// sooner on the same cores, they would only multiply the memory, and the
// compiles of callers that gave up would pile up behind the ones still
// waited for. A compile waits for its turn within its caller's context,
// and one whose caller gave up before its turn never starts.
var processCompiles = newCompileSlots(max(1, goruntime.GOMAXPROCS(0)/compileWorkers))

// compileSlots is a counting semaphore of compiles.
type compileSlots struct {
	slots chan struct{}
	// started counts the compiles that got a slot; running those under
	// way, most the highest running has been (the engine's tests read
	// them).
	started, running, most atomic.Int64
}

func newCompileSlots(n int) *compileSlots {
	return &compileSlots{slots: make(chan struct{}, n)}
}

// acquire waits for a slot until ctx ends or stop is closed (the engine
// is being closed).
func (s *compileSlots) acquire(ctx context.Context, stop <-chan struct{}) error {
	select {
	case s.slots <- struct{}{}:
	case <-ctx.Done():
		return ctx.Err()
	case <-stop:
		return ErrClosed
	}
	s.started.Add(1)
	n := s.running.Add(1)
	for m := s.most.Load(); n > m && !s.most.CompareAndSwap(m, n); m = s.most.Load() {
	}
	return nil
}

func (s *compileSlots) release() {
	s.running.Add(-1)
	<-s.slots
}
