package mcpgw

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gate-dev/gate/runtime"
	"github.com/stretchr/testify/require"
)

// capGateway is a gateway with no upstream, its /mcp served on loopback.
func capGateway(t testing.TB, maxSessions int) (*Gateway, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "gate.toml")
	require.NoError(t, os.WriteFile(path, []byte("[runtime]\nttl = \"1s\"\n"), 0o600))
	ctx, cancel := context.WithCancel(context.Background())
	svc, err := runtime.OpenService(ctx, path, runtime.NewServiceConfig().WithWatchInterval(0))
	require.NoError(t, err)
	g := New(svc, NewConfig().WithMaxSessions(maxSessions).WithKeepAlive(0))
	var wg sync.WaitGroup
	wg.Go(func() { _ = svc.Run(ctx) })
	wg.Go(func() { _ = g.Run(ctx) })
	srv := httptest.NewServer(g.Handler())
	t.Cleanup(func() {
		g.CloseSessions()
		srv.CloseClientConnections()
		srv.Close()
		cancel()
		wg.Wait()
		_ = svc.Close(context.Background())
	})
	return g, srv.URL
}

// held counts the sessions the SDK holds: initialized or not, addressable
// or not.
func (g *Gateway) held() int {
	n := 0
	for range g.server.Sessions() {
		n++
	}
	return n
}

// opened is how many sessions the cap counts now: those open and
// initialized, and the POSTs being served that might open one (a client
// has its answer a moment before the server is done with the request).
func (g *Gateway) opened() int {
	g.clients.mu.Lock()
	defer g.clients.mu.Unlock()
	return g.counted()
}

// closeAll closes every session and waits until the SDK holds none and
// no request is being served.
func (g *Gateway) closeAll(t testing.TB) {
	t.Helper()
	for ss := range g.server.Sessions() {
		_ = ss.Close()
	}
	require.Eventually(t, func() bool { return g.held() == 0 && g.opened() == 0 }, 10*time.Second, time.Millisecond)
}

// postMCP posts body with the header and returns the answer's status, 0
// when the request failed (a body the SDK cut short: what it holds is
// checked anyway).
func postMCP(t testing.TB, url string, header http.Header, body []byte) int {
	t.Helper()
	code, _ := post(t, url, header, string(body))
	return code
}

// postAnswer posts body and returns the answer's body.
func postAnswer(t testing.TB, url string, header http.Header, body string) string {
	t.Helper()
	code, answer := post(t, url, header, body)
	require.NotZero(t, code, "the request failed")
	return answer
}

func post(t testing.TB, url string, header http.Header, body string) (int, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, strings.NewReader(body))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	for k, v := range header {
		req.Header[k] = v
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, ""
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return 0, ""
	}
	return resp.StatusCode, string(b)
}

const plainInitialize = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"p","version":"1"}}}`

// discoverBody is a 2026-07-28 server/discover: the one request of that
// protocol a stateful server answers, and it initializes the session the
// SDK made for it, without telling the client the session's ID.
const discoverBody = `{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"d","version":"1"}}}}`

// FuzzSessionCap is the session cap against the SDK: for any body of a
// POST without Mcp-Session-Id, with the cap at one, the SDK holds at most
// one session once it is answered, and an initialize after it is refused
// exactly when the SDK kept a session for it: gate counts a session iff the
// SDK opened one.
func FuzzSessionCap(f *testing.F) {
	for _, b := range []string{
		plainInitialize,
		`[` + plainInitialize + `]`,
		`[` + plainInitialize + `,` + plainInitialize + `]`,
		`{"jsonrpc":"2.0","id":1,"method":"initialize","Method":"x","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}`,
		`{"jsonrpc":"2.0","id":1,"METHOD":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}`,
		`{"jsonrpc":"2.0","id":1,"method":"ping"}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		discoverBody,
		`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`,
		`[]`, `{}`, `null`, ``, `[{"jsonrpc":"2.0","id":1,"method":"ping"},` + plainInitialize + `]`,
	} {
		f.Add([]byte(b), false)
		f.Add([]byte(b), true)
	}
	g, url := capGateway(f, 1)
	f.Fuzz(func(t *testing.T, body []byte, newProtocol bool) {
		g.closeAll(t)
		h := http.Header{}
		if newProtocol {
			h.Set("Mcp-Protocol-Version", "2026-07-28")
			h.Set("Mcp-Method", "server/discover")
		}
		postMCP(t, url, h, body)
		require.Eventually(t, func() bool { return g.opened() == g.sessions() }, 10*time.Second, time.Millisecond)
		kept := g.sessions()
		require.LessOrEqual(t, g.held(), 1, "the SDK holds more sessions than the cap")
		code := postMCP(t, url, nil, []byte(plainInitialize))
		if kept == 1 {
			require.Equal(t, http.StatusServiceUnavailable, code, "the SDK kept a session for %q, and gate let another open", body)
		} else {
			require.Equal(t, http.StatusOK, code, "the SDK kept no session for %q, and gate refused one", body)
		}
	})
}

// A server/discover opens a session the client cannot address: gate
// closes it, so that it holds no slot of the cap.
func TestDiscoverHoldsNoSession(t *testing.T) {
	g, url := capGateway(t, 1)
	h := http.Header{}
	h.Set("Mcp-Protocol-Version", "2026-07-28")
	h.Set("Mcp-Method", "server/discover")
	for range 5 {
		require.Equal(t, http.StatusOK, postMCP(t, url, h, []byte(discoverBody)))
		require.Eventually(t, func() bool { return g.opened() == 0 }, 10*time.Second, time.Millisecond)
	}
	require.Eventually(t, func() bool { return g.opened() == 0 }, 10*time.Second, time.Millisecond)
	require.Equal(t, http.StatusOK, postMCP(t, url, nil, []byte(plainInitialize)), "the cap is free for a session a client can use")
}

// Many hostile initializes at once never open more sessions than the cap.
func TestSessionCapUnderConcurrency(t *testing.T) {
	g, url := capGateway(t, 8)
	var wg sync.WaitGroup
	var mu sync.Mutex
	most := 0
	for i := range 64 {
		wg.Go(func() {
			body := plainInitialize
			if i%2 == 0 {
				body = "[" + plainInitialize + "]"
			}
			postMCP(t, url, nil, []byte(body))
			mu.Lock()
			most = max(most, g.sessions())
			mu.Unlock()
		})
	}
	wg.Wait()
	require.LessOrEqual(t, most, 8)
	require.Equal(t, 8, g.sessions())
}

// The protocol versions /mcp speaks, as docs/MCP.md states them: an
// initialize gets the version it asks for from 2024-11-05 to 2025-11-25,
// and 2025-11-25 for a later one; a server/discover lists those four, and
// not 2026-07-28, whose requests a stateful streamable server refuses.
func TestMCPProtocolVersions(t *testing.T) {
	_, url := capGateway(t, 16)
	for _, c := range []struct{ asked, got string }{
		{"2024-11-05", "2024-11-05"}, {"2025-03-26", "2025-03-26"}, {"2025-06-18", "2025-06-18"},
		{"2025-11-25", "2025-11-25"}, {"2026-07-28", "2025-11-25"},
	} {
		body := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"` + c.asked + `","capabilities":{},"clientInfo":{"name":"v","version":"1"}}}`
		got := postAnswer(t, url, nil, body)
		require.Contains(t, got, `"protocolVersion":"`+c.got+`"`, "initialize asking %s", c.asked)
	}
	h := http.Header{}
	h.Set("Mcp-Protocol-Version", "2026-07-28")
	h.Set("Mcp-Method", "server/discover")
	require.Contains(t, postAnswer(t, url, h, discoverBody), `"supportedVersions":["2025-11-25","2025-06-18","2025-03-26","2024-11-05"]`)
	h.Set("Mcp-Method", "tools/list")
	require.Contains(t, postAnswer(t, url, h, `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}`),
		`is not supported by this server`)
}
