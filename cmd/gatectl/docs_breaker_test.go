package main

import (
	"context"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gate-dev/gate/internal/doctest"
	"github.com/gate-dev/gate/internal/golden"
	"github.com/gate-dev/gate/internal/mcptest"
	"github.com/gate-dev/gate/internal/testnet"
)

// TestBreakerDocLog plays docs/MCP.md's breaker: gatectl serve fronts a
// stateless HTTP MCP server (whose dead listener no ping notices: the
// transport's refusal counts as an answer), a client calls through /mcp,
// the server's backend dies, the calls fail and open its breaker; the
// probe then sees it too; backend and probe come back, and the breaker
// closes. What serve logs is compared with the page (-update rewrites it).
func TestBreakerDocLog(t *testing.T) {
	page := filepath.Join("..", "..", "docs", "MCP.md")
	t.Setenv("GATE_CACHE_DIR", t.TempDir())
	ports := doctest.Ports{}
	ports.Free(t, "9000")
	ports.Free(t, "9001")
	upstream := mcp.NewServer(&mcp.Implementation{Name: "web", Version: "1"}, nil)
	upstream.AddTool(&mcp.Tool{Name: "echo", InputSchema: map[string]any{"type": "object"}}, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "echo"}}}, nil
	})
	handler := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return upstream }, &mcp.StreamableHTTPOptions{Stateless: true})
	backendAddr := "127.0.0.1:" + ports["9000"]
	serveBackend := func() *http.Server {
		srv := &http.Server{Handler: handler}
		// No idle connection outlives the backend: each call after it
		// dies finds nothing listening (not a pooled connection's EOF).
		srv.SetKeepAlivesEnabled(false)
		l, err := net.Listen("tcp", backendAddr)
		require.NoError(t, err)
		go func() { _ = srv.Serve(l) }()
		t.Cleanup(func() { _ = srv.Close() })
		return srv
	}
	backend := serveBackend()
	health := testnet.Listen(t, "tcp", "127.0.0.1:"+ports["9001"])

	s := startDocServe(t, ports.ToRun(`[runtime]
ttl = "1s"
grace = "0s"

[[servers]]
name = "web"
url = "http://127.0.0.1:9000/mcp"
prefix = "w_"
probe = "tcp:127.0.0.1:9001"
breaker = { failures = 3, cooldown = "1h" }
`))
	s.waitFor("upstream web ready")
	cl, c := mcptest.New("breaker-doc")
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cs, err := cl.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: s.base + "/mcp"}, nil)
	require.NoError(t, err)
	defer cs.Close()
	c.Session = cs
	c.WaitTools(t, "w_echo")
	call := func() error {
		_, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "w_echo"})
		return err
	}
	require.NoError(t, call())

	require.NoError(t, backend.Close()) // the backend dies
	for range 3 {
		assert.ErrorContains(t, call(), "connection refused")
	}
	s.waitFor("breaker web open")
	// The refusal docs/MCP.md quotes, as the page shows it.
	refused := call()
	require.ErrorContains(t, refused, "server web's breaker is open: 3 calls in a row failed")
	doc, err := os.ReadFile(page)
	require.NoError(t, err)
	quoted := ports.FromRun(strings.TrimPrefix(refused.Error(), `calling "tools/call": `))
	assert.Contains(t, string(doc), "`"+quoted+"`", "docs/MCP.md quotes another refusal")
	require.NoError(t, health.Close()) // the probe sees it
	s.waitFor("server web unavailable")

	waitFree(t, backendAddr)
	serveBackend()
	testnet.Listen(t, "tcp", health.Addr().String())
	s.waitFor("breaker web closed")
	c.WaitTools(t, "w_echo")
	require.NoError(t, call())
	doctest.Compare(t, page, 0, "gatectl serve -m gate.toml", ports.FromRun(s.stop()), golden.Update())
}

// waitFree waits until addr can be listened on again.
func waitFree(t *testing.T, addr string) {
	t.Helper()
	require.Eventually(t, func() bool {
		l, err := net.Listen("tcp", addr)
		if err == nil {
			l.Close()
		}
		return err == nil
	}, time.Minute, 10*time.Millisecond)
}
