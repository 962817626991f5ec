package probes_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"

	"github.com/gate-dev/gate/runtime"
)

// mcpServer serves an MCP server with the given tools over streamable
// HTTP; with auth it wants GOOD_KEY's value as a bearer token. It counts
// the sessions the server saw end.
func mcpServer(t *testing.T, tools []string, auth bool, tlsOn bool) (*httptest.Server, *atomic.Int32) {
	s := mcp.NewServer(&mcp.Implementation{Name: "real", Version: "1"}, nil)
	for _, name := range tools {
		s.AddTool(&mcp.Tool{Name: name, InputSchema: map[string]any{"type": "object"}},
			func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "ok"}}}, nil
			})
	}
	var deleted atomic.Int32
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, nil)
	wrapped := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if auth && r.Header.Get("Authorization") != "Bearer "+secrets["GOOD_KEY"] {
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		if r.Method == http.MethodDelete {
			deleted.Add(1)
		}
		h.ServeHTTP(w, r)
	})
	var srv *httptest.Server
	if tlsOn {
		srv = httptest.NewTLSServer(wrapped)
	} else {
		srv = httptest.NewServer(wrapped)
	}
	t.Cleanup(srv.Close)
	return srv, &deleted
}

func TestMCPProbeReal(t *testing.T) {
	e := newEngine(t)
	one, deleted := mcpServer(t, []string{"search"}, false, false)
	none, _ := mcpServer(t, nil, false, false)
	authed, _ := mcpServer(t, []string{"search", "fetch"}, true, false)
	secure, _ := mcpServer(t, []string{"search"}, true, true)
	runReal(t, e, runtime.ProbeConfig{}, []realCase{
		{shorthand: "mcp:" + one.URL + "/mcp", outcome: runtime.Available},
		{shorthand: "mcp:" + none.URL + "/mcp", outcome: runtime.Unavailable, reason: "MCP server at " + none.URL + "/mcp lists no tools"},
		{shorthand: "mcp:" + authed.URL + "/mcp bearer=GOOD_KEY", outcome: runtime.Available},
		{shorthand: "mcp:" + authed.URL + "/mcp bearer=BAD_KEY", outcome: runtime.Unavailable,
			reason: "MCP server at " + authed.URL + "/mcp: credentials rejected (HTTP 401)"},
		{shorthand: "mcp:" + authed.URL + "/mcp", outcome: runtime.Unavailable,
			reason: "MCP server at " + authed.URL + "/mcp: credentials rejected (HTTP 401)"},
	})
	// Once per run that opened one (runReal runs a late run again).
	assert.GreaterOrEqual(t, deleted.Load(), int32(1), "the probe ends its session")

	// A server that accepts and never answers: the probe raises in time.
	hung := httptest.NewServer(hang(t))
	defer hung.Close()
	runReal(t, e, runtime.ProbeConfig{}, []realCase{
		{shorthand: "mcp:" + hung.URL + "/mcp timeout_ms=20", outcome: runtime.Failed, reason: "MCP server at " + hung.URL + "/mcp: timed out"},
	})
	runReal(t, e, runtime.ProbeConfig{TLSRootCAs: pool(secure)}, []realCase{
		{shorthand: "mcp:" + secure.URL + "/ bearer=GOOD_KEY", outcome: runtime.Available},
	})
}
