package runtime

import (
	"context"
	"sync"
	"time"
)

// refreshEvery calls round every interval until ctx is done: the loop
// that re-probes answers before they expire, for a Service's Run and for
// a Gate that has OnChange subscribers. A round that outlasts the
// interval delays the next one (the ticker drops ticks) rather than
// piling rounds up.
func refreshEvery(ctx context.Context, interval time.Duration, round func()) {
	tick := time.NewTicker(interval)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
			// When both are ready select picks either: a loop told to
			// stop starts no further round.
			if ctx.Err() != nil {
				return
			}
			round()
		}
	}
}

// refreshInterval is how often a refresher looks for answers about to
// expire unless told otherwise: a tenth of the TTL, between 50 ms and 1 s.
func refreshInterval(ttl time.Duration) time.Duration {
	return min(max(ttl/10, 50*time.Millisecond), time.Second)
}

// refreshDue re-probes the tools and servers whose answers are about to
// expire (Registry.RefreshDue), both registries at once, and waits for
// them or for ctx.
func (g *Gate) refreshDue(ctx context.Context) {
	var wg sync.WaitGroup
	for _, r := range []*Registry{g.tools, g.servers} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r.RefreshDue(ctx)
		}()
	}
	wg.Wait()
}
