package mcpgw_test

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gate-dev/gate/internal/mcpgw"
	"github.com/gate-dev/gate/runtime"
)

// eventLog records a service's events of one type ("breaker", "drift").
type eventLog struct {
	typ    string
	mu     sync.Mutex
	events []runtime.Event
}

func (l *eventLog) add(e runtime.Event) {
	if e.Type == l.typ {
		l.mu.Lock()
		l.events = append(l.events, e)
		l.mu.Unlock()
	}
}

// states lists the states of the events about name, in order.
func (l *eventLog) states(name string) []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []string
	for _, e := range l.events {
		if e.Name == name {
			out = append(out, e.State)
		}
	}
	return out
}

// wait waits until server's breaker has gone through want, and returns
// the event of want's last state. Later states may have come already: a
// loaded machine can look only after the cool-down has passed.
func (l *eventLog) wait(t *testing.T, server string, want ...string) runtime.Event {
	t.Helper()
	require.Eventually(t, func() bool { return len(l.states(server)) >= len(want) }, waitFor, 5*time.Millisecond,
		"breaker of %s: want %v", server, want)
	l.mu.Lock()
	defer l.mu.Unlock()
	var seen []runtime.Event
	var states []string
	for _, e := range l.events {
		if e.Name == server && len(seen) < len(want) {
			seen = append(seen, e)
			states = append(states, e.State)
		}
	}
	require.Equal(t, want, states, "breaker of %s", server)
	return seen[len(seen)-1]
}

func watchBreakers(h *harness) *eventLog { return h.watchEvents("breaker") }

// watchEvents records the service's events of type typ from now on.
func (h *harness) watchEvents(typ string) *eventLog {
	l := &eventLog{typ: typ}
	h.t.Cleanup(h.svc.Subscribe(l.add))
	return l
}

// backend is a stateless streamable-HTTP MCP server (as a serverless or
// load-balanced one runs: no session, no standing event stream whose end
// would tell gate) that can be killed, its listener closed and every
// connection cut, and started again on the same address.
type backend struct {
	t       *testing.T
	url     string
	handler http.Handler
	srv     *http.Server
}

func newBackend(t *testing.T, s *mcp.Server) *backend {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	b := &backend{t: t, url: "http://" + l.Addr().String(), handler: mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, &mcp.StreamableHTTPOptions{Stateless: true})}
	b.serve(l)
	t.Cleanup(b.kill)
	return b
}

func (b *backend) serve(l net.Listener) {
	b.srv = &http.Server{Handler: b.handler}
	// No idle connection outlives the backend: each call after it dies
	// finds nothing listening (not a pooled connection's EOF).
	b.srv.SetKeepAlivesEnabled(false)
	go func() { _ = b.srv.Serve(l) }()
}

func (b *backend) kill() {
	if b.srv != nil {
		_ = b.srv.Close()
		b.srv = nil
	}
}

func (b *backend) restart() { b.serve(listenOn(b.t, b.url)) }

// A backend that dies while a client keeps calling opens the breaker
// after the manifest's count of failed calls: the tools are hidden once,
// with a reason that names the breaker, and come back once when the
// backend and its probe are back.
func TestBreakerHidesAServerWhoseBackendDies(t *testing.T) {
	be := newBackend(t, newUpstreamServer(""))
	health := newListener(t) // what the server's probe watches
	reg := prometheus.NewRegistry()
	// A cool-down of an hour: the tools come back by the probe alone.
	h := start(t, fmt.Sprintf(`
[[servers]]
name = "web"
url = %q
prefix = "w_"
probe = "tcp:%s"
breaker = { failures = 3, window = "1m", cooldown = "1h" }
`, be.url, health.addr), fastConfig().WithMetrics(reg))
	breakers := watchBreakers(h)
	c := h.client()
	all := prefixed("w_", upstreamTools...)
	c.WaitTools(t, all...)
	c.settle()

	before := h.gw.Changes()
	var refused []error
	for i := 0; ; i++ {
		if i == 5 {
			be.kill() // mid-traffic: the calls before went through
		}
		res, err := c.call(t, "w_echo", map[string]any{"text": "hi"})
		if i < 5 {
			require.NoError(t, err, "call %d", i)
			assert.Equal(t, "echo: hi", textOf(res))
			continue
		}
		require.Error(t, err, "call %d, after the backend died", i)
		if strings.Contains(err.Error(), "is not available now") {
			// Refused by gate: the breaker opened.
			notAvailable(t, err, "server web's breaker is open: 3 calls in a row failed (last: server web: ", runtime.CodeBreakerOpen)
			assert.Contains(t, err.Error(), "connection refused")
			refused = append(refused, err)
			if len(refused) == 3 {
				break
			}
		}
		require.Less(t, i, 5+3+3, "the breaker did not open after 3 failed calls")
	}
	opened := breakers.wait(t, "web", mcpgw.BreakerOpen)
	assert.False(t, opened.Available)
	assert.Contains(t, opened.Reason, "3 calls in a row failed (last: server web: ")
	assert.Equal(t, runtime.CodeBreakerOpen, opened.Code)
	n := c.WaitTools(t) + c.settle()
	oneChange(t, h, before, n, "the breaker hides the tools once")
	require.Len(t, h.gw.Upstreams(), 1)
	assert.Equal(t, mcpgw.BreakerOpen, h.gw.Upstreams()[0].Breaker)
	assert.Equal(t, mcpgw.StateReady, h.gw.Upstreams()[0].State, "the session is fine: only the calls fail")
	assert.Equal(t, 1.0, value(t, reg, "gate_mcp_breaker_opens_total", "server", "web"))
	assert.Equal(t, 1.0, value(t, reg, "gate_mcp_breaker_state", "server", "web", "state", mcpgw.BreakerOpen))
	assert.Equal(t, 0.0, value(t, reg, "gate_mcp_breaker_state", "server", "web", "state", mcpgw.BreakerClosed))

	// The probe sees the failure too: the tools stay hidden, for the
	// probe's reason now, and nothing changes for the client.
	before = h.gw.Changes()
	health.close()
	require.Eventually(t, func() bool {
		return strings.Contains(h.gw.Hidden()["w_echo"], "server web is unavailable")
	}, waitFor, 5*time.Millisecond)
	assert.Zero(t, c.settle(), "no list_changed while the tools stay hidden")
	assert.Equal(t, before, h.gw.Changes())

	// Back: the backend, then its probe, which closes the breaker.
	be.restart()
	health.reopen()
	n = c.WaitTools(t, all...) + c.settle()
	oneChange(t, h, before, n, "the tools come back once")
	closed := breakers.wait(t, "web", mcpgw.BreakerOpen, mcpgw.BreakerClosed)
	assert.True(t, closed.Available)
	assert.Empty(t, closed.Code, "a closed breaker hides nothing")
	assert.Equal(t, "its probe says available again", closed.Reason)
	assert.Equal(t, 1.0, value(t, reg, "gate_mcp_breaker_state", "server", "web", "state", mcpgw.BreakerClosed))
	assert.Equal(t, 1.0, value(t, reg, "gate_mcp_breaker_opens_total", "server", "web"))
	assert.Equal(t, mcpgw.BreakerClosed, h.gw.Upstreams()[0].Breaker)
	res, err := c.call(t, "w_echo", map[string]any{"text": "again"})
	require.NoError(t, err)
	assert.Equal(t, "echo: again", textOf(res))
}

// A tool's isError result and its server's JSON-RPC error are the
// server's answers, and calls gate refuses itself, or that run past their
// call timeout, are their calls' failures: none of them opens the
// breaker, however many in a row. A server's 5xx seen by two clients
// does; then, the server having no probe, the tools come back after the
// cool-down for a trial call, which closes it.
func TestBreakerCountsFailuresNotAnswers(t *testing.T) {
	s, _ := statusServer(503)
	s.AddTool(&mcp.Tool{Name: "oops", InputSchema: objectSchema}, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: "the tool says no"}}}, nil
	})
	url := serveHTTP(t, &statusUpstream{next: mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, nil)})
	h := start(t, fmt.Sprintf(`
[[servers]]
name = "web"
url = %q
prefix = "w_"
call_timeout = "500ms"
breaker = { failures = 2, cooldown = "20ms" }
`, url), fastConfig())
	breakers := watchBreakers(h)
	c, other := h.client(), h.client()
	all := append(prefixed("w_", upstreamTools...), "w_oops", "w_s503")
	c.WaitTools(t, all...)
	c.settle()

	before := h.gw.Changes()
	// Each kind in a row, so that none resets another's count.
	for range 5 {
		res, err := c.call(t, "w_oops", nil)
		require.NoError(t, err)
		assert.True(t, res.IsError)
	}
	for range 5 {
		_, err := c.call(t, "w_fail", nil)
		require.ErrorContains(t, err, "the upstream refuses")
	}
	for range 5 {
		_, err := c.call(t, "w_nothing", nil)
		notAvailable(t, err, "gate offers no tool of that name", runtime.CodeNoSuchTool)
	}
	hung := make(chan error, 5)
	for range 5 {
		go func() {
			_, err := c.call(t, "w_hang", nil)
			hung <- err
		}()
	}
	for range 5 {
		require.ErrorContains(t, <-hung, "did not answer the call of w_hang within 500ms")
	}
	assert.Empty(t, breakers.states("web"))
	assert.Equal(t, before, h.gw.Changes())

	// A 5xx from each of two clients in a row opens it.
	for _, cl := range []*client{c, other} {
		_, err := cl.call(t, "w_s503", nil)
		require.ErrorContains(t, err, "HTTP 503 Service Unavailable")
	}
	opened := breakers.wait(t, "web", mcpgw.BreakerOpen)
	assert.Contains(t, opened.Reason, "2 calls in a row failed (last: server web failed the call of w_s503: it answered HTTP 503 Service Unavailable)")
	// The cool-down passes; the session is ready: a trial.
	breakers.wait(t, "web", mcpgw.BreakerOpen, mcpgw.BreakerHalfOpen)
	c.WaitTools(t, all...)
	res, err := c.call(t, "w_echo", map[string]any{"text": "trial"})
	require.NoError(t, err)
	assert.Equal(t, "echo: trial", textOf(res))
	closed := breakers.wait(t, "web", mcpgw.BreakerOpen, mcpgw.BreakerHalfOpen, mcpgw.BreakerClosed)
	assert.Equal(t, "a trial call was answered", closed.Reason)
	c.settle()
	assert.Equal(t, all, c.Tools(t))
}
