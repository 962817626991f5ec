package mcpgw

import (
	"context"
	"fmt"
	"slices"
	"strings"
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
// or ctx is done. It returns at once in the steady state. A request it
// held that is answered with upstreams still connecting is logged
// (warnStillConnecting); what is the request's method, "tools/list".
func (g *Gateway) awaitFirstLook(ctx context.Context, what string) {
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
		return // nobody reads the answer
	}
	g.warnStillConnecting(what)
}

// maxNamedConnecting bounds the servers a warning names one by one.
const maxNamedConnecting = 10

// warnStillConnecting logs that the request what, held for the first
// look, is answered while servers are still making their first
// connection (the startup wait ran out for them): a client that lists
// once and ignores list_changed would otherwise miss their tools with
// nothing said. Nothing when every server has settled.
func (g *Gateway) warnStillConnecting(what string) {
	names := g.stillConnecting()
	if len(names) == 0 {
		return
	}
	more := ""
	if len(names) > maxNamedConnecting {
		more = fmt.Sprintf(" and %d more", len(names)-maxNamedConnecting)
		names = names[:maxNamedConnecting]
	}
	g.logf("warning: %s answered without the servers still connecting after the startup wait of %v: %s%s (what they offer comes once they are ready, with a list_changed notification)",
		what, g.cfg.startupWait, strings.Join(names, ", "), more)
}

// stillConnecting names the upstreams making their first connection, in
// order.
func (g *Gateway) stillConnecting() []string {
	g.upsMu.Lock()
	defer g.upsMu.Unlock()
	var names []string
	for name, u := range g.ups {
		if !u.settled.Load() {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	return names
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
