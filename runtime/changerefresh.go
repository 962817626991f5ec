package runtime

import (
	"context"
	"fmt"
	"sync"
	"time"
)

// changeRefresh re-probes a Gate's answers in the background while the
// Gate has OnChange subscribers. A change is noticed only when a probe
// runs, and without a refresher a probe runs only when a read finds its
// answer stale: a host app that waits for changes instead of reading
// would hear of none. It runs Registry.RefreshDue on the loop a Service's
// Run uses (refreshEvery), so reads go on serving cached answers, which
// it keeps from expiring. A Gate whose registries another party
// refreshes (WithBackgroundRefresh: a Service's Gate, refreshed by Run)
// has none.
type changeRefresh struct {
	round    func(context.Context) // nil: another party refreshes
	interval time.Duration

	// ctx ends when the Gate closes: the round under way gives up.
	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup // the loops running or stopping

	mu          sync.Mutex
	subscribers int
	stop        context.CancelFunc // ends the running loop; nil when none runs
	stopped     chan struct{}      // closed once that loop has returned
	closed      bool
}

func newChangeRefresh(round func(context.Context), interval time.Duration) *changeRefresh {
	c := &changeRefresh{round: round, interval: interval}
	c.ctx, c.cancel = context.WithCancel(context.Background())
	return c
}

// hold counts a subscriber in, and starts the loop if none runs and the
// Gate is open.
func (c *changeRefresh) hold() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.subscribers++
	if c.round == nil || c.closed || c.stop != nil {
		return
	}
	loop, stop := context.WithCancel(c.ctx)
	stopped := make(chan struct{})
	c.stop, c.stopped = stop, stopped
	c.wg.Add(1) // under mu, so never after close's Wait began
	go func() {
		defer c.wg.Done()
		defer close(stopped)
		// The round runs under the Gate's context, not the loop's: a
		// release waits for the probes under way, so that nothing probes
		// in the background once it has returned.
		refreshEvery(loop, c.interval, func() { c.round(c.ctx) })
	}()
}

// release counts a subscriber out; the last one stops the loop and waits
// until it has returned, after the round under way.
func (c *changeRefresh) release() {
	c.mu.Lock()
	c.subscribers--
	var stop context.CancelFunc
	var stopped chan struct{}
	if c.subscribers == 0 {
		stop, stopped = c.stop, c.stopped
		c.stop, c.stopped = nil, nil
	}
	c.mu.Unlock()
	if stop != nil {
		stop()
		<-stopped
	}
}

// close stops the loop for good: the round under way gives up (its
// probes are the engine's to stop), and the loop is waited for as long as
// ctx allows.
func (c *changeRefresh) close(ctx context.Context) error {
	c.mu.Lock()
	c.closed = true
	c.stop, c.stopped = nil, nil // c.cancel ends their loop
	c.mu.Unlock()
	c.cancel()
	done := make(chan struct{})
	go func() {
		c.wg.Wait()
		close(done)
	}()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return fmt.Errorf("closing the background refresh: it has not stopped yet: %w", ctx.Err())
	}
}
