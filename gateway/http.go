package gateway

import (
	"net/http"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Handler returns the gateway as a streamable-HTTP MCP endpoint (gatectl
// serve mounts it at /mcp, behind its token and Host checks). It bounds
// what a client can make it hold: a request body is read up to
// WithMaxRequestBytes, a new session past WithMaxSessions is refused with
// 503, an idle session is closed after WithSessionIdle, requests arriving
// on a loopback address must name a loopback Host (the SDK's DNS-rebinding
// check), and cross-origin browser requests are refused.
func (g *Gateway) Handler() http.Handler {
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return g.server }, &mcp.StreamableHTTPOptions{
		SessionTimeout:      g.cfg.sessionIdle,
		MaxRequestBodyBytes: int64(g.cfg.maxRequest),
	})
	protected := http.NewCrossOriginProtection().Handler(h)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost && r.Header.Get("Mcp-Session-Id") == "" && g.sessions() >= g.cfg.maxSessions {
			w.Header().Set("Retry-After", "5")
			http.Error(w, "gate: too many MCP sessions are open; try again later", http.StatusServiceUnavailable)
			return
		}
		// A response on /mcp may be a stream that lasts as long as a
		// session (the standalone GET) or a call (a POST answered as
		// events), far past an HTTP server's write timeout; it gets a
		// deadline of its own, so a client that stops reading still
		// frees it.
		_ = http.NewResponseController(w).SetWriteDeadline(time.Now().Add(g.cfg.streamDeadline))
		protected.ServeHTTP(w, r)
	})
}

func (g *Gateway) sessions() int {
	n := 0
	for range g.server.Sessions() {
		n++
	}
	return n
}

// CloseSessions closes every open session, so that an HTTP server's
// Shutdown is not kept waiting by streams that never end by themselves
// (register it with http.Server.RegisterOnShutdown).
func (g *Gateway) CloseSessions() {
	for ss := range g.server.Sessions() {
		_ = ss.Close()
	}
}
