package mcpgw

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	segjson "github.com/segmentio/encoding/json"
)

// MCP 2026-07-28 is stateless: a client sends no initialize and gets no
// session; each request carries its protocol version (the
// MCP-Protocol-Version header and its params' _meta) and the client's
// capabilities, server/discover replaces initialize, and
// subscriptions/listen (one long POST) replaces the standalone GET stream
// and resources/subscribe. The SDK serves it over streamable HTTP only
// from a handler that keeps no sessions, so /mcp has two over the one
// server: a POST without Mcp-Session-Id that names a 2026-07-28 (or
// later) version goes to the stateless one, everything else to the one
// that keeps the older versions' sessions. Both reach the same server,
// its middleware and the gateway's state: the stateless handler connects
// a session of its own for each POST, which ends with it.

// firstStatelessVersion is the first protocol version whose requests
// carry their version, served without sessions.
const firstStatelessVersion = "2026-07-28"

// methodListen is the 2026-07-28 request that holds a stream of
// notifications open for as long as the client keeps it.
const methodListen = "subscriptions/listen"

// statelessKind is what a sessionless POST is, as routeStateless reads it.
type statelessKind struct {
	stateless bool // served by the stateless handler
	listen    bool // a subscriptions/listen: a stream, not a request
}

// routeBody decides where a POST without Mcp-Session-Id goes: to the
// stateless handler when its MCP-Protocol-Version header names
// firstStatelessVersion or later, or a call of its body names one in
// params._meta (the SDK then answers that the header is missing or
// differs, as the protocol asks). Versions are compared as the SDK
// compares them, as strings: each is a date. A body that is not JSON-RPC
// goes to the stateful handler, which refuses it as before.
func (g *Gateway) routeBody(r *http.Request) statelessKind {
	// The body is in memory (readBody), charged to the body budget
	// until the POST is served; this holds it in one buffer instead.
	data, err := io.ReadAll(r.Body)
	r.Body = io.NopCloser(bytes.NewReader(data))
	if err != nil {
		return statelessKind{}
	}
	return routeStateless(r.Header.Get("MCP-Protocol-Version"), data)
}

// routeStateless is routeBody's decision on a POST's header and body.
func routeStateless(header string, body []byte) statelessKind {
	var k statelessKind
	if header >= firstStatelessVersion {
		k.stateless = true
	}
	for _, req := range calls(body) {
		if req.Method == methodListen {
			k.listen = true
		}
		if metaVersion(req.Params) >= firstStatelessVersion {
			k.stateless = true
		}
	}
	return k
}

// calls decodes body as the SDK does, one JSON-RPC message or a batch of
// them (whose length readBody has bounded), and returns its requests;
// nothing when it is not JSON-RPC.
func calls(data []byte) []*jsonrpc.Request {
	raws := []json.RawMessage{data}
	if t := bytes.TrimLeft(data, " \t\r\n"); len(t) > 0 && t[0] == '[' {
		if json.Unmarshal(data, &raws) != nil {
			return nil
		}
	}
	var out []*jsonrpc.Request
	for _, raw := range raws {
		if msg, err := jsonrpc.DecodeMessage(raw); err == nil {
			if req, ok := msg.(*jsonrpc.Request); ok && req.IsCall() {
				out = append(out, req)
			}
		}
	}
	return out
}

// metaVersion is the protocol version params' _meta names, "" for none,
// read as the SDK reads it: with its decoder (segmentio's, struct fields
// matched by case only, so "_META" is not _meta), into its Meta type (a
// _meta given twice is merged, a null one empties it), the value of
// exactly its key, and only a string.
func metaVersion(params json.RawMessage) string {
	var p struct {
		Meta mcp.Meta `json:"_meta"`
	}
	dec := segjson.NewDecoder(bytes.NewReader(params))
	dec.DontMatchCaseInsensitiveStructFields()
	if dec.Decode(&p) != nil {
		return ""
	}
	v, _ := p.Meta[mcp.MetaKeyProtocolVersion].(string)
	return v
}

// statelessHandler is the SDK's handler of the 2026-07-28 requests, over
// the gateway's server. A request's context ends with its POST (the
// client gave up on it, or the gateway dropped it), and a forwarded call
// with it.
func (g *Gateway) statelessHandler() http.Handler {
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return g.server }, &mcp.StreamableHTTPOptions{
		Stateless:                    true,
		MaxRequestBodyBytes:          int64(g.cfg.maxRequest), // read first by readBody
		DisableLocalhostProtection:   g.cfg.anyHost,
		PropagateRequestCancellation: true,
	})
	return http.NewCrossOriginProtection().Handler(h)
}

// statelessWriter ties the response of a stateless POST to the session
// the SDK connects for it, once noteOpening learns it: dropping that
// session (its outbox overflowed) fails the response's writes, as for a
// stream of an older session.
type statelessWriter struct {
	mu    sync.Mutex
	w     *deadlineWriter
	untie func()
	done  bool // the POST is served: tie nothing more
}

// tie ties w to cs, once.
func (s *statelessWriter) tie(cs *clientSession) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.done || s.untie != nil {
		return
	}
	s.untie = cs.addWriter(s.w)
}

// finish unties the response once the POST is served.
func (s *statelessWriter) finish() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.done = true
	if s.untie != nil {
		s.untie()
	}
}
