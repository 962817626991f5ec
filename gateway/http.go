package gateway

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Handler returns the gateway as a streamable-HTTP MCP endpoint (gatectl
// serve mounts it at /mcp, behind its token and Host checks). It bounds
// what a client can make it hold: a request body is read up to
// WithMaxRequestBytes, an initialize that would open a session past
// WithMaxSessions is refused with 503, an idle session is closed after WithSessionIdle, requests arriving
// on a loopback address must name a loopback Host (the SDK's DNS-rebinding
// check, unless WithAnyHost), and cross-origin browser requests are refused.
func (g *Gateway) Handler() http.Handler {
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return g.server }, &mcp.StreamableHTTPOptions{
		SessionTimeout:             g.cfg.sessionIdle,
		MaxRequestBodyBytes:        int64(g.cfg.maxRequest),
		DisableLocalhostProtection: g.cfg.anyHost,
	})
	protected := http.NewCrossOriginProtection().Handler(h)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost && r.Header.Get("Mcp-Session-Id") == "" {
			body, tooLarge := g.peekBody(r)
			if tooLarge {
				http.Error(w, fmt.Sprintf("gate: a request body is at most %d bytes", g.cfg.maxRequest), http.StatusRequestEntityTooLarge)
				return
			}
			if isInitialize(body) && g.sessions() >= g.cfg.maxSessions {
				w.Header().Set("Retry-After", "5")
				http.Error(w, "gate: too many MCP sessions are open; try again later", http.StatusServiceUnavailable)
				return
			}
		}
		// A response on /mcp may be a stream that lasts as long as a
		// session (the standalone GET, a subscriptions/listen) or a call
		// (a POST answered as events), far past an HTTP server's write
		// timeout; it gets a deadline of its own, so a client that stops
		// reading still frees it.
		_ = http.NewResponseController(w).SetWriteDeadline(time.Now().Add(g.cfg.streamDeadline))
		protected.ServeHTTP(w, r)
	})
}

// peekBody reads a request's body, within the cap, and puts it back for
// the SDK to read.
func (g *Gateway) peekBody(r *http.Request) (body []byte, tooLarge bool) {
	if r.Body == nil {
		return nil, false
	}
	b, err := io.ReadAll(io.LimitReader(r.Body, int64(g.cfg.maxRequest)+1))
	if len(b) > g.cfg.maxRequest {
		return nil, true
	}
	if err != nil {
		// Let the SDK meet the same error on what is left.
		r.Body = struct {
			io.Reader
			io.Closer
		}{io.MultiReader(bytes.NewReader(b), r.Body), r.Body}
		return b, false
	}
	r.Body = io.NopCloser(bytes.NewReader(b))
	return b, false
}

// isInitialize reports whether body is an initialize request: the one
// request that makes a session the server keeps between requests (the
// 2026-07-28 protocol's requests are stateless and hold nothing once
// answered, but for a subscriptions/listen stream, which is a request).
func isInitialize(body []byte) bool {
	var m struct {
		Method string `json:"method"`
	}
	return json.Unmarshal(body, &m) == nil && m.Method == "initialize"
}

// sessions counts the sessions that answered initialize and are still
// open: the state a client can make the server keep.
func (g *Gateway) sessions() int {
	n := 0
	for ss := range g.server.Sessions() {
		if ss.InitializeParams() != nil {
			n++
		}
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
