//lint:file-ignore SA1019 MCP deprecates roots as of 2026-07-28 (SEP-2577); clients and servers of the earlier versions gate speaks use it

package mcpgw

import (
	"cmp"
	"context"
	"errors"
	"slices"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// A client's roots reach the upstreams. gate asks each client session that
// declares the roots capability for its roots (roots/list) once it has
// initialized and again on each notifications/roots/list_changed it
// sends, within the list timeout; an answer past the caps below is cut
// there, and a client that does not answer (or errs) contributes none.
// The roots gate gives an upstream that asks (roots/list, which gate's
// client to every upstream declares, with listChanged) are the union of
// those of every client session open: for `gatectl mcp`, exactly its one
// client's; for several HTTP clients, all of theirs, each URI once, sorted
// by URI. An upstream is shared by the sessions, and cannot tell which
// session a later call comes from: it sees every root any of them gave.
// When the union changes, every upstream session is sent
// notifications/roots/list_changed. An upstream's roots/list that comes
// while a client is being asked waits for its answer, up to rootsSettle:
// an upstream started with the client (as `gatectl mcp` does) otherwise
// asks before gate knows any root, and some act on that first answer
// (server-filesystem complains it has no root).

// The caps on one client's roots, and on the union: far above any real
// workspace, and low enough that a client cannot make gate hold or send
// upstreams more than a few hundred kilobytes of them.
const (
	maxClientRoots     = 256
	maxClientRootBytes = 64 << 10
	maxRoots           = 1024
	maxRootBytes       = 256 << 10
)

// noServerRequests is the first protocol version in which a server sends
// no request of its own (roots/list among them).
const noServerRequests = "2026-07-28"

// rootsSettle bounds how long an upstream's roots/list waits for the
// clients being asked for their roots.
const rootsSettle = 2 * time.Second

// rootsEvery is how often, at most, a client session is asked for its
// roots and an upstream session told they changed: a client that sends
// roots/list_changed in a loop (its roots changing each time, or not)
// costs gate and every upstream one ask and one notification a second,
// with the roots of then, never one each.
const rootsEvery = time.Second

// clientRoots is what gate knows of one client session's roots.
type clientRoots struct {
	list []*mcp.Root // guarded by the clientSession's mu

	mu      sync.Mutex
	running bool // a fetch is under way
	again   bool // the client said they changed while it was
	// cancel ends the ask under way; stopped says the session is
	// closing, and asks no more. A request gate has out to a client
	// holds the SDK's close of the session (it waits for every call in
	// flight), so a client that closes its session while it is being
	// asked is not kept waiting for the ask's timeout.
	cancel  context.CancelFunc
	stopped bool
	// last is when the last ask began: the next begins rootsEvery after.
	last time.Time
	// answered says the client has answered an ask. Over streamable
	// HTTP an ask goes on the session's standalone stream, and the SDK
	// fails one made before the client opened it; such a client is asked
	// again when it does (askAgainOnStream).
	answered bool
	// failureTold says a failed ask has been logged: a client that fails
	// one ask fails the next the same way, and one line says it.
	failureTold bool
}

// firstFailure reports whether no failed ask of the session has been
// logged yet, and counts this one as logged.
func (r *clientRoots) firstFailure() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	first := !r.failureTold
	r.failureTold = true
	return first
}

// stop ends the ask under way, if any, and any to come.
func (r *clientRoots) stop() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.stopped = true
	if r.cancel != nil {
		r.cancel()
	}
}

// context is the context of one ask: the list timeout, ended by stop;
// ok is false once the session is closing.
func (r *clientRoots) context(parent context.Context, timeout time.Duration) (ctx context.Context, done func(), ok bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.stopped {
		return nil, nil, false
	}
	ctx, cancel := context.WithTimeout(parent, timeout)
	r.cancel = cancel
	return ctx, func() {
		cancel()
		r.mu.Lock()
		r.cancel = nil
		r.mu.Unlock()
	}, true
}

// rootsState is the union of the client sessions' roots.
type rootsState struct {
	mu       sync.Mutex
	all      []*mcp.Root
	fetching int           // clients being asked
	settled  chan struct{} // closed when fetching drops to 0; nil while it is 0
}

// begin counts a client being asked.
func (s *rootsState) begin() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.fetching == 0 {
		s.settled = make(chan struct{})
	}
	s.fetching++
}

// end counts a client's answer in (or its failure).
func (s *rootsState) end() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.fetching--; s.fetching == 0 {
		close(s.settled)
		s.settled = nil
	}
}

// waitSettled waits until no client is being asked, or bound or ctx ends.
func (s *rootsState) waitSettled(ctx context.Context, bound time.Duration) {
	s.mu.Lock()
	ch := s.settled
	s.mu.Unlock()
	if ch == nil {
		return
	}
	t := time.NewTimer(bound)
	defer t.Stop()
	select {
	case <-ch:
	case <-t.C:
	case <-ctx.Done():
	}
}

// clientInitialized is the server's InitializedHandler: a client that
// declares roots is asked for them.
func (g *Gateway) clientInitialized(_ context.Context, req *mcp.InitializedRequest) {
	g.fetchRoots(req.Session)
}

// clientRootsChanged is the server's RootsListChangedHandler.
func (g *Gateway) clientRootsChanged(_ context.Context, req *mcp.RootsListChangedRequest) {
	g.fetchRoots(req.Session)
}

// fetchRoots asks ss for its roots, in the background: one request at a
// time per session, and one more after it when the client said they
// changed meanwhile, no sooner than rootsEvery after the last began. A session of the 2026-07-28 protocol or later is
// not asked: that version has a server send no request of its own.
func (g *Gateway) fetchRoots(ss *mcp.ServerSession) {
	p := ss.InitializeParams()
	if p == nil || p.Capabilities == nil || p.Capabilities.RootsV2 == nil || p.ProtocolVersion >= noServerRequests {
		return
	}
	cs := g.client(ss)
	r := &cs.roots
	r.mu.Lock()
	if r.running {
		r.again = true
		r.mu.Unlock()
		return
	}
	r.running = true
	next := r.last.Add(rootsEvery)
	r.mu.Unlock()
	go func() {
		for {
			// An upstream's roots/list waits for asks under way, not
			// for the pause before one.
			if !sleepUntil(g.background, next) {
				r.mu.Lock()
				r.running = false
				r.mu.Unlock()
				return
			}
			g.roots.begin()
			r.mu.Lock()
			r.last = time.Now()
			next = r.last.Add(rootsEvery)
			r.mu.Unlock()
			g.setClientRoots(cs, g.askRoots(cs))
			g.roots.end()
			r.mu.Lock()
			if !r.again || r.stopped {
				r.running = false
				r.mu.Unlock()
				return
			}
			r.again = false
			r.mu.Unlock()
		}
	}()
}

// askRoots is ss's roots, within the caps; none when it does not answer
// within the list timeout or answers an error.
func (g *Gateway) askRoots(cs *clientSession) []*mcp.Root {
	ss := cs.ss
	ctx, done, ok := cs.roots.context(g.background, g.cfg.listTimeout)
	if !ok {
		return nil
	}
	defer done()
	res, err := ss.ListRoots(ctx, nil)
	if err != nil {
		// An ask gate ended itself (to ask again on a stream just
		// opened, or as the session closes) is no news to log. A client
		// that fails asks is the client's business, and common (MCP
		// Inspector's sessions declare roots and fail each ask as an
		// undelivered message): a debug line, once per session.
		if !errors.Is(ctx.Err(), context.Canceled) && cs.roots.firstFailure() {
			g.debugf("MCP session %s: roots/list: %v (it contributes no roots; said once per session)", shortID(ss.ID()), err)
		}
		return nil
	}
	cs.roots.mu.Lock()
	cs.roots.answered = true
	cs.roots.mu.Unlock()
	var out []*mcp.Root
	size := 0
	for _, r := range res.Roots {
		if r == nil || r.URI == "" {
			continue
		}
		size += len(r.URI) + len(r.Name)
		if len(out) == maxClientRoots || size > maxClientRootBytes {
			g.logf("MCP session %s: roots/list: more roots than gate takes of one client (%d, or %d bytes): those past it are not given to upstreams", shortID(ss.ID()), maxClientRoots, maxClientRootBytes)
			break
		}
		out = append(out, &mcp.Root{URI: r.URI, Name: r.Name})
	}
	return out
}

// setClientRoots records cs's roots, and has every upstream told when the
// union changed.
func (g *Gateway) setClientRoots(cs *clientSession, roots []*mcp.Root) {
	cs.mu.Lock()
	ended := cs.ended
	if !ended {
		cs.roots.list = roots
	}
	cs.mu.Unlock()
	if !ended {
		g.updateRoots()
	}
}

// updateRoots works out the union of the open sessions' roots, and has
// every upstream session sent roots/list_changed when it changed.
func (g *Gateway) updateRoots() {
	var all []*mcp.Root
	t := &g.clients
	t.mu.Lock()
	for _, cs := range t.sessions {
		cs.mu.Lock()
		if !cs.ended {
			all = append(all, cs.roots.list...)
		}
		cs.mu.Unlock()
	}
	t.mu.Unlock()
	union := unionRoots(all)
	g.roots.mu.Lock()
	changed := !slices.EqualFunc(union, g.roots.all, func(a, b *mcp.Root) bool { return a.URI == b.URI && a.Name == b.Name })
	g.roots.all = union
	g.roots.mu.Unlock()
	if !changed {
		return
	}
	// A notification already pending says this change too.
	g.kickUpstreams(func(u *upstream) chan struct{} { return u.rootsKick })
}

// unionRoots is roots sorted by URI, then name, each URI once (the first
// name in that order), cut at the caps of the union.
func unionRoots(roots []*mcp.Root) []*mcp.Root {
	slices.SortFunc(roots, func(a, b *mcp.Root) int {
		return cmp.Or(cmp.Compare(a.URI, b.URI), cmp.Compare(a.Name, b.Name))
	})
	out := []*mcp.Root{}
	size := 0
	for _, r := range roots {
		if len(out) > 0 && out[len(out)-1].URI == r.URI {
			continue
		}
		size += len(r.URI) + len(r.Name)
		if len(out) == maxRoots || size > maxRootBytes {
			break
		}
		out = append(out, r)
	}
	return out
}

// rootsNow is the union, for an upstream's roots/list.
func (g *Gateway) rootsNow() []*mcp.Root {
	g.roots.mu.Lock()
	defer g.roots.mu.Unlock()
	out := make([]*mcp.Root, len(g.roots.all))
	for i, r := range g.roots.all {
		c := *r
		out[i] = &c
	}
	return out
}

// answerRoots is a receiving middleware of gate's client to an upstream:
// it answers roots/list with the clients' roots.
func (g *Gateway) answerRoots(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		if method != "roots/list" {
			return next(ctx, method, req)
		}
		g.roots.waitSettled(ctx, rootsSettle)
		return &mcp.ListRootsResult{Roots: g.rootsNow()}, nil
	}
}

// rootsMarker is the one root in the SDK client's own set. The SDK's
// client sends notifications/roots/list_changed only when that set
// changes, and answers roots/list from it; gate answers roots/list itself
// (answerRoots), and adds this root again, which the SDK counts as a
// change, to have the notification sent.
var rootsMarker = &mcp.Root{URI: "gate:roots", Name: "gate"}

// keepRoots sends the upstream of client's session roots/list_changed
// each time the clients' roots change, at most once every rootsEvery (a
// change meanwhile is said once after it), until ctx (the session's)
// ends.
func (u *upstream) keepRoots(ctx context.Context, client *mcp.Client) {
	for {
		select {
		case <-ctx.Done():
			return
		case <-u.rootsKick:
			client.AddRoots(rootsMarker)
		}
		if !sleepUntil(ctx, time.Now().Add(rootsEvery)) {
			return
		}
	}
}

// sleepUntil waits until t, and reports false if ctx ended first.
func sleepUntil(ctx context.Context, t time.Time) bool {
	timer := time.NewTimer(time.Until(t))
	defer timer.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-timer.C:
		return true
	}
}

// kickUpstreams sends on the channel kick picks of every upstream,
// without blocking: each has a capacity of one, and a send already
// waiting covers this one.
func (g *Gateway) kickUpstreams(kick func(*upstream) chan struct{}) {
	g.upsMu.Lock()
	defer g.upsMu.Unlock()
	for _, u := range g.ups {
		select {
		case kick(u) <- struct{}{}:
		default:
		}
	}
}

// askAgainOnStream asks cs for its roots once more if it has not answered
// an ask yet: its standalone stream has just opened, and an ask made
// before it had nowhere to go (the SDK holds it, unsent, until it times
// out). The ask under way, if any, is ended, and the next one goes on
// the new stream.
func (g *Gateway) askAgainOnStream(cs *clientSession) {
	r := &cs.roots
	r.mu.Lock()
	answered := r.answered
	r.mu.Unlock()
	if answered {
		return
	}
	g.fetchRoots(cs.ss) // while one is under way: one more after it
	r.mu.Lock()
	if r.cancel != nil {
		r.cancel()
	}
	r.mu.Unlock()
}
