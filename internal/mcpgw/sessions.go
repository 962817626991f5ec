package mcpgw

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The gateway keeps, for each client session it has something to do
// with, what it must be able to end when the session is dropped or the
// gateway shuts down: the notifications waiting for it (outbox), the
// calls it forwards for it, and the HTTP responses open on it. A session
// is dropped when it overflows its outbox or a write to it misses the
// write timeout; dropping one cancels its calls, fails its writes at once
// and closes it, and touches no other session.

var (
	// errShuttingDown is the cause of the calls CloseSessionsContext
	// cancels.
	errShuttingDown = errors.New("gate is shutting down")
	// errSessionDropped is the cause of the calls of a dropped session.
	errSessionDropped = errors.New("the session was dropped")
)

// Reasons a session is dropped, as gate_mcp_sessions_dropped_total counts
// them.
const (
	dropOverflow     = "overflow"      // its outbox was full
	dropWriteTimeout = "write_timeout" // a write to it missed the write timeout
)

// clientTable is every clientSession, and the sessions being opened.
type clientTable struct {
	mu       sync.Mutex
	sessions map[*mcp.ServerSession]*clientSession
	opening  map[*opening]struct{} // sessionless POSTs being served: each may open one
	closing  bool                  // CloseSessionsContext has begun
}

// clientSession is the gateway's state of one client session.
type clientSession struct {
	ss  *mcp.ServerSession
	out outbox

	changed chan struct{} // cap 1: a call or a request ended

	mu       sync.Mutex // guards what follows
	calls    map[*inflightCall]struct{}
	writers  map[*deadlineWriter]struct{}
	ended    bool // dropped, closed, or abandoned at shutdown
	requests int  // requests of the session being handled (limitRequests)
	inputs   int  // upstreams' requests for input out to it (relay.go)
	// logLevel is what the client's logging/setLevel asked for; "" for
	// nothing yet (logging.go).
	//lint:ignore SA1019 MCP deprecates logging as of 2026-07-28 (SEP-2577); clients and servers of the earlier versions gate speaks use it
	logLevel mcp.LoggingLevel
	// listens are the client's open subscriptions/listen that asked
	// for log messages (listen.go).
	listens map[*listenLog]struct{}
	// roots are the client's roots, as gate last asked for them
	// (roots.go).
	roots clientRoots
	// protocolNoted: its protocol version is logged (protocollog.go).
	protocolNoted atomic.Bool
}

// inflightCall is a forwarded call being served.
type inflightCall struct {
	cancel context.CancelCauseFunc
}

// client returns ss's state, made on first use; it is forgotten when the
// session ends.
func (g *Gateway) client(ss *mcp.ServerSession) *clientSession {
	t := &g.clients
	t.mu.Lock()
	defer t.mu.Unlock()
	if cs := t.sessions[ss]; cs != nil {
		return cs
	}
	if t.sessions == nil {
		t.sessions = map[*mcp.ServerSession]*clientSession{}
	}
	cs := &clientSession{ss: ss, changed: make(chan struct{}, 1), calls: map[*inflightCall]struct{}{}, writers: map[*deadlineWriter]struct{}{}}
	t.sessions[ss] = cs
	go func() {
		_ = ss.Wait()
		t.mu.Lock()
		delete(t.sessions, ss)
		t.mu.Unlock()
		// Closed: its streams end with it, and what is queued for it can
		// go nowhere.
		cs.end(errSessionDropped, false)
		g.updateLogLevel()
		g.updateRoots()
	}()
	return cs
}

// find returns ss's state if it has any.
func (g *Gateway) find(ss *mcp.ServerSession) *clientSession {
	g.clients.mu.Lock()
	defer g.clients.mu.Unlock()
	return g.clients.sessions[ss]
}

// clientByID returns the state of the open session whose Mcp-Session-Id
// is id, or nil.
func (g *Gateway) clientByID(id string) *clientSession {
	if id == "" {
		return nil
	}
	for ss := range g.server.Sessions() {
		if ss.ID() == id {
			return g.client(ss)
		}
	}
	return nil
}

// track registers a forwarded call of ss: the returned context is ctx,
// cancelled with errShuttingDown or errSessionDropped when either
// happens; done unregisters it.
func (g *Gateway) track(ctx context.Context, ss *mcp.ServerSession) (context.Context, func()) {
	ctx, cancel := context.WithCancelCause(ctx)
	if ss == nil {
		return ctx, func() { cancel(nil) }
	}
	if isParked(ctx) {
		// A parked call outlives its POST's session: gate's shutdown ends
		// it (parkedCalls.endAll, or here once shutdown has begun).
		g.clients.mu.Lock()
		if g.clients.closing {
			cancel(errShuttingDown)
		}
		g.clients.mu.Unlock()
		return ctx, func() { cancel(nil) }
	}
	cs := g.client(ss)
	call := &inflightCall{cancel: cancel}
	g.clients.mu.Lock()
	closing := g.clients.closing
	cs.mu.Lock()
	switch {
	case closing:
		cancel(errShuttingDown)
	case cs.ended:
		cancel(errSessionDropped)
	default:
		cs.calls[call] = struct{}{}
	}
	cs.mu.Unlock()
	g.clients.mu.Unlock()
	return ctx, func() {
		cs.mu.Lock()
		delete(cs.calls, call)
		cs.mu.Unlock()
		cs.poke()
		cancel(nil)
	}
}

// limitRequests is the server's outermost receiving middleware: it
// answers a request of a session that already has the cap of requests
// being handled with an error that says so, at once. The SDK handles each
// request of a session on a goroutine of its own, without bound, so that a
// client could otherwise make gate hold as many forwarded calls (and
// their upstream connections) and skill reads as it sends requests.
func (g *Gateway) limitRequests(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		ss, ok := req.GetSession().(*mcp.ServerSession)
		if !ok || strings.HasPrefix(method, "notifications/") {
			return next(ctx, method, req)
		}
		cs := g.client(ss)
		cs.mu.Lock()
		busy := cs.requests >= g.cfg.maxSessionRequests
		if !busy {
			cs.requests++
		}
		cs.mu.Unlock()
		if busy {
			if method == "tools/call" {
				g.metrics.call("", "", OutcomeBusy, 0)
			}
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: fmt.Sprintf("gate: this session has %d requests being handled, the gateway's cap; send more once they are answered", g.cfg.maxSessionRequests)}
		}
		defer func() {
			cs.mu.Lock()
			cs.requests--
			cs.mu.Unlock()
		}()
		return next(ctx, method, req)
	}
}

// cancels returns the cancel functions of cs's calls in flight.
func (cs *clientSession) cancels() []context.CancelCauseFunc {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	out := make([]context.CancelCauseFunc, 0, len(cs.calls))
	for c := range cs.calls {
		out = append(out, c.cancel)
	}
	return out
}

// poke tells a CloseSessionsContext waiting for cs's requests that one ended.
func (cs *clientSession) poke() {
	select {
	case cs.changed <- struct{}{}:
	default:
	}
}

// busy reports whether cs has forwarded calls in flight, or requests
// (POSTs) whose answer is not written yet.
func (cs *clientSession) busy() bool {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	if len(cs.calls) > 0 {
		return true
	}
	for w := range cs.writers {
		if w.request {
			return true
		}
	}
	return false
}

// end cancels the session's calls with cause, drops its outbox and, if
// fail, fails its writes at once. It returns false if the session was
// ended already.
func (cs *clientSession) end(cause error, fail bool) bool {
	cs.mu.Lock()
	if cs.ended {
		cs.mu.Unlock()
		return false
	}
	cs.ended = true
	cs.roots.stop()
	calls, writers := cs.calls, cs.writers
	cs.calls, cs.writers = map[*inflightCall]struct{}{}, map[*deadlineWriter]struct{}{}
	cs.mu.Unlock()
	for c := range calls {
		c.cancel(cause)
	}
	if fail {
		for w := range writers {
			w.expire()
		}
	}
	cs.out.close()
	return true
}

// drop ends cs and closes its session, once, and says why in the log.
func (g *Gateway) drop(cs *clientSession, reason, why string) {
	if !cs.end(errSessionDropped, true) {
		return
	}
	g.sessionMetrics.dropped(reason)
	g.logf("MCP session %s dropped: %s", shortID(cs.ss.ID()), why)
	// Close waits for the session's handlers, which end now that their
	// calls are cancelled and their writes fail.
	go func() { _ = cs.ss.Close() }()
}

// shortID is enough of a session ID to tell sessions apart in a log,
// without writing out what authenticates requests of the session.
func shortID(id string) string {
	if len(id) > 8 {
		return id[:8] + "…"
	}
	return id
}

// addWriter ties an open HTTP response to cs, so that dropping the session
// fails its writes; the returned function unties it.
func (cs *clientSession) addWriter(w *deadlineWriter) func() {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	if cs.ended {
		w.expire()
		return func() {}
	}
	cs.writers[w] = struct{}{}
	return func() {
		cs.mu.Lock()
		delete(cs.writers, w)
		cs.mu.Unlock()
		cs.poke()
	}
}

// CloseSessionsContext ends the gateway's service to clients: new sessions and calls
// are refused, every forwarded call in flight is cancelled and answered
// with an error that says gate is shutting down, and once those answers
// are written every session is closed (its streams end). It returns when
// all are closed, or when ctx is done: then every write still open on
// /mcp fails at once, so that an HTTP server's Shutdown or Close is not
// kept waiting by a client that does not read. Run keeps the upstreams
// until its own context ends.
func (g *Gateway) CloseSessionsContext(ctx context.Context) error {
	g.Shutdown()
	var all []*clientSession
	for ss := range g.server.Sessions() {
		all = append(all, g.client(ss))
	}
	// The SDK writes no answer once a session is closing: the answers
	// to the cancelled calls go out first.
	for _, cs := range all {
		for cs.busy() {
			select {
			case <-cs.changed:
			case <-ctx.Done():
				return g.abandon(ctx)
			}
		}
	}
	var wg sync.WaitGroup
	for _, cs := range all {
		wg.Go(func() { _ = cs.ss.Close() })
	}
	closed := make(chan struct{})
	go func() {
		wg.Wait()
		close(closed)
	}()
	select {
	case <-closed:
		return nil
	case <-ctx.Done():
		return g.abandon(ctx)
	}
}

// abandon ends every session's calls and writes at once, when CloseSessionsContext
// runs out of time.
func (g *Gateway) abandon(ctx context.Context) error {
	t := &g.clients
	t.mu.Lock()
	all := make([]*clientSession, 0, len(t.sessions))
	for _, cs := range t.sessions {
		all = append(all, cs)
	}
	t.mu.Unlock()
	for _, cs := range all {
		cs.end(errShuttingDown, true)
		go func() { _ = cs.ss.Close() }()
	}
	return ctx.Err()
}
