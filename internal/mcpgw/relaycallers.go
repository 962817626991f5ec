package mcpgw

import (
	"context"
	"sync"
	"time"

	"github.com/gate-dev/gate/internal/uplink"
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
// ctx, and returns the context to send it in: over streamable HTTP, the
// upstream's requests on its POST's event stream are tied to it
// (uplink.WithCall). The func returned removes it, and ends the requests
// relayed to ss once it has no call in flight on the upstream.
func (r *relayCallers) enter(ctx context.Context, ss *mcp.ServerSession) (context.Context, func()) {
	if ss == nil {
		return ctx, func() {}
	}
	c := &relayCall{ss: ss, ctx: ctx}
	r.mu.Lock()
	if r.calls == nil {
		r.calls, r.open, r.relays = map[*relayCall]struct{}{}, map[*mcp.ServerSession]int{}, map[*mcp.ServerSession]map[*relayWait]struct{}{}
	}
	r.calls[c] = struct{}{}
	r.open[ss]++
	r.mu.Unlock()
	return uplink.WithCall(ctx, c), func() {
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

// What relayFor found: the sessions it counted, or that the call the
// request came with has ended.
const (
	noCaller       = 0
	oneCaller      = 1
	severalCallers = 2
	callerEnded    = 3
)

// tiedKey is the context key of the call an upstream's request came with
// (tiedTo).
type tiedKey struct{}

// tiedTo returns ctx, the context of one of the upstream's requests,
// carrying the call it came with (nil when that call's stream has ended),
// when it was tied to one: meta, the request's _meta, holds the token of
// that call's stream (uplink.Ties.Of), which is taken out of it.
func (u *upstream) tiedTo(ctx context.Context, meta map[string]any) context.Context {
	call, tied := u.ties.Of(meta)
	if !tied {
		return ctx
	}
	c, _ := call.(*relayCall)
	return context.WithValue(ctx, tiedKey{}, c)
}

// relayFor is the client session an upstream's request for input is for,
// and the context to relay it in.
//
// A request tied to the call it came with (tiedTo: over streamable HTTP,
// on that call's POST's event stream) goes to that call's session, within
// that call: it ends when the call ends, or when the upstream cancels it
// (ctx); it goes nowhere once that call has ended (callerEnded).
//
// An untied one goes to a session when the requests in flight on the
// upstream are all that session's (sessions counts the sessions, 0, 1 or
// 2 for more). It does not say which of that session's calls it is for,
// so it lasts as long as any of them may: it ends when the last of them
// ends, at the latest of their deadlines (each within its call_timeout),
// or when the upstream cancels it (ctx). It goes to the client within the
// call of that deadline: over /mcp, on that POST's event stream.
func (r *relayCallers) relayFor(ctx context.Context) (ss *mcp.ServerSession, rctx context.Context, done func(), sessions int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if c, tied := ctx.Value(tiedKey{}).(*relayCall); tied {
		if _, live := r.calls[c]; c == nil || !live {
			return nil, nil, nil, callerEnded
		}
		rctx, cancel := context.WithCancel(c.ctx)
		stop := context.AfterFunc(ctx, cancel)
		return c.ss, rctx, func() {
			stop()
			cancel()
		}, oneCaller
	}
	var latest *relayCall
	var until time.Time
	for c := range r.calls {
		if ss != nil && c.ss != ss {
			return nil, nil, nil, severalCallers
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
		return nil, nil, nil, noCaller
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
	}, oneCaller
}
