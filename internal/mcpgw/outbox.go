package mcpgw

import (
	"context"
	"fmt"
	"hash/maphash"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Every notification the gateway sends a client (list_changed, resource
// updates, forwarded progress, whoever sends it: the gateway or the SDK's
// own debounce timer) goes through the sending middleware queueNotifications
// into that session's outbox and returns at once. One goroutine per
// session, while it has something to send, writes them in order; a client
// that stops reading blocks only its own goroutine, until a write misses
// the write timeout and the session is dropped. Without this, one stalled
// session held the upstream's single notification goroutine (forwarded
// progress) and the SDK's one loop over every session (list_changed).
//
// An outbox holds at most Config.WithSessionQueue messages. What one more
// would say is often said already: a list_changed of a kind, or an update
// of a resource, that is queued and not yet written is not queued again;
// progress of a call whose newer progress is queued replaces that when
// the outbox is full (the client then sees fewer steps, never one out of
// order). An upstream's log message is let go rather than a session: one
// that finds the outbox full is dropped, and any other message that finds
// it full takes the place of the oldest log message queued, if one is.
// Anything else past the bound drops the session, as a /v1/events stream
// that falls behind is dropped.

// outMsg is one notification waiting for its session, or a flush marker.
type outMsg struct {
	ctx    context.Context
	method string
	req    mcp.Request
	send   mcp.MethodHandler // the SDK's sending handler, under the middleware
	key    string            // what it may be coalesced with; "" for none
	done   chan struct{}     // a flush marker: closed when the writer reaches it
}

type outbox struct {
	mu      sync.Mutex
	queue   []*outMsg
	latest  map[string]*outMsg // the newest queued message of each key
	running bool               // a goroutine is writing the queue
	closed  bool               // the session is gone or dropped
	logs    int                // log messages queued
	shed    int                // log messages dropped since shedCount
}

// coalesceKey is the key of a notification: progress by the client's
// token, list_changed by kind, a resource update by URI. A token is the
// client's, of any length its request could hold: the key has a hash of
// it, not a copy for each notification waiting.
func coalesceKey(method string, req mcp.Request) string {
	switch p := req.GetParams().(type) {
	case *mcp.ProgressNotificationParams:
		return fmt.Sprintf("%s\x00%x", method, tokenHash(p.ProgressToken))
	case *mcp.ResourceUpdatedNotificationParams:
		return method + "\x00" + p.URI
	}
	if strings.HasSuffix(method, "/list_changed") {
		return method
	}
	return ""
}

// tokenSeed keys tokenHash for the life of the process.
var tokenSeed = maphash.MakeSeed()

// tokenHash tells progress tokens apart: a string from a number of the same
// digits, and strings by their bytes, without copying them.
func tokenHash(tok any) uint64 {
	var h maphash.Hash
	h.SetSeed(tokenSeed)
	if s, ok := tok.(string); ok {
		_, _ = h.WriteString("s")
		_, _ = h.WriteString(s)
	} else {
		_, _ = fmt.Fprintf(&h, "%T\x00%v", tok, tok)
	}
	return h.Sum64()
}

// alwaysCoalesced says whether a queued message of the key says all a new
// one would: true for all but progress, whose every step counts while the
// outbox has room.
func alwaysCoalesced(method string) bool { return method != "notifications/progress" }

// put queues m. accepted is false when the outbox is full and m can be
// neither coalesced nor dropped: the session must be dropped. start says
// the caller must start the writer.
func (o *outbox) put(m *outMsg, max int) (accepted, start bool) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.closed {
		if m.done != nil {
			close(m.done)
		}
		return true, false
	}
	if m.key != "" {
		if old := o.latest[m.key]; old != nil {
			if alwaysCoalesced(m.method) {
				return true, false
			}
			if len(o.queue) >= max {
				old.ctx, old.req = m.ctx, m.req
				return true, false
			}
		}
	}
	if len(o.queue) >= max && m.done == nil {
		switch {
		case m.method == methodLog:
			o.shed++ // the newest log message is let go
			return true, false
		case !o.shedLog():
			return false, false
		}
	}
	o.queue = append(o.queue, m)
	o.logs += boolInt(m.method == methodLog)
	if m.key != "" {
		if o.latest == nil {
			o.latest = map[string]*outMsg{}
		}
		o.latest[m.key] = m
	}
	start = !o.running
	o.running = true
	return true, start
}

// take returns the next message, or nil (and stops the writer) when the
// queue is empty.
func (o *outbox) take() *outMsg {
	o.mu.Lock()
	defer o.mu.Unlock()
	if len(o.queue) == 0 || o.closed {
		o.running = false
		o.queue = nil
		return nil
	}
	m := o.queue[0]
	o.queue[0] = nil
	o.queue = o.queue[1:]
	if m.key != "" && o.latest[m.key] == m {
		delete(o.latest, m.key)
	}
	o.logs -= boolInt(m.method == methodLog)
	return m
}

// shedLog drops the oldest log message queued, to make room; false when
// none is.
func (o *outbox) shedLog() bool {
	if o.logs == 0 {
		return false
	}
	i := slices.IndexFunc(o.queue, func(m *outMsg) bool { return m.method == methodLog })
	o.queue = slices.Delete(o.queue, i, i+1)
	o.logs--
	o.shed++
	return true
}

// shedCount returns the log messages dropped since it was last called.
func (o *outbox) shedCount() int {
	o.mu.Lock()
	defer o.mu.Unlock()
	n := o.shed
	o.shed = 0
	return n
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// write sends what is queued, in order, until the queue is empty.
func (o *outbox) write() {
	for m := o.take(); m != nil; m = o.take() {
		if m.done != nil {
			close(m.done)
			continue
		}
		_, _ = m.send(m.ctx, m.method, m.req)
	}
}

// close drops what is queued; flush markers are released.
func (o *outbox) close() {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.closed = true
	for _, m := range o.queue {
		if m != nil && m.done != nil {
			close(m.done)
		}
	}
	o.queue, o.latest, o.logs = nil, nil, 0
}

// queueNotifications is the server's sending middleware: notifications go
// to their session's outbox; requests (none of which the gateway sends
// clients) go out as they come.
func (g *Gateway) queueNotifications(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		ss, ok := req.GetSession().(*mcp.ServerSession)
		if !ok || !strings.HasPrefix(method, "notifications/") {
			return next(ctx, method, req)
		}
		if method == "notifications/tools/list_changed" && g.bursting.Load() > 0 {
			// The SDK's timer fired in the middle of a change of its tool
			// set: the change is not made yet, and applyToSDK makes sure
			// a notification follows it.
			g.heldListChanged.Store(true)
			return nil, nil
		}
		cs := g.client(ss)
		m := &outMsg{ctx: context.WithoutCancel(ctx), method: method, req: req, send: next, key: coalesceKey(method, req)}
		if method == "notifications/tools/list_changed" && g.cfg.listChangedInterval > 0 {
			g.listChanged.hold(g, cs, m)
			return nil, nil
		}
		g.enqueue(cs, m)
		return nil, nil
	}
}

// enqueue puts m in cs's outbox, and starts its writer if it is idle; a
// session whose outbox is full is dropped.
func (g *Gateway) enqueue(cs *clientSession, m *outMsg) {
	accepted, start := cs.out.put(m, g.cfg.sessionQueue)
	if n := cs.out.shedCount(); n > 0 {
		g.sessionMetrics.logsDropped(n)
	}
	if !accepted {
		g.drop(cs, dropOverflow, fmt.Sprintf("it fell behind by %d notifications", g.cfg.sessionQueue))
		return
	}
	if start {
		go cs.out.write()
	}
}

// flush waits until what ss's outbox holds now is written, or bound or
// ctx ends.
func (g *Gateway) flush(ctx context.Context, ss *mcp.ServerSession, bound time.Duration) {
	cs := g.find(ss)
	if cs == nil {
		return
	}
	m := &outMsg{done: make(chan struct{})}
	if _, start := cs.out.put(m, g.cfg.sessionQueue); start {
		go cs.out.write()
	}
	t := time.NewTimer(bound)
	defer t.Stop()
	select {
	case <-m.done:
	case <-t.C:
	case <-ctx.Done():
	}
}
