package main

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/gate-dev/gate/internal/mcptest"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// serveStopBound is how long gatectl serve may take to exit on SIGTERM,
// whatever its clients and upstreams do (docs/MCP.md, "Limits"): the MCP
// sessions and the HTTP requests get 5 s, then the upstreams 5 s (twice
// their stop grace and a second), and the rest takes a fraction of one.
const serveStopBound = 11 * time.Second

// lateness records how late the test process's own timers fire while it
// runs: the machine's share of a wait, not gate's.
type lateness struct {
	most atomic.Int64 // nanoseconds
	stop chan struct{}
	done chan struct{}
}

func watchLateness() *lateness {
	l := &lateness{stop: make(chan struct{}), done: make(chan struct{})}
	go func() {
		defer close(l.done)
		const tick = 20 * time.Millisecond
		for {
			before := time.Now()
			select {
			case <-l.stop:
				return
			case <-time.After(tick):
			}
			if late := time.Since(before) - tick; late > time.Duration(l.most.Load()) {
				l.most.Store(int64(late))
			}
		}
	}()
	return l
}

func (l *lateness) end() time.Duration {
	close(l.stop)
	<-l.done
	return time.Duration(l.most.Load())
}

// connectAny connects the Go SDK's client to endpoint with the token,
// from the loopback address from (127.0.0.1 when empty), and waits until
// the honest upstream's "steps" is offered (the hostile upstreams' tools
// come and go).
func connectAny(t *testing.T, endpoint, token, from string, noStream bool) *goClient {
	t.Helper()
	cl, c := mcptest.New("gatectl-every-party-client")
	ctx, cancel := context.WithTimeout(context.Background(), mcpWait)
	defer cancel()
	transport := newBearerTransport(token)
	if from != "" {
		transport.base.DialContext = func(ctx context.Context, _, addr string) (net.Conn, error) {
			return dialFrom(ctx, from, addr)
		}
	}
	cs, err := cl.Connect(ctx, &mcp.StreamableClientTransport{
		Endpoint: endpoint, HTTPClient: &http.Client{Transport: transport},
		DisableStandaloneSSE: noStream, MaxRetries: -1,
	}, nil)
	require.NoError(t, err)
	t.Cleanup(func() { _ = cs.Close() })
	c.Session = cs
	require.Eventually(t, func() bool { return slices.Contains(c.Tools(t), "steps") }, mcpWait, 20*time.Millisecond)
	c.Drain()
	return &goClient{c}
}

// TestServeMCPUnderEveryHostileParty runs gatectl serve as a real process
// in front of hostile upstreams and an honest one, and throws at it every
// hostile client of /mcp, all at once, for a few seconds. The upstreams:
// over HTTP, one whose answer never ends and one whose answers stall just
// short of the message cap; over stdio, one that floods requests and reads
// nothing, one that hangs once listed, one whose child holds its pipes and
// ignores SIGTERM, one that chatters on stderr, one whose answer is a line
// without end. The clients: sessions that read none of their streams while
// a call floods them with progress, batch initializes past the session
// cap, a batch past the request cap and a session at it, connections
// without the token that send nothing, a body trickled a byte at a time,
// calls of every hostile upstream's tools, and a reload that restarts an
// upstream. The parties of serve_mcp_parties_test.go push the rest of
// gate's bounds (docs/MCP.md, "Limits"): upstreams with a template of
// 1,002 variables and with 9,990 templates, one answering calls 400, 403
// insufficient_scope, 413 and 429, one slow past its call_timeout, a
// single-threaded one busy with a long call, one sending notifications
// that do not decode, a legacy SSE one streaming blank lines, one whose
// OAuth tokens live 3 s; and clients with 200 stalled bodies, event
// streams past a peer's share, sessions subscribing to the cap's worth of
// URIs then closing, one setting its log level to debug, one telling gate
// its roots changed without end. Meanwhile the honest clients (the Go SDK's with and without a
// standalone stream, the TypeScript SDK's) must get every call answered
// with all its progress. Then memory and goroutines must come back near
// their start, and SIGTERM, sent during a reload that restarts an upstream
// and with calls in flight on every kind of upstream, must end serve
// within its bound, every call answered, no upstream's child left.
func TestServeMCPUnderEveryHostileParty(t *testing.T) {
	const token = "every-party-token"
	exe, err := os.Executable()
	require.NoError(t, err)
	serveUpstream := func(h http.Handler) string {
		srv := httptest.NewServer(h)
		t.Cleanup(func() {
			srv.CloseClientConnections()
			srv.Close()
		})
		return srv.URL
	}
	progress := mcptest.NewProgressServer()
	// The honest and the stalling upstream count the calls they answer: the
	// SIGTERM below waits for its calls to reach them.
	upCalls := &mcptest.CallsInFlight{Next: mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return progress }, nil)}
	upURL := serveUpstream(upCalls)
	hostile := mcptest.Server()
	sdk := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return hostile }, nil)
	endlessURL := serveUpstream(&mcptest.HostileHTTP{Next: sdk, Mode: "endless", Tool: "echo"})
	stallCalls := &mcptest.CallsInFlight{Next: &mcptest.HostileHTTP{Next: sdk, Mode: "stall", Tool: "wait", Size: 15 << 20}}
	stallURL := serveUpstream(stallCalls)
	parties := startSoakParties(t, exe, serveUpstream)
	pidFile := filepath.Join(t.TempDir(), "orphan.pid")
	honestOnly := fmt.Sprintf("[[servers]]\nname = \"up\"\nurl = %q\nprefix = \"\"\n", upURL)
	servers := func(generation string) string {
		if generation == "" {
			return honestOnly
		}
		return honestOnly +
			fmt.Sprintf("\n[[servers]]\nname = \"endless\"\nprefix = \"endless_\"\nurl = %q\n", endlessURL) +
			fmt.Sprintf("\n[[servers]]\nname = \"stall\"\nprefix = \"stall_\"\nurl = %q\n", stallURL) +
			hostileEntry(exe, "deaf", "deaf") + hostileEntry(exe, "hung", "hang-after-list") +
			hostileEntry(exe, "forker", "forker", mcptest.PIDFileEnv, pidFile, "GENERATION", generation) +
			hostileEntry(exe, "chatty", "chatty") + hostileEntry(exe, "liner", "endless-line") +
			parties.servers()
	}
	var s *serveProcess
	manifest := mcpManifest(t, servers(""))
	rewrite := func(generation string) {
		writeFile(t, manifest, "[runtime]\nttl = \"30ms\"\ngrace = \"0s\"\n"+servers(generation))
		assert.NoError(t, s.cmd.Process.Signal(syscall.SIGHUP))
	}
	s = startServeArgs(t, buildGatectlBinary(t), mcpEnv(t, "GATE_TOKEN="+token, soakSecret), "-m", manifest, "--addr", "127.0.0.1:0")
	s.token = token
	t.Cleanup(func() {
		if s.cmd.ProcessState == nil {
			_ = s.cmd.Process.Kill()
		}
	})
	endpoint := "http://" + s.addr + "/mcp"

	goStream := connectAny(t, endpoint, token, "", false)
	goBare := connectAny(t, endpoint, token, "", true)
	victim := connectAny(t, endpoint, token, callerPeer, true)
	second := connectAny(t, endpoint, token, callerPeer, true)
	ts := startTSHTTPClient(t, endpoint, token, true, mcptest.ProgressTools)
	// Memory and goroutines, before the hostile upstreams come (a reload)
	// and after they have gone (another): they fail and come back for as
	// long as they are named, each holding up to a message at the cap
	// meanwhile.
	start := s.quietest(t)
	// The hostile upstreams are listed once each has answered initialize
	// within gate's connect timeout; a loaded machine may take a few of
	// its tries (the chatty one's stderr costs both processes CPU).
	hostileListed := func() {
		t.Helper()
		var missing atomic.Value
		if !assert.Eventually(t, func() bool {
			tools := victim.Tools(t)
			var absent []string
			for _, tool := range append([]string{"stall_wait", "forker_wait", "chatty_echo"}, listedTools...) {
				if !slices.Contains(tools, tool) {
					absent = append(absent, tool)
				}
			}
			missing.Store(absent)
			return len(absent) == 0
		}, 4*mcpWait, 50*time.Millisecond) {
			t.Fatalf("the hostile upstreams' tools %v are not listed; gatectl serve's log:\n%s", missing.Load(), s.stderr.String())
		}
	}
	rewrite("1")
	hostileListed()
	first := mcptest.ReadPID(t, pidFile, 0)
	parties.block(victim)
	parties.openSessions(t, endpoint, token)

	// A session at the request cap: a batch past it is refused whole, one
	// at it is held by the honest upstream's "hang", and one more request
	// is answered at once with an error.
	busy := &mcptest.Raw{T: t, Endpoint: endpoint, Token: token, Version: "2025-03-26"}
	busy.Open()
	batch := func(n int, tool string) string {
		calls := make([]string, n)
		for i := range calls {
			calls[i] = fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":%q,"arguments":{}}}`, i+10, tool)
		}
		return "[" + strings.Join(calls, ",") + "]"
	}
	code, answer := busy.Ask(batch(65, "hang"))
	require.Equal(t, http.StatusBadRequest, code, answer)
	go func() { _, _ = busy.Try(batch(64, "hang")) }()
	require.Eventually(t, func() bool {
		_, answer := busy.Ask(`{"jsonrpc":"2.0","id":1000,"method":"ping"}`)
		return strings.Contains(answer, "requests being handled, the gateway's cap")
	}, mcpWait, 20*time.Millisecond, "a session at the request cap")

	h := newHostileClients(t, s, endpoint, token)
	parties.holdConnections(t, s)
	defer h.start(5 * time.Second)()
	parties.attack(t, h, victim, second, goBare)
	// A body trickled a byte at a time, with the token and without.
	for _, auth := range []string{"Authorization: Bearer " + token + "\r\n", ""} {
		h.loop(func() {
			c, err := net.DialTimeout("tcp", s.addr, time.Second)
			if err != nil {
				return
			}
			defer c.Close()
			fmt.Fprintf(c, "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n%sContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: 100000\r\n\r\n", auth)
			for h.ctx.Err() == nil {
				if _, err := c.Write([]byte(" ")); err != nil {
					return
				}
				time.Sleep(100 * time.Millisecond)
			}
		})
	}
	// Calls of every hostile upstream's tools, each given up after 3 s.
	var hostileCalls atomic.Int64
	h.loop(func() {
		for _, tool := range []string{"endless_echo", "stall_wait", "deaf_echo", "hung_wait", "forker_wait", "chatty_echo", "liner_echo", "legacy_echo", "single_echo"} {
			go func() {
				cctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
				defer cancel()
				_, _ = victim.Session.CallTool(cctx, &mcp.CallToolParams{Name: tool, Arguments: map[string]any{"text": "x"}})
				hostileCalls.Add(1)
			}()
		}
		time.Sleep(200 * time.Millisecond)
	})
	// A reload that restarts an upstream, midway.
	h.wg.Go(func() {
		time.Sleep(2 * time.Second)
		rewrite("2")
	})

	calls := honestCalls(t, h.ctx, ts, goStream, goBare)
	h.wait()
	t.Logf("%d honest calls, each with its progress; %d calls of hostile tools; the most sessions open: %d; initializes refused: %d",
		calls, hostileCalls.Load(), h.most.Load(), h.refused.Load())
	assert.LessOrEqual(t, h.most.Load(), int64(256), "sessions open at once")
	assert.Positive(t, h.refused.Load(), "initializes past the cap are refused")
	parties.checkAttack(t, s, goBare)
	secondPID := mcptest.ReadPID(t, pidFile, first)

	// The attackers go away, and so do the hostile upstreams (a reload),
	// their children with them; the stalled sessions are dropped once a
	// write to them has waited 10 s, and the busy session's calls end when
	// its upstream answers them, after 15 s.
	rewrite("")
	require.Eventually(t, func() bool { return slices.Equal(victim.Tools(t), mcptest.ProgressTools) }, mcpWait, 50*time.Millisecond)
	for _, pid := range []int{first, secondPID} {
		require.Eventually(t, func() bool { return mcptest.ProcessGone(pid) }, mcpWait, 10*time.Millisecond,
			"an upstream's child (pid %d) outlived its upstream", pid)
	}
	h.leave()
	parties.checkGone(t, s)
	honest := 6.0 // goStream, goBare, victim, second, the TypeScript client, busy
	if !assert.Eventually(t, func() bool { return s.gauge(t, "gate_mcp_sessions") == honest }, 60*time.Second, 100*time.Millisecond) {
		t.Fatalf("%v sessions open, not the %v honest ones: the stalled sessions are not dropped (%v dropped for a late write) or another outlived its client (%d batch initializes failed)",
			s.gauge(t, "gate_mcp_sessions"), honest, s.gauge(t, `gate_mcp_sessions_dropped_total{reason="write_timeout"}`), h.failed.Load())
	}
	require.Eventually(t, func() bool {
		_, answer := busy.Ask(`{"jsonrpc":"2.0","id":1001,"method":"ping"}`)
		return !strings.Contains(answer, "requests being handled")
	}, 30*time.Second, 100*time.Millisecond, "the busy session's calls end")
	// A reload makes serve collect its garbage a second after it
	// (returnMemoryAfterReloads); the upstreams are the same.
	// On a loaded machine that collection may come late, or before the
	// last of the attacks' garbage is let go: the heap is read again, after
	// another reload's collection, for up to 20 s before it counts as kept.
	// Memory something still holds stays whatever collects.
	require.NoError(t, s.cmd.Process.Signal(syscall.SIGHUP))
	heapBound := 2*start["go_memstats_heap_inuse_bytes"] + 16<<20
	var end map[string]float64
	for wait := time.Now().Add(20 * time.Second); ; {
		time.Sleep(2 * time.Second)
		if end = s.quietest(t); end["go_memstats_heap_inuse_bytes"] < heapBound || time.Now().After(wait) {
			break
		}
		t.Logf("heap in use %.0f, over %.0f: reload, and read again", end["go_memstats_heap_inuse_bytes"], heapBound)
		require.NoError(t, s.cmd.Process.Signal(syscall.SIGHUP))
	}
	t.Logf("heap in use at the start %.0f, after the attacks %.0f; goroutines %.0f -> %.0f",
		start["go_memstats_heap_inuse_bytes"], end["go_memstats_heap_inuse_bytes"], start["go_goroutines"], end["go_goroutines"])
	assert.Less(t, end["go_memstats_heap_inuse_bytes"], heapBound, "memory back near its start")
	assert.LessOrEqual(t, end["go_goroutines"], start["go_goroutines"]+10, "goroutines back near their start")

	// SIGTERM during a reload that restarts an upstream, with calls in
	// flight on the honest upstream and the hostile ones.
	errs := make(chan error, 40)
	inFlight := func(c *goClient, tool string, n int) {
		for range n {
			go func() {
				cctx, cancel := context.WithTimeout(context.Background(), 2*serveStopBound)
				defer cancel()
				res, err := c.Session.CallTool(cctx, &mcp.CallToolParams{Name: tool, Arguments: map[string]any{}})
				if err == nil {
					err = fmt.Errorf("a result: %s", mcptest.Text(res))
				}
				errs <- err
			}()
		}
	}
	rewrite("3")
	hostileListed()
	third := mcptest.ReadPID(t, pidFile, secondPID)
	inFlight(goBare, "hang", 20)
	inFlight(victim, "stall_wait", 5)
	require.Eventually(t, func() bool { return upCalls.N() >= 20 && stallCalls.N() >= 5 }, mcpWait, 10*time.Millisecond,
		"the calls reach their upstreams")
	rewrite("4")
	late := watchLateness()
	sent := time.Now()
	require.NoError(t, s.cmd.Process.Signal(syscall.SIGTERM))
	var took time.Duration
	select {
	case err := <-s.done:
		took = time.Since(sent)
		require.NoError(t, err, "gatectl serve exited badly after SIGTERM:\n%s", s.stderr.String())
	case <-time.After(3 * serveStopBound):
		_ = s.cmd.Process.Signal(syscall.SIGQUIT)
		time.Sleep(time.Second)
		t.Fatalf("gatectl serve did not stop within %v of SIGTERM:\n%s", 3*serveStopBound, s.stderr.String())
	}
	machine := late.end()
	t.Logf("SIGTERM to exit: %v (the test's own timers were up to %v late meanwhile)", took.Round(time.Millisecond), machine.Round(time.Millisecond))
	assert.LessOrEqual(t, took, serveStopBound+machine, "exit on SIGTERM took %v, past the bound of %v and the machine's %v", took, serveStopBound, machine)
	for range 25 {
		select {
		case err := <-errs:
			require.Error(t, err, "a call in flight on SIGTERM")
			assert.Contains(t, err.Error(), "gate is shutting down")
		case <-time.After(mcpWait):
			t.Fatal("a call in flight got no answer on SIGTERM")
		}
	}
	assert.True(t, mcptest.ProcessGone(third), "an upstream's child (pid %d) outlived gatectl serve", third)
	// The reload's upstream may have been stopped before it wrote its
	// child's pid (its child, started first, is in its group).
	if b, err := os.ReadFile(pidFile); err == nil {
		if fourth, err := strconv.Atoi(string(b)); err == nil && fourth != third {
			assert.True(t, mcptest.ProcessGone(fourth), "the reloaded upstream's child (pid %d) outlived gatectl serve", fourth)
		}
	}
	out := s.stderr.String()
	assert.Contains(t, out, "gatectl serve: stopped")
	for _, bad := range []string{"fatal error", "panic:", "DATA RACE"} {
		assert.NotContains(t, out, bad)
	}
}
