package mcpgw

import (
	"context"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// relayCallers is an upstream's requests in flight on behalf of clients,
// to tie the upstream's requests for input to one client session
// (relay.go).
type relayCallers struct {
	mu    sync.Mutex
	calls map[*relayCall]struct{}
	// open counts each session's calls; relays holds the cancels of the
	// requests relayed to each session, ended when its last call ends.
	open   map[*mcp.ServerSession]int
	relays map[*mcp.ServerSession]map[*relayWait]struct{}
}

// relayCall is one request gate forwarded: the client's session, and the
// context of the forwarded request (the client's request's, within its
// call timeout).
type relayCall struct {
	ss  *mcp.ServerSession
	ctx context.Context
}

type relayWait struct{ cancel context.CancelFunc }

// enter records a forwarded request of ss in flight, whose context is
// ctx; the func returned removes it, and ends the requests relayed to ss
// once it has no call in flight on the upstream.
func (r *relayCallers) enter(ctx context.Context, ss *mcp.ServerSession) func() {
	if ss == nil {
		return func() {}
	}
	c := &relayCall{ss: ss, ctx: ctx}
	r.mu.Lock()
	if r.calls == nil {
		r.calls, r.open, r.relays = map[*relayCall]struct{}{}, map[*mcp.ServerSession]int{}, map[*mcp.ServerSession]map[*relayWait]struct{}{}
	}
	r.calls[c] = struct{}{}
	r.open[ss]++
	r.mu.Unlock()
	return func() {
		r.mu.Lock()
		defer r.mu.Unlock()
		delete(r.calls, c)
		if r.open[ss]--; r.open[ss] > 0 {
			return
		}
		delete(r.open, ss)
		for w := range r.relays[ss] {
			w.cancel()
		}
		delete(r.relays, ss)
	}
}

// relayFor is the client session an upstream's request for input is for,
// and the context to relay it in, when the requests in flight on the
// upstream are all one session's (sessions counts the sessions, 0, 1 or
// 2 for more). A request does not say which of that session's calls it
// is for, so it lasts as long as any of them may: it ends when the last
// of them ends, at the latest of their deadlines (each within its
// call_timeout), or when the upstream cancels it (ctx). It goes to the
// client within the call of that deadline: over /mcp, on that POST's
// event stream.
func (r *relayCallers) relayFor(ctx context.Context) (ss *mcp.ServerSession, rctx context.Context, done func(), sessions int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	var latest *relayCall
	var until time.Time
	for c := range r.calls {
		if ss != nil && c.ss != ss {
			return nil, nil, nil, 2
		}
		ss = c.ss
		d, ok := c.ctx.Deadline()
		if !ok {
			d = time.Now().Add(24 * time.Hour) // no call has none: call_timeout is at most 24h
		}
		if latest == nil || d.After(until) {
			latest, until = c, d
		}
	}
	if latest == nil {
		return nil, nil, nil, 0
	}
	rctx, cancel := context.WithDeadline(context.WithoutCancel(latest.ctx), until)
	stop := context.AfterFunc(ctx, cancel)
	w := &relayWait{cancel: cancel}
	if r.relays[ss] == nil {
		r.relays[ss] = map[*relayWait]struct{}{}
	}
	r.relays[ss][w] = struct{}{}
	return ss, rctx, func() {
		stop()
		cancel()
		r.mu.Lock()
		delete(r.relays[ss], w)
		r.mu.Unlock()
	}, 1
}
