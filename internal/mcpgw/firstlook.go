package mcpgw

import (
	"context"
	"time"
)

// The first look. A client lists tools right after initialize, and many
// list only once (they ignore list_changed); an upstream takes a fraction
// of a second to a few seconds to start, answer initialize and list. So
// the gateway holds a request that reads the offered set (a listing, or a
// call of a tool it does not offer) while any upstream is making its
// first connection, until every such upstream is ready or down and the
// offered set has been computed since, or the startup wait has passed
// since the upstream started. A request never waits longer than the
// startup wait either, whatever the gateway's loop does: past it, it is
// answered from the set as it is, where a tool of an upstream still
// connecting is hidden with "server S is connecting".

// awaitFirstLook blocks until no upstream is making its first connection
// within the startup wait, or the startup wait has passed since the call,
// or ctx is done. It returns at once in the steady state.
func (g *Gateway) awaitFirstLook(ctx context.Context) {
	g.mu.Lock()
	whole := g.whole
	g.mu.Unlock()
	select {
	case <-whole:
		return
	default:
	}
	if g.cfg.startupWait <= 0 {
		return
	}
	t := time.NewTimer(g.cfg.startupWait)
	defer t.Stop()
	select {
	case <-whole:
	case <-t.C:
	case <-ctx.Done():
	}
}

// firstPending says whether an upstream is making its first connection
// within the startup wait, and when the earliest such wait ends. Run
// looks before it computes the offered set: an upstream that settles
// after the look pokes Run, which computes again and looks again.
func (g *Gateway) firstPending(now time.Time) (pending bool, until time.Time) {
	g.upsMu.Lock()
	defer g.upsMu.Unlock()
	for _, u := range g.ups {
		if u.settled.Load() {
			continue
		}
		end := u.started.Add(g.cfg.startupWait)
		if !now.Before(end) {
			continue
		}
		if !pending || end.Before(until) {
			until = end
		}
		pending = true
	}
	return pending, until
}

// settleFirstLook releases the requests held for the first look once the
// offered set just computed covers every upstream's first connection
// (pending was firstPending's answer before that computation), or has Run
// look again when the earliest startup wait ends.
func (g *Gateway) settleFirstLook(pending bool, until time.Time) {
	if pending {
		if !until.Equal(g.firstWake) {
			g.firstWake = until
			g.wakeAt(until)
		}
		return
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	select {
	case <-g.whole:
	default:
		close(g.whole)
	}
}

// holdFirstLook makes requests wait again: an upstream the manifest just
// added is making its first connection. Run calls it as it starts one.
func (g *Gateway) holdFirstLook() {
	g.mu.Lock()
	defer g.mu.Unlock()
	select {
	case <-g.whole:
		g.whole = make(chan struct{})
	default:
	}
}
