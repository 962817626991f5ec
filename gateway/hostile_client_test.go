package gateway_test

import (
	"bufio"
	"context"
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

// The clients of these tests misbehave as a hostile one would, over raw
// HTTP: they stop reading their streams, or send what gate's checks and
// the SDK's decoder might read differently. Each test has an honest client
// (the Go SDK's) beside them, which must be served as if they were not
// there.

// newProgressServer is an upstream whose tools report progress as fast as
// they can, then answer:
//
//	steps  sends "steps" progress notifications, then answers
//	flood  the same, each with a 4 KiB message: it fills a client's
//	       stream within a few hundred steps
func newProgressServer() *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "progress-upstream", Version: "1"}, nil)
	report := func(message func(int) string) mcp.ToolHandler {
		return func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			a := parse(req)
			tok := req.Params.GetProgressToken()
			for i := 1; i <= a.Steps && tok != nil; i++ {
				if err := req.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{ProgressToken: tok, Progress: float64(i), Total: float64(a.Steps), Message: message(i)}); err != nil {
					return nil, err
				}
			}
			return text(fmt.Sprintf("done after %d steps", a.Steps)), nil
		}
	}
	s.AddTool(&mcp.Tool{Name: "steps", InputSchema: objectSchema}, report(func(i int) string { return fmt.Sprintf("step %d", i) }))
	pad := strings.Repeat("p", 4<<10)
	s.AddTool(&mcp.Tool{Name: "flood", InputSchema: objectSchema}, report(func(int) string { return pad }))
	return s
}

// rawMCP is a client of gate's /mcp written by hand: it says what it is
// told to, and reads only what it is told to.
type rawMCP struct {
	t   *testing.T
	url string
	id  string // Mcp-Session-Id, once initialized
}

// initialize opens a session with a well-formed initialize and
// notifications/initialized.
func initializeRaw(t *testing.T, url string) *rawMCP {
	t.Helper()
	c := &rawMCP{t: t, url: url}
	resp := c.post(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`)
	require.Equal(t, http.StatusOK, resp.StatusCode)
	c.id = resp.Header.Get("Mcp-Session-Id")
	require.NotEmpty(t, c.id)
	resp = c.post(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	require.Equal(t, http.StatusAccepted, resp.StatusCode)
	return c
}

// post sends body and reads the whole answer.
func (c *rawMCP) post(body string) *http.Response {
	c.t.Helper()
	resp, err := c.try(body)
	require.NoError(c.t, err)
	return resp
}

// try is post that returns the error of a request that failed.
func (c *rawMCP) try(body string) (*http.Response, error) {
	req, err := http.NewRequest(http.MethodPost, c.url, strings.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if c.id != "" {
		req.Header.Set("Mcp-Session-Id", c.id)
		req.Header.Set("Mcp-Protocol-Version", "2025-11-25")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, err
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp, nil
}

// stall sends a request on a connection of its own, with a small receive
// buffer, and never reads the answer: what gate writes to it piles up in
// the kernel's buffers, then blocks. headers are the request line's
// method and path, and the headers; the connection closes with the test.
func (c *rawMCP) stall(method, body string) net.Conn {
	c.t.Helper()
	conn, err := net.DialTimeout("tcp", strings.TrimPrefix(c.url, "http://"), waitFor)
	require.NoError(c.t, err)
	c.t.Cleanup(func() { conn.Close() })
	require.NoError(c.t, conn.(*net.TCPConn).SetReadBuffer(4<<10))
	req := fmt.Sprintf("%s / HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: application/json, text/event-stream\r\nMcp-Session-Id: %s\r\nMcp-Protocol-Version: 2025-11-25\r\n", method, c.id)
	if body != "" {
		req += fmt.Sprintf("Content-Type: application/json\r\nContent-Length: %d\r\n", len(body))
	}
	_, err = io.WriteString(conn, req+"\r\n"+body)
	require.NoError(c.t, err)
	return conn
}

// gone reports whether gate has closed the session: a request on it is
// answered 404, as for a session that never was. (One sent as the session
// is dropped fails, which says nothing yet.)
func (c *rawMCP) gone() bool {
	resp, err := c.try(`{"jsonrpc":"2.0","id":99,"method":"ping"}`)
	return err == nil && resp.StatusCode == http.StatusNotFound
}

// closedBy reports whether conn is closed by its other end within the
// wait, reading and discarding what comes meanwhile.
func closedBy(t *testing.T, conn net.Conn) bool {
	t.Helper()
	require.NoError(t, conn.SetReadDeadline(time.Now().Add(waitFor)))
	_, err := io.Copy(io.Discard, bufio.NewReader(conn))
	var ne net.Error
	if ok := asNetError(err, &ne); ok && ne.Timeout() {
		return false
	}
	return true
}

func asNetError(err error, target *net.Error) bool {
	ne, ok := err.(net.Error)
	if ok {
		*target = ne
	}
	return ok
}

// progressOf waits for n progress notifications of one call and returns
// their progress values, in the order they came.
func progressOf(t *testing.T, c *mcptest.Client, n int) []float64 {
	t.Helper()
	var got []float64
	for len(got) < n {
		select {
		case p := <-c.Progress:
			got = append(got, p.Progress)
		case <-time.After(waitFor):
			t.Fatalf("%d progress notifications of %d came: %v", len(got), n, got)
		}
	}
	return got
}

func oneTo(n int) []float64 {
	out := make([]float64, n)
	for i := range out {
		out[i] = float64(i + 1)
	}
	return out
}

// A session that stops reading its streams is dropped, alone: while its
// stream is full and gate's writes to it block, another session still
// gets its call's progress, its result and a list_changed at once, and the
// stalled session is closed when a write to it misses its deadline.
func TestStalledSessionStallsNobodyElse(t *testing.T) {
	url, _ := httpUpstream(t, newProgressServer())
	reg := prometheus.NewRegistry()
	rule := newListener(t)
	h := start(t, fmt.Sprintf(`
[[servers]]
name = "up"
url = %q
prefix = ""

[[servers.tools]]
name = "steps"
probe = "tcp:%s"
`, url, rule.addr), fastConfig().WithWriteTimeout(time.Second).WithMetrics(reg))
	honest := h.client()
	honest.WaitTools(t, "flood", "steps")

	// The stalled session: its standalone stream and its call's stream
	// are never read, and the call floods them with progress.
	stalled := initializeRaw(t, h.url)
	get := stalled.stall(http.MethodGet, "")
	stalled.stall(http.MethodPost, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"flood","arguments":{"steps":20000},"_meta":{"progressToken":"t"}}}`)
	// Long enough for the flood to fill both connections' buffers.
	time.Sleep(500 * time.Millisecond)

	// The honest session is served in full.
	params := &mcp.CallToolParams{Name: "steps", Arguments: map[string]any{"steps": 5}}
	params.SetProgressToken("honest")
	ctx, cancel := context.WithTimeout(context.Background(), waitFor)
	defer cancel()
	res, err := honest.Session.CallTool(ctx, params)
	require.NoError(t, err)
	assert.Equal(t, "done after 5 steps", textOf(res))
	assert.Equal(t, oneTo(5), progressOf(t, honest.Client, 5))
	honest.Drain()
	rule.close()
	honest.WaitChanged(t)
	honest.WaitTools(t, "flood")

	// The stalled session is dropped, for missing a write's deadline, and
	// its standalone stream is closed (read only now: reading would
	// unblock gate's writes). The call's stream is closed too, but the
	// kernel still has megabytes of it to send, at the pace of a 4 KiB
	// window.
	require.Eventually(t, stalled.gone, waitFor, 50*time.Millisecond, "the stalled session is closed")
	assert.Equal(t, 1.0, counterValue(t, reg, "gate_mcp_sessions_dropped_total", "write_timeout"))
	assert.Equal(t, 0.0, counterValue(t, reg, "gate_mcp_sessions_dropped_total", "overflow"))
	assert.True(t, closedBy(t, get), "the stalled standalone stream is closed")
}

// Progress of a call reaches the client on the call's own stream: a
// client that opens no standalone stream (the Go SDK's with
// DisableStandaloneSSE) gets every notification, in order, as over stdio.
func TestProgressWithoutStandaloneStream(t *testing.T) {
	url, _ := httpUpstream(t, newProgressServer())
	h := start(t, fmt.Sprintf("[[servers]]\nname = \"up\"\nurl = %q\nprefix = \"\"\n", url), fastConfig())
	cl, c := mcptest.New("no-stream")
	ctx, cancel := context.WithTimeout(context.Background(), waitFor)
	defer cancel()
	cs, err := cl.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: h.url, DisableStandaloneSSE: true}, nil)
	require.NoError(t, err)
	defer cs.Close()
	c.Session = cs
	c.WaitTools(t, "flood", "steps")
	for round := range 20 {
		params := &mcp.CallToolParams{Name: "steps", Arguments: map[string]any{"steps": 10}}
		params.SetProgressToken(fmt.Sprint("call-", round))
		res, err := cs.CallTool(ctx, params)
		require.NoError(t, err)
		assert.Equal(t, "done after 10 steps", textOf(res))
		require.Equal(t, oneTo(10), progressOf(t, c, 10), "round %d", round)
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
				resp := (&rawMCP{t: t, url: h.url}).post(body)
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
	stalled := initializeRaw(t, h.url)
	stalled.stall(http.MethodPost, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"w_hang","arguments":{}}}`)

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
	assert.True(t, stalled.gone(), "the stalled client's session is closed")
}
