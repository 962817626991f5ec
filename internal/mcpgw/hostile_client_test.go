package mcpgw_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/gate-dev/gate/internal/mcptest"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The clients of these tests misbehave as a hostile one would, over raw
// HTTP: they stop reading their streams, or send what gate's checks and
// the SDK's decoder might read differently. Each test has an honest client
// (the Go SDK's) beside them, which must be served as if they were not
// there.

// rawClient is a hostile client of the harness's /mcp, with a session.
func (h *harness) rawClient() *mcptest.Raw {
	c := &mcptest.Raw{T: h.t, Endpoint: h.url}
	c.Open()
	return c
}

// closedBy reports whether conn is closed by its other end within the
// wait, reading and discarding what comes meanwhile.
func closedBy(t *testing.T, conn net.Conn) bool {
	t.Helper()
	require.NoError(t, conn.SetReadDeadline(time.Now().Add(waitFor)))
	_, err := io.Copy(io.Discard, conn)
	var ne net.Error
	return !errors.As(err, &ne) || !ne.Timeout() // EOF (io.Copy's nil), or a reset
}

// stalledSession opens a session on h that reads none of its streams:
// its standalone stream and a call's stream, while the call floods them
// with progress of "flood" (the progress upstream's tool, named as h
// offers it).
func stalledSession(h *harness, flood string) (get net.Conn, s *mcptest.Raw) {
	s = h.rawClient()
	get = s.Stall(http.MethodGet, "")
	s.Stall(http.MethodPost, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"`+flood+`","arguments":{"steps":20000},"_meta":{"progressToken":"t"}}}`)
	// Long enough for the flood to fill both connections' buffers. Nothing
	// marks that moment; a loaded machine only makes the stall press less.
	time.Sleep(500 * time.Millisecond)
	return get, s
}

// A session that stops reading its streams stalls nobody else: while its
// stream is full and gate's writes to it block (for as long as the write
// timeout, longer than this test waits), another session still gets its
// call's progress, its result and a list_changed, and no write timed out:
// nobody waited for the stalled session's writes. (It may be dropped at
// once for the notifications it fell behind by, its queue's bound, which
// costs the others nothing.) (Before, progress
// went out on the upstream's one notification goroutine and list_changed
// to one session after another: a stalled session held everyone's for as
// long as its write blocked.)
func TestStalledSessionStallsNobodyElse(t *testing.T) {
	url, _ := httpUpstream(t, mcptest.NewProgressServer())
	rule := newListener(t)
	reg := prometheus.NewRegistry()
	h := start(t, fmt.Sprintf(`
[[servers]]
name = "up"
url = %q
prefix = ""

[[servers.tools]]
name = "steps"
probe = "tcp:%s"
`, url, rule.addr), fastConfig().WithWriteTimeout(4*waitFor).WithMetrics(reg))
	honest := h.client()
	honest.WaitTools(t, "flood", "hang", "steps")
	// A list_changed goes to the standalone stream, and is lost while it
	// is not open yet.
	require.Eventually(t, func() bool { return h.gw.StandaloneStreams() == 1 }, waitFor, 5*time.Millisecond)
	stalledSession(h, "flood")

	params := &mcp.CallToolParams{Name: "steps", Arguments: map[string]any{"steps": 5}}
	params.SetProgressToken("honest")
	ctx, cancel := context.WithTimeout(context.Background(), waitFor)
	defer cancel()
	res, err := honest.Session.CallTool(ctx, params)
	require.NoError(t, err)
	assert.Equal(t, "done after 5 steps", textOf(res))
	assert.Equal(t, mcptest.Steps(5), honest.ProgressOf(t, 5))
	honest.Drain()
	rule.close()
	honest.WaitChanged(t)
	honest.WaitTools(t, "flood", "hang")
	assert.Equal(t, 0.0, counterValue(t, reg, "gate_mcp_sessions_dropped_total", "write_timeout"),
		"a write to the stalled session timed out: the honest one may have waited for it")
}

// A session that stops reading its streams is dropped when a write to it
// misses the write timeout: its standalone stream is closed, and it is
// counted.
func TestStalledSessionIsDropped(t *testing.T) {
	url, _ := httpUpstream(t, mcptest.NewProgressServer())
	reg := prometheus.NewRegistry()
	h := start(t, fmt.Sprintf("[[servers]]\nname = \"up\"\nurl = %q\nprefix = \"\"\n", url), fastConfig().WithWriteTimeout(time.Second).WithMetrics(reg))
	honest := h.client()
	honest.WaitTools(t, "flood", "hang", "steps")
	get, stalled := stalledSession(h, "flood")
	// The stalled session is dropped, for missing a write's deadline, and
	// its standalone stream is closed (read only now: reading would
	// unblock gate's writes). The call's stream is closed too, but the
	// kernel still has megabytes of it to send, at the pace of a 4 KiB
	// window.
	require.Eventually(t, stalled.Gone, waitFor, 50*time.Millisecond, "the stalled session is closed")
	assert.Equal(t, 1.0, counterValue(t, reg, "gate_mcp_sessions_dropped_total", "write_timeout"))
	assert.Equal(t, 0.0, counterValue(t, reg, "gate_mcp_sessions_dropped_total", "overflow"))
	assert.True(t, closedBy(t, get), "the stalled standalone stream is closed")
	res, err := honest.call(t, "steps", map[string]any{"steps": 1})
	require.NoError(t, err)
	assert.Equal(t, "done after 1 steps", textOf(res))
}

// Progress of a call reaches the client on the call's own stream: a
// client that opens no standalone stream (the Go SDK's with
// DisableStandaloneSSE) gets every notification, in order, as over stdio.
func TestProgressWithoutStandaloneStream(t *testing.T) {
	url, _ := httpUpstream(t, mcptest.NewProgressServer())
	h := start(t, fmt.Sprintf("[[servers]]\nname = \"up\"\nurl = %q\nprefix = \"\"\n", url), fastConfig())
	cl, c := mcptest.New("no-stream")
	ctx, cancel := context.WithTimeout(context.Background(), waitFor)
	defer cancel()
	cs, err := cl.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: h.url, DisableStandaloneSSE: true}, nil)
	require.NoError(t, err)
	defer cs.Close()
	c.Session = cs
	c.WaitTools(t, mcptest.ProgressTools...)
	for round := range 20 {
		params := &mcp.CallToolParams{Name: "steps", Arguments: map[string]any{"steps": 10}}
		params.SetProgressToken(fmt.Sprint("call-", round))
		res, err := cs.CallTool(ctx, params)
		require.NoError(t, err)
		assert.Equal(t, "done after 10 steps", textOf(res))
		require.Equal(t, mcptest.Steps(10), c.ProgressOf(t, 10), "round %d", round)
	}
}

// sessionBodies are initialize requests as a hostile client writes them,
// each of which the SDK takes as opening a session: a JSON-RPC batch, a
// key in another case (which Go's encoding/json would take for "method",
// last one winning, and the SDK's decoder ignores), a duplicate key.
var sessionBodies = map[string]string{
	"batch":      `[{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-03-26","capabilities":{},"clientInfo":{"name":"b","version":"1"}}}]`,
	"case":       `{"jsonrpc":"2.0","id":1,"method":"initialize","Method":"x","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}`,
	"duplicate":  `{"jsonrpc":"2.0","id":1,"method":"x","method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"d","version":"1"}}}`,
	"plain":      `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"p","version":"1"}}}`,
	"whitespace": " \n\t" + `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"w","version":"1"}}}`,
}

// The session cap holds whatever an initialize looks like: past it every
// new session is refused with 503, and gate never holds more than the cap.
func TestSessionCapWhateverTheBody(t *testing.T) {
	for name, body := range sessionBodies {
		t.Run(name, func(t *testing.T) {
			h := start(t, "", fastConfig().WithMaxSessions(2))
			opened, refused := 0, 0
			for range 10 {
				resp := (&mcptest.Raw{T: t, Endpoint: h.url}).Post(body)
				switch {
				case resp.StatusCode == http.StatusServiceUnavailable:
					refused++
					assert.NotEmpty(t, resp.Header.Get("Retry-After"))
				case resp.Header.Get("Mcp-Session-Id") != "":
					opened++
				default:
					t.Fatalf("answered %d without a session", resp.StatusCode)
				}
			}
			assert.Equal(t, 2, opened, "sessions opened")
			assert.Equal(t, 8, refused, "sessions refused")
		})
	}
}

// counterValue is the value of the counter name{label} in reg, 0 when it
// has no such series.
func counterValue(t *testing.T, reg *prometheus.Registry, name, label string) float64 {
	t.Helper()
	families, err := reg.Gather()
	require.NoError(t, err)
	for _, f := range families {
		if f.GetName() != name {
			continue
		}
		for _, m := range f.Metric {
			if len(m.Label) == 0 || m.Label[0].GetValue() == label {
				return m.GetCounter().GetValue()
			}
		}
	}
	return 0
}

// A call that outlasts the HTTP server's read timeout is answered: the
// timeout bounds reading the request, and /mcp lifts it once the body is
// read (it used to cancel the call's stream when it passed).
func TestLongCallOutlivesReadTimeout(t *testing.T) {
	url, _ := httpUpstream(t, newUpstreamServer(""))
	h := start(t, fmt.Sprintf("[[servers]]\nname = \"web\"\nurl = %q\nprefix = \"w_\"\n", url), fastConfig())
	srv := httptest.NewUnstartedServer(h.gw.Handler())
	srv.Config.ReadTimeout = 200 * time.Millisecond
	srv.Start()
	t.Cleanup(func() {
		srv.CloseClientConnections()
		srv.Close()
	})
	cl, c := mcptest.New("patient")
	ctx, cancel := context.WithTimeout(context.Background(), waitFor)
	defer cancel()
	cs, err := cl.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: srv.URL, MaxRetries: -1}, nil)
	require.NoError(t, err)
	defer cs.Close()
	c.Session = cs
	c.WaitTools(t, prefixed("w_", upstreamTools...)...)
	// 25 steps of 20 ms: more than twice the read timeout.
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "w_slow", Arguments: map[string]any{"steps": 25}})
	require.NoError(t, err)
	assert.Equal(t, "done after 25 steps", textOf(res))
}

// Shutting down answers every call in flight with an error that says so,
// whatever the clients do: 20 calls of an honest client, and one of a
// client that reads nothing of its answer.
func TestShutdownAnswersCallsInFlight(t *testing.T) {
	url, _ := httpUpstream(t, newUpstreamServer(""))
	h := start(t, fmt.Sprintf("[[servers]]\nname = \"web\"\nurl = %q\nprefix = \"w_\"\n", url), fastConfig())
	c := h.client()
	c.WaitTools(t, prefixed("w_", upstreamTools...)...)
	stalled := h.rawClient()
	stalled.Stall(http.MethodPost, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"w_hang","arguments":{}}}`)

	errs := make(chan error, 20)
	for range 20 {
		go func() {
			_, err := c.call(t, "w_hang", nil)
			errs <- err
		}()
	}
	// Every call is at the upstream.
	require.Eventually(t, func() bool { return h.gw.InFlight() == 21 }, waitFor, 10*time.Millisecond)

	h.gw.CloseSessions()
	for range 20 {
		select {
		case err := <-errs:
			require.Error(t, err)
			assert.Contains(t, err.Error(), "gate is shutting down")
		case <-time.After(waitFor):
			t.Fatal("a call in flight got no answer")
		}
	}
	assert.Zero(t, h.gw.InFlight())
	assert.True(t, stalled.Gone(), "the stalled client's session is closed")
}

// callBatch is a JSON-RPC batch of n calls of tool, ids from first.
func callBatch(n, first int, tool string) string {
	calls := make([]string, n)
	for i := range calls {
		calls[i] = fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":%q,"arguments":{}}}`, first+i, tool)
	}
	return "[" + strings.Join(calls, ",") + "]"
}

// What one client can make gate hold is bounded, however it sends its
// requests: a JSON-RPC batch (which a session of 2025-03-26 may send, and
// which the SDK starts all at once) of more messages than the cap is
// refused whole; a session with the cap of requests being handled gets an
// error for one more at once, rather than gate forwarding it; and
// however many sessions call one upstream, no more calls reach it than
// its cap (each an HTTP connection), the others waiting for a slot.
// Meanwhile another upstream is served. On main one POST of 2,000 calls
// made 2,000 connections to the upstream and 12,000 goroutines.
func TestOneClientsRequestsAreBounded(t *testing.T) {
	web := &mcptest.CallsInFlight{Next: sdkHandler(false)}
	h := start(t, httpServer("web", serveHTTP(t, web))+hostileServer(t, "other", "plain"),
		fastConfig().WithMaxSessionRequests(8).WithMaxUpstreamCalls(12))
	honest := h.client()
	honest.WaitTools(t, "other_echo", "other_wait", "web_echo", "web_wait")

	flood := &mcptest.Raw{T: t, Endpoint: h.url, Version: "2025-03-26"}
	flood.Open()
	code, answer := flood.Ask(callBatch(9, 10, "web_wait"))
	assert.Equal(t, http.StatusBadRequest, code, "a batch past the cap: %s", answer)
	assert.Contains(t, answer, "a JSON-RPC batch may hold at most 8 messages")
	assert.Zero(t, web.N(), "nothing of a refused batch reaches the upstream")

	// A batch at the cap: every call of it is forwarded.
	go func() { _, _ = flood.Try(callBatch(8, 100, "web_wait")) }()
	require.Eventually(t, func() bool { return web.N() == 8 }, waitFor, 5*time.Millisecond)
	code, answer = flood.Ask(`{"jsonrpc":"2.0","id":200,"method":"tools/call","params":{"name":"web_echo","arguments":{"text":"one more"}}}`)
	assert.Equal(t, http.StatusOK, code)
	assert.Contains(t, answer, "this session has 8 requests being handled, the gateway's cap")
	assert.NotContains(t, answer, "echo: one more")

	// Another session's calls wait for the upstream's slots: it never has
	// more than 12 calls, though gate has 14.
	errs := honest.StartCalls(6, "web_wait")
	require.Eventually(t, func() bool { return h.gw.InFlight() == 14 }, waitFor, 5*time.Millisecond)
	// The upstream gets its twelve as fast as the machine carries them; then
	// it never has more, for a while of looking (gate's cap: a loaded
	// machine can only hide a breach, never make one).
	require.Eventually(t, func() bool { return web.N() >= 12 }, waitFor, 5*time.Millisecond, "calls in flight at the upstream")
	most := web.N()
	for range 50 {
		most = max(most, web.N())
		time.Sleep(5 * time.Millisecond)
	}
	assert.Equal(t, int64(12), most, "calls in flight at the upstream")
	echoes(t, honest, "other_echo")
	h.gw.CloseSessions()
	for range 6 {
		select {
		case err := <-errs:
			require.Error(t, err)
			assert.Contains(t, err.Error(), "gate is shutting down")
		case <-time.After(waitFor):
			t.Fatal("a call waiting for a slot was not answered on shutdown")
		}
	}
}

// A client's progress token may be as long as its request: gate keeps no
// copy of it for each notification waiting for a session that reads
// nothing. (On main each kept one: a 2 MiB token and 200 steps of
// progress made gate hold 400 MiB.)
func TestLongProgressTokenIsNotCopied(t *testing.T) {
	url, _ := httpUpstream(t, mcptest.NewProgressServer())
	h := start(t, httpServer("up", url), fastConfig().WithWriteTimeout(waitFor))
	c := h.client()
	c.WaitTools(t, "up_flood", "up_hang", "up_steps")

	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	stop := make(chan struct{})
	peak := heapPeak(stop)
	stalled := h.rawClient()
	token := strings.Repeat("k", 2<<20)
	stalled.Stall(http.MethodPost, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"up_steps","arguments":{"steps":200},"_meta":{"progressToken":"`+token+`"}}}`)
	// The steps come in milliseconds; gate queues them for the session
	// as they come. (A loaded machine only makes them press less.)
	time.Sleep(3 * time.Second)
	close(stop)
	grew := int64(peak()) - int64(m.HeapInuse)
	t.Logf("heap in use grew by %d MiB", grew>>20)
	assert.Less(t, grew, int64(100<<20), "heap in use grew by %d MiB", grew>>20)
	res, err := c.call(t, "up_steps", map[string]any{"steps": 1})
	require.NoError(t, err)
	assert.Equal(t, "done after 1 steps", textOf(res))
}
