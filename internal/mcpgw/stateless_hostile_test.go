package mcpgw_test

import (
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/gate-dev/gate/internal/mcptest"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// stall26 sends a 2026-07-28 tools/call of tool, with a progress token, on
// a connection of its own with a 4 KiB receive buffer, and never reads the
// answer: what gate writes piles up in the kernel's buffers, then blocks.
func stall26(t *testing.T, endpoint, tool string, args string) net.Conn {
	t.Helper()
	host := strings.TrimPrefix(endpoint, "http://")
	conn, err := net.DialTimeout("tcp", host, waitFor)
	require.NoError(t, err)
	t.Cleanup(func() { conn.Close() })
	require.NoError(t, conn.(*net.TCPConn).SetReadBuffer(4<<10))
	body := `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"` + tool + `","arguments":` + args + `,"_meta":` + meta26(`,"progressToken":"t"`) + `}}`
	req := fmt.Sprintf("POST / HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n"+
		"MCP-Protocol-Version: %s\r\nMcp-Method: tools/call\r\nMcp-Name: %s\r\nContent-Length: %d\r\n\r\n%s", host, statelessVersion, tool, len(body), body)
	_, err = io.WriteString(conn, req)
	require.NoError(t, err)
	return conn
}

// A 2026-07-28 request whose client stops reading is dropped alone when a
// write to it misses the write timeout, as an older session is: its call
// is cancelled at the upstream, it is counted, and a 2026-07-28 client
// and a session of 2025-11-25 beside it go on.
func TestStalledStatelessCallIsDroppedAlone(t *testing.T) {
	up := mcptest.NewProgressServer()
	calls := &mcptest.CallsInFlight{Next: mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return up }, nil)}
	srv := httptest.NewServer(calls)
	t.Cleanup(func() {
		srv.CloseClientConnections()
		srv.Close()
	})
	url := srv.URL
	reg := prometheus.NewRegistry()
	h := start(t, fmt.Sprintf("[[servers]]\nname = \"up\"\nurl = %q\nprefix = \"\"\n", url), fastConfig().WithStateless(true).WithWriteTimeout(time.Second).WithMetrics(reg))
	honest, old := h.client26(), h.clientAt("2025-11-25")
	honest.WaitTools(t, mcptest.ProgressTools...)
	stall26(t, h.url, "flood", `{"steps":20000}`)

	require.Eventually(t, func() bool {
		return counterValue(t, reg, "gate_mcp_sessions_dropped_total", "write_timeout") == 1
	}, waitFor, 20*time.Millisecond, "the stalled request is dropped for missing a write's deadline")
	require.Eventually(t, func() bool { return calls.N() == 0 }, waitFor, 20*time.Millisecond, "the stalled request's call is cancelled at the upstream")
	for _, c := range []*mcptest.Client{honest.Client, old.Client} {
		res, err := (&client{c}).call(t, "steps", map[string]any{"steps": 1})
		require.NoError(t, err)
		assert.Equal(t, "done after 1 steps", textOf(res))
	}
	assert.Equal(t, 1.0, counterValue(t, reg, "gate_mcp_sessions_dropped_total", "write_timeout"))
}
