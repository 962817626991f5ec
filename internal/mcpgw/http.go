package mcpgw

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"sync/atomic"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Handler returns the gateway as a streamable-HTTP MCP endpoint (gatectl
// serve mounts it at /mcp, behind its token and Host checks). It bounds
// what a client can make it hold: a request body over WithMaxRequestBytes
// is refused with 413, one that does not arrive within
// WithRequestBodyTimeout with 408, one that would take its peer's bodies
// past their share of WithRequestBodyBudget with 429 and all of them past
// the budget with 503, and a JSON-RPC batch of more messages than
// WithMaxSessionRequests with 400; a request that could open a session (a
// POST without Mcp-Session-Id, whatever its body) is refused with 503 while
// WithMaxSessions sessions are open or being opened; an idle session is
// closed after WithSessionIdle; every write to a client must complete
// within WithWriteTimeout, else its session is dropped; requests arriving
// on a loopback address must name a loopback Host (the SDK's DNS-rebinding
// check, unless WithAnyHost), and cross-origin browser requests are
// refused. With WithStateless, a POST without Mcp-Session-Id that names
// MCP 2026-07-28 goes to a handler that keeps no sessions (stateless.go),
// under the same bounds: it holds a slot of the session cap while it is
// served, and a write to it that misses the write timeout drops it alone.
func (g *Gateway) Handler() http.Handler {
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return g.server }, &mcp.StreamableHTTPOptions{
		SessionTimeout:             g.cfg.sessionIdle,
		MaxRequestBodyBytes:        int64(g.cfg.maxRequest), // read first by readBody
		DisableLocalhostProtection: g.cfg.anyHost,
	})
	protected := http.NewCrossOriginProtection().Handler(h)
	stateless := g.statelessHandler()
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// A response on /mcp may be a stream that lasts as long as a
		// session (the standalone GET, a subscriptions/listen) or a call
		// (a POST answered as events), far past an HTTP server's write
		// timeout: each write gets a deadline of its own. (Go's server
		// lifts the read deadline once the body is read.)
		id := r.Header.Get("Mcp-Session-Id")
		var opened atomic.Pointer[opening] // the sessionless POST's, once admitted
		dw := newDeadlineWriter(w, g.cfg.writeTimeout, r.Method == http.MethodPost, func() {
			sid := id
			if sid == "" {
				sid = w.Header().Get("Mcp-Session-Id")
			}
			cs := g.clientByID(sid)
			if op := opened.Load(); cs == nil && op != nil {
				if ss := op.session.Load(); ss != nil {
					cs = g.find(ss)
				}
			}
			if cs != nil {
				g.drop(cs, dropWriteTimeout, fmt.Sprintf("a write to it did not complete within %v", g.cfg.writeTimeout))
			}
		})
		if cs := g.clientByID(id); cs != nil {
			defer cs.addWriter(dw)()
			switch r.Method {
			case http.MethodDelete:
				// The SDK closes the session once no request of gate's
				// to the client is in flight: end the roots ask now.
				cs.roots.stop()
			case http.MethodGet:
				dw.opened = func() { g.askAgainOnStream(cs) }
			}
		}
		if r.Method == http.MethodPost {
			release, ok := g.readBody(w, r)
			if !ok {
				return
			}
			defer release()
		}
		if r.Method != http.MethodPost || id != "" {
			protected.ServeHTTP(dw, r)
			return
		}
		next, kind := protected, statelessKind{}
		if g.cfg.stateless {
			kind = g.routeBody(r)
		}
		if kind.stateless {
			next = stateless
			// A listen is a stream, which CloseSessionsContext ends
			// rather than waits for.
			dw.request = !kind.listen
		}
		op, release, ok := g.admit()
		if !ok {
			w.Header().Set("Retry-After", "5")
			http.Error(w, "gate: too many MCP sessions are open, or gate is shutting down; try again later", http.StatusServiceUnavailable)
			return
		}
		defer release()
		if kind.stateless {
			op.writer = &statelessWriter{w: dw}
			defer op.writer.finish()
		}
		opened.Store(op)
		next.ServeHTTP(dw, r.WithContext(context.WithValue(r.Context(), openingKey{}, op)))
		g.settle(op, w.Header().Get("Mcp-Session-Id"))
	})
}

// batchLen is how many messages body holds: 1 unless it is a JSON array,
// whose elements are counted up to one past most. A malformed body is
// left to the SDK to refuse.
func batchLen(body io.Reader, most int) int {
	dec := json.NewDecoder(body)
	if t, err := dec.Token(); err != nil || t != json.Delim('[') {
		return 1
	}
	n := 0
	for n <= most && dec.More() {
		var skip json.RawMessage
		if dec.Decode(&skip) != nil {
			break
		}
		n++
	}
	return n
}

// The session cap is decided by what the SDK does, not by a reading of
// the body: the SDK makes a session for every POST without Mcp-Session-Id
// and keeps it if the POST initialized it (an initialize, alone or in a
// batch, in whatever spelling its decoder takes; a server/discover). So
// every such POST takes a slot while it is served, and is refused while
// the sessions the SDK keeps and the POSTs being served reach the cap: the
// SDK can never hold more.

// admit takes a slot for a POST that may open a session; release gives
// it back once the POST is served, when the session it opened, if any,
// is counted among the open ones.
func (g *Gateway) admit() (op *opening, release func(), ok bool) {
	t := &g.clients
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.closing || g.counted() >= g.cfg.maxSessions {
		g.sessionMetrics.refused()
		return nil, nil, false
	}
	op = &opening{}
	if t.opening == nil {
		t.opening = map[*opening]struct{}{}
	}
	t.opening[op] = struct{}{}
	return op, func() {
		t.mu.Lock()
		delete(t.opening, op)
		t.mu.Unlock()
	}, true
}

// counted is what the cap bounds, under g.clients.mu: the sessions that
// are initialized and still open, and the sessionless POSTs being served
// that have not (yet) opened one of them. A POST whose session is
// initialized counts once, as that session: counted as both, a burst of
// initializes filled the cap with half as many sessions and refused
// the rest. The sessions are listed before the POSTs are looked at, so a
// session initialized in between counts as its POST, still once.
func (g *Gateway) counted() int {
	open := map[*mcp.ServerSession]bool{}
	for ss := range g.server.Sessions() {
		if ss.InitializeParams() != nil {
			open[ss] = true
		}
	}
	n := len(open)
	for op := range g.clients.opening {
		if ss := op.session.Load(); ss == nil || !open[ss] {
			n++
		}
	}
	return n
}

// sessions counts the sessions that are initialized and still open: the
// state a client can make the server keep.
func (g *Gateway) sessions() int {
	n := 0
	for ss := range g.server.Sessions() {
		if ss.InitializeParams() != nil {
			n++
		}
	}
	return n
}

// opening is the session a sessionless POST made, if the SDK made one: the
// SDK hands the POST's context to the session it opens, so every request
// of that session carries it, and noteOpening records the session.
type opening struct {
	session atomic.Pointer[mcp.ServerSession]
	// writer, for a stateless POST, is its response, tied to the
	// session once it is known (stateless.go).
	writer *statelessWriter
}

type openingKey struct{}

// noteOpening is the server's receiving middleware that ties a new
// session to the POST that opened it.
func (g *Gateway) noteOpening(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		if op, ok := ctx.Value(openingKey{}).(*opening); ok {
			if ss, ok := req.GetSession().(*mcp.ServerSession); ok {
				if op.session.CompareAndSwap(nil, ss) && op.writer != nil {
					op.writer.tie(g.client(ss))
				}
			}
		}
		return next(ctx, method, req)
	}
}

// settle closes a session the SDK opened and keeps but whose ID it did not
// give the client (a server/discover on a stateful server initializes its
// session and answers without Mcp-Session-Id): nobody can use it, and it
// would hold a slot of the cap until it idled out.
func (g *Gateway) settle(op *opening, announced string) {
	ss := op.session.Load()
	if ss == nil || ss.InitializeParams() == nil || ss.ID() == announced {
		return
	}
	_ = ss.Close()
}
