package runtime

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
)

// lifetime tracks the operations that use something a Close frees (the
// wazero runtime of an engine, the instances of a pool), so that Close can
// stop them and wait for them first. Freeing a linear memory while a guest
// still runs in it crashed the process (an unmapped region) or handed one
// probe's memory, secrets included, to the next instance (a recycled page).
//
// enter and leave are two atomic adds on the hot path; the mutex and the
// drained channel are touched only once closing has begun. A probe holds
// one for its whole life, so it is kept small: no context, and its
// drained channel is made by close.
//
// A lifetime is a host.Stopper: runs are told to stop once closing
// has begun, by the flag every check reads, and by the channel Done
// returns, made on first demand (by a run that waits), so that a probe
// that never waits never holds one.
type lifetime struct {
	active  atomic.Int64
	closing atomic.Bool

	mu      sync.Mutex
	stop    chan struct{} // made by Done; closed when closing begins
	drained chan struct{} // made by close; closed once nothing is active
	done    bool          // drained is closed
}

func newLifetime() *lifetime { return &lifetime{} }

// Stopping reports whether closing has begun.
func (l *lifetime) Stopping() bool { return l.closing.Load() }

// Done returns a channel closed when closing begins.
func (l *lifetime) Done() <-chan struct{} {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.stop == nil {
		l.stop = make(chan struct{})
		if l.closing.Load() {
			close(l.stop)
		}
	}
	return l.stop
}

// enter registers an operation; it reports false, and registers nothing,
// once closing has begun. The add comes before the check: a Close that
// finds nothing active can then be sure that whatever enters later sees
// it closing.
func (l *lifetime) enter() bool {
	l.active.Add(1)
	if l.closing.Load() {
		l.leave()
		return false
	}
	return true
}

// leave ends an operation that entered.
func (l *lifetime) leave() {
	if l.active.Add(-1) == 0 && l.closing.Load() {
		l.mu.Lock()
		l.drain()
		l.mu.Unlock()
	}
}

// drain closes drained if it exists and nothing is active; l.mu is held.
func (l *lifetime) drain() {
	if l.drained != nil && !l.done && l.active.Load() == 0 {
		l.done = true
		close(l.drained)
	}
}

// close begins closing: new operations are refused, running ones are told
// to stop. It returns a channel closed once the last one has left.
func (l *lifetime) close() <-chan struct{} {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.drained == nil {
		l.drained = make(chan struct{})
		l.closing.Store(true)
		if l.stop != nil {
			close(l.stop)
		}
	}
	l.drain()
	return l.drained
}

// closed reports whether closing has begun.
func (l *lifetime) closed() bool { return l.closing.Load() }

// afterDrain runs release once every operation has left, and waits for it
// as long as ctx allows. If ctx ends first, release still runs, later, in
// the background: memory is never freed under a running guest, whatever
// the caller's patience.
func afterDrain(ctx context.Context, drained <-chan struct{}, release func() error) error {
	done := make(chan error, 1)
	go func() {
		<-drained
		done <- release()
	}()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		return errors.Join(ctx.Err(), errors.New("closing goes on in the background once the running probes have stopped"))
	}
}
