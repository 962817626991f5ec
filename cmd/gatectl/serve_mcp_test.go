package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/gate-dev/gate/internal/mcptest"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The clients of serve's /mcp in these tests: the Go SDK's, the official
// TypeScript SDK's (testdata/tsclient/http_client.mjs), and hostile ones
// written by hand.

// serveSessions runs gatectl serve, with a token, in front of the upstream
// above (its tools unprefixed), and returns it with its /mcp URL and the
// upstream's count of the calls it is answering.
func serveSessions(t *testing.T, token string) (*serveProcess, string, *mcptest.CallsInFlight) {
	t.Helper()
	up := mcptest.NewProgressServer()
	calls := &mcptest.CallsInFlight{Next: mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return up }, nil)}
	srv := httptest.NewServer(calls)
	t.Cleanup(func() {
		srv.CloseClientConnections()
		srv.Close()
	})
	manifest := mcpManifest(t, fmt.Sprintf("[[servers]]\nname = \"up\"\nurl = %q\nprefix = \"\"\n", srv.URL))
	s := startServeArgs(t, buildGatectlBinary(t), mcpEnv(t, "GATE_TOKEN="+token), "-m", manifest, "--addr", "127.0.0.1:0")
	s.token = token
	t.Cleanup(func() {
		if s.cmd.ProcessState == nil {
			_ = s.cmd.Process.Kill()
		}
	})
	return s, "http://" + s.addr + "/mcp", calls
}

// goMCP connects the Go SDK's client to endpoint with the token.
func goMCP(t *testing.T, endpoint, token string, noStream bool) *goClient {
	t.Helper()
	cl, c := mcptest.New("gatectl-sessions-client")
	ctx, cancel := context.WithTimeout(context.Background(), mcpWait)
	defer cancel()
	cs, err := cl.Connect(ctx, &mcp.StreamableClientTransport{
		Endpoint: endpoint, HTTPClient: &http.Client{Transport: newBearerTransport(token)},
		DisableStandaloneSSE: noStream, MaxRetries: -1,
	}, nil)
	require.NoError(t, err)
	t.Cleanup(func() { _ = cs.Close() })
	c.Session = cs
	c.WaitTools(t, mcptest.ProgressTools...)
	return &goClient{c}
}

// steps calls steps with a progress token and returns the result's text
// and the progress values heard, once all have come.
func (c *goClient) steps(t *testing.T, n int) (string, []float64, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), mcpWait)
	defer cancel()
	params := &mcp.CallToolParams{Name: "steps", Arguments: map[string]any{"steps": n}}
	params.SetProgressToken("go-" + strconv.Itoa(n))
	res, err := c.Session.CallTool(ctx, params)
	if err != nil {
		return "", nil, err
	}
	return mcptest.Text(res), c.ProgressOf(t, n), nil
}

// tsHTTPClient is testdata/tsclient/http_client.mjs under node.
type tsHTTPClient struct {
	stdin  io.WriteCloser
	events chan tsHTTPEvent
	stderr *syncBuffer
}

type tsHTTPEvent struct {
	Event    string    `json:"event"`
	Names    []string  `json:"names"`
	Text     string    `json:"text"`
	Message  string    `json:"message"`
	Progress []float64 `json:"progress"`
}

// startTSHTTPClient runs the TypeScript client against endpoint and checks
// its first listing: want exactly, or, when want is nil, one with the
// progress upstream's "steps".
func startTSHTTPClient(t *testing.T, endpoint, token string, noStream bool, want []string) *tsHTTPClient {
	t.Helper()
	node := tsNode(t)
	args := []string{filepath.Join(tsClientDir, "http_client.mjs"), endpoint, token}
	if noStream {
		args = append(args, "nostream")
	}
	cmd := exec.Command(node, args...)
	c := &tsHTTPClient{events: make(chan tsHTTPEvent, 100), stderr: &syncBuffer{}}
	cmd.Stderr = c.stderr
	var err error
	c.stdin, err = cmd.StdinPipe()
	require.NoError(t, err)
	stdout, err := cmd.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	done := make(chan struct{})
	go func() {
		defer close(done)
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			var e tsHTTPEvent
			if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
				e = tsHTTPEvent{Event: "error", Message: "not an event: " + sc.Text()}
			}
			c.events <- e
		}
		close(c.events)
		_ = cmd.Wait()
	}()
	t.Cleanup(func() {
		_ = c.stdin.Close()
		select {
		case <-done:
		case <-time.After(mcpWait):
			_ = cmd.Process.Kill()
		}
	})
	e := c.next(t, "its first listing")
	require.Equal(t, "tools", e.Event)
	if want != nil {
		require.Equal(t, want, e.Names)
	} else {
		require.Contains(t, e.Names, "steps")
	}
	return c
}

func (c *tsHTTPClient) next(t *testing.T, what string) tsHTTPEvent {
	t.Helper()
	select {
	case e, ok := <-c.events:
		if !ok {
			t.Fatalf("waiting for %s: the TypeScript client ended:\n%s", what, c.stderr.String())
		}
		return e
	case <-time.After(mcpWait):
		t.Fatalf("waiting for %s: nothing from the TypeScript client in %v\nstderr:\n%s", what, mcpWait, c.stderr.String())
	}
	return tsHTTPEvent{}
}

// steps calls steps and returns the client's event for it.
func (c *tsHTTPClient) steps(t *testing.T, n int) tsHTTPEvent {
	t.Helper()
	b, err := json.Marshal(map[string]any{"op": "call", "name": "steps", "arguments": map[string]any{"steps": n}})
	require.NoError(t, err)
	_, err = c.stdin.Write(append(b, '\n'))
	require.NoError(t, err)
	return c.next(t, "the result of steps")
}

// TestServeMCPProgressWithoutStream: a call's progress reaches the client
// on the call's own stream, every step in order, whether or not the client
// has a standalone stream: the TypeScript SDK's client, and the Go SDK's,
// each both ways. Without a standalone stream none came.
func TestServeMCPProgressWithoutStream(t *testing.T) {
	t.Parallel()
	const token = "progress-token"
	_, endpoint, _ := serveSessions(t, token)
	for _, noStream := range []bool{false, true} {
		name := map[bool]string{false: "with a standalone stream", true: "without one"}[noStream]
		t.Run("TypeScript "+name, func(t *testing.T) {
			c := startTSHTTPClient(t, endpoint, token, noStream, mcptest.ProgressTools)
			for range 10 {
				e := c.steps(t, 10)
				require.Equal(t, "result", e.Event, "%+v\n%s", e, c.stderr.String())
				assert.Equal(t, "done after 10 steps", e.Text)
				require.Equal(t, mcptest.Steps(10), e.Progress)
			}
		})
		t.Run("Go "+name, func(t *testing.T) {
			c := goMCP(t, endpoint, token, noStream)
			for range 10 {
				text, progress, err := c.steps(t, 10)
				require.NoError(t, err)
				assert.Equal(t, "done after 10 steps", text)
				require.Equal(t, mcptest.Steps(10), progress)
			}
		})
	}
}

// gauge reads one series of serve's /metrics, 0 when it is absent.
func (s *serveProcess) gauge(t *testing.T, series string) float64 {
	t.Helper()
	return s.series(t, series)[series]
}

// TestServeMCPUnderHostileClients runs gatectl serve as a real process and
// throws every hostile client of /mcp at it at once for a few seconds:
// sessions whose standalone stream and call stream are never read while
// the call floods them with progress, JSON-RPC batch initializes past the
// session cap, 1,100 connections without the token that send nothing, and
// event streams never read. Meanwhile honest clients (the Go SDK's with
// and without a standalone stream, the TypeScript SDK's) must get every
// call answered with all its progress, and the sessions never exceed the
// cap. Then the stalled sessions must be dropped, memory and goroutines
// come back near their start, and SIGTERM, with 20 calls in flight and a
// client that reads nothing, must end serve within its bound, every call
// answered with an error that says gate is shutting down.
func TestServeMCPUnderHostileClients(t *testing.T) {
	const token = "soak-token"
	s, endpoint, upstreamCalls := serveSessions(t, token)
	goStream := goMCP(t, endpoint, token, false)
	goBare := goMCP(t, endpoint, token, true)
	ts := startTSHTTPClient(t, endpoint, token, true, mcptest.ProgressTools)
	start := s.quietest(t)
	honest := s.gauge(t, "gate_mcp_sessions")
	require.Equal(t, 3.0, honest)

	// Stalled sessions, and batch initializes kept open past the cap:
	// 300 first, then more throughout, with idle connections.
	h := newHostileClients(t, s, endpoint, token)
	defer h.start(4 * time.Second)()
	// Event streams with the token, never read.
	var streams []net.Conn
	for range 8 {
		c, err := net.DialTimeout("tcp", s.addr, mcpWait)
		require.NoError(t, err)
		defer c.Close()
		streams = append(streams, c)
		require.NoError(t, c.(*net.TCPConn).SetReadBuffer(4<<10))
		fmt.Fprintf(c, "GET /v1/events HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer %s\r\n\r\n", token)
	}
	// The honest clients, throughout.
	calls := honestCalls(t, h.ctx, ts, goStream, goBare)
	h.wait()
	t.Logf("%d honest calls, each with its progress; the most sessions open at once: %d; batch initializes refused: %d", calls, h.most.Load(), h.refused.Load())
	assert.LessOrEqual(t, h.most.Load(), int64(256), "sessions open at once")
	assert.Positive(t, h.refused.Load(), "batch initializes past the cap are refused")

	// The attackers go away, but for the stalled sessions, which gate
	// drops itself once a write to them has waited 10 s.
	h.leave()
	for _, c := range streams {
		c.Close()
	}
	require.Eventually(t, func() bool { return s.gauge(t, "gate_mcp_sessions") == honest }, 60*time.Second, 100*time.Millisecond,
		"the stalled sessions are dropped: %v sessions open, %v dropped", s.gauge(t, "gate_mcp_sessions"), s.gauge(t, `gate_mcp_sessions_dropped_total{reason="write_timeout"}`))
	assert.Equal(t, float64(stalledSessions), s.gauge(t, `gate_mcp_sessions_dropped_total{reason="write_timeout"}`), "the stalled sessions were dropped for missing a write's deadline")
	// Heap in use counts garbage until a collection runs, and an idle
	// process may run none for minutes: a reload makes serve collect
	// (returnMemoryAfterReloads), a second after it.
	require.NoError(t, s.cmd.Process.Signal(syscall.SIGHUP))
	time.Sleep(3 * time.Second)
	end := s.quietest(t)
	t.Logf("heap in use at the start %.0f, after the attacks %.0f; goroutines %.0f -> %.0f",
		start["go_memstats_heap_inuse_bytes"], end["go_memstats_heap_inuse_bytes"], start["go_goroutines"], end["go_goroutines"])
	assert.Less(t, end["go_memstats_heap_inuse_bytes"], 2*start["go_memstats_heap_inuse_bytes"]+16<<20, "memory back near its start")
	assert.LessOrEqual(t, end["go_goroutines"], start["go_goroutines"]+10, "goroutines back near their start")

	// SIGTERM with 20 calls in flight, and one whose client reads nothing.
	// (The calls are goBare's: a client with a standalone stream may see
	// that stream end before it reads its calls' answers, and fail them
	// itself.)
	stalled := &mcptest.Raw{T: t, Endpoint: endpoint, Token: token}
	stalled.Open()
	stalled.Stall(http.MethodPost, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"hang","arguments":{}}}`)
	errs := make(chan error, 20)
	for range 20 {
		go func() {
			cctx, cancel := context.WithTimeout(context.Background(), mcpWait)
			defer cancel()
			res, err := goBare.Session.CallTool(cctx, &mcp.CallToolParams{Name: "hang", Arguments: map[string]any{}})
			if err == nil {
				err = fmt.Errorf("a result: %s", mcptest.Text(res))
			}
			errs <- err
		}()
	}
	require.Eventually(t, func() bool { return upstreamCalls.N() >= 21 }, mcpWait, 10*time.Millisecond,
		"the stalled call and the 20 reach the upstream")
	sent := time.Now()
	require.NoError(t, s.cmd.Process.Signal(syscall.SIGTERM))
	for range 20 {
		select {
		case err := <-errs:
			require.Error(t, err, "a call in flight on SIGTERM")
			assert.Contains(t, err.Error(), "gate is shutting down")
		case <-time.After(mcpWait):
			t.Fatal("a call in flight got no answer on SIGTERM")
		}
	}
	select {
	case err := <-s.done:
		require.NoError(t, err, "gatectl serve exited badly after SIGTERM:\n%s", s.stderr.String())
	case <-time.After(mcpWait):
		_ = s.cmd.Process.Signal(syscall.SIGQUIT)
		time.Sleep(time.Second)
		t.Fatalf("gatectl serve did not stop within %v of SIGTERM:\n%s", mcpWait, s.stderr.String())
	}
	t.Logf("SIGTERM to exit: %v", time.Since(sent).Round(time.Millisecond))
	out := s.stderr.String()
	assert.Contains(t, out, "gatectl serve: stopped")
	for _, bad := range []string{"fatal error", "panic:", "DATA RACE"} {
		assert.NotContains(t, out, bad)
	}
}

// honestCalls has each honest client call a tool that reports its
// progress, over and over until ctx ends, and at least once (a loaded
// machine may come here after ctx has ended): every call must get its
// result and all of its progress, whatever else the server is put
// through. It returns how many calls were made.
func honestCalls(t *testing.T, ctx context.Context, ts *tsHTTPClient, gos ...*goClient) int {
	t.Helper()
	calls := 0
	for first := true; first || ctx.Err() == nil; first = false {
		for _, c := range gos {
			text, progress, err := c.steps(t, 5)
			require.NoError(t, err)
			assert.Equal(t, "done after 5 steps", text)
			assert.Equal(t, mcptest.Steps(5), progress)
		}
		e := ts.steps(t, 5)
		require.Equal(t, "result", e.Event, "%+v", e)
		assert.Equal(t, mcptest.Steps(5), e.Progress)
		calls += len(gos) + 1
	}
	return calls
}
