package mcpgw

import (
	"context"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// A forwarded call's progress goes to the client on the call's own
// stream, before its result: the client's outbox writes it with the
// call's context, which tells the SDK's streamable transport which
// request it belongs to (without it, the SDK sends it on the session's
// standalone stream, which a client need not open).
//
// The SDK's client handles an upstream's notifications on one goroutine
// and its answers on another, so progress the upstream sent before its
// result can be handled after the result is back. The gateway counts the
// progress notifications it reads from each upstream (countProgress), and
// a call's result waits, up to progressCatchUp, until every one read
// before it has been handed to the client's outbox, then until the outbox
// has written them.

// progressCatchUp bounds how long a result waits for its call's progress
// to be handled and written; past it the result goes out, and progress
// still to come goes to the session's standalone stream, if it has one.
const progressCatchUp = 5 * time.Second

// progressRoute is where an upstream's progress for one forwarded call
// goes: the client's session, under the client's own token.
type progressRoute struct {
	session *mcp.ServerSession
	token   any
	call    *callProgress
}

// callProgress is the progress of one forwarded call.
type callProgress struct {
	// ctx is the call's context without its cancellation: progress sent
	// with it goes to the call's stream, and is still written when the
	// call has just been cancelled.
	ctx     context.Context
	read    atomic.Int64  // notifications read from the upstream for it
	handled atomic.Int64  // of those, handed to the client's outbox
	moved   chan struct{} // cap 1: one more was handled
	ended   atomic.Bool   // the call has its result
}

// context is what progress is sent with: the call's until it has ended,
// then none, so that late progress goes to the standalone stream rather
// than to a stream that is closed.
func (c *callProgress) context() context.Context {
	if c.ended.Load() {
		return context.Background()
	}
	return c.ctx
}

// catchUp waits until every notification read for the call has been
// handled, or until the bound or ctx ends.
func (c *callProgress) catchUp(ctx context.Context, bound time.Duration) {
	if c.handled.Load() >= c.read.Load() {
		return
	}
	t := time.NewTimer(bound)
	defer t.Stop()
	for c.handled.Load() < c.read.Load() {
		select {
		case <-c.moved:
		case <-t.C:
			return
		case <-ctx.Done():
			return
		}
	}
}

// progress forwards an upstream's progress notification to the client
// whose call it belongs to, under the client's own token. It runs on the
// upstream's one notification goroutine, so it only queues (see outbox).
func (u *upstream) progress(_ context.Context, req *mcp.ProgressNotificationClientRequest) {
	tk, ok := req.Params.ProgressToken.(string)
	if !ok {
		return
	}
	u.mu.Lock()
	r, ok := u.routes[tk]
	u.mu.Unlock()
	if !ok {
		return
	}
	// What a client is told of progress: the step, the total and the
	// message, cleaned and capped. The upstream's _meta is not passed on:
	// it is unbounded (up to an upstream's message cap, each
	// notification), and would wait, copy after copy, in the queue of a
	// client that reads slowly.
	p := &mcp.ProgressNotificationParams{
		ProgressToken: r.token,
		Progress:      req.Params.Progress,
		Total:         req.Params.Total,
		Message:       cleanMessage(req.Params.Message),
	}
	_ = r.session.NotifyProgress(r.call.context(), p)
	r.call.handled.Add(1)
	select {
	case r.call.moved <- struct{}{}:
	default:
	}
}

// sawProgress counts a progress notification read from the upstream for
// the route of token tk, if it has one.
func (u *upstream) sawProgress(tk string) {
	u.mu.Lock()
	r, ok := u.routes[tk]
	u.mu.Unlock()
	if ok {
		r.call.read.Add(1)
	}
}

// route registers a progress token for a forwarded call of ss, whose
// handler runs with ctx; the returned function ends it.
func (u *upstream) route(ctx context.Context, ss *mcp.ServerSession, token any) (string, *callProgress, func()) {
	call := &callProgress{ctx: context.WithoutCancel(ctx), moved: make(chan struct{}, 1)}
	u.mu.Lock()
	defer u.mu.Unlock()
	u.nextTk++
	tk := progressTokenPrefix(u.id) + strconv.FormatUint(u.nextTk, 10)
	u.routes[tk] = progressRoute{ss, token, call}
	return tk, call, func() {
		call.ended.Store(true)
		// Progress handled after catchUp gave up still reaches the
		// client, on its standalone stream, for a moment.
		time.AfterFunc(progressLinger, func() {
			u.mu.Lock()
			delete(u.routes, tk)
			u.mu.Unlock()
		})
	}
}

// progressTokenPrefix is what every progress token gate sends upstream u
// starts with; a number follows.
func progressTokenPrefix(upstreamID uint64) string {
	return "gate-" + strconv.FormatUint(upstreamID, 10) + "-"
}

// progressLinger is how long a call's progress route outlives the call.
const progressLinger = 250 * time.Millisecond
