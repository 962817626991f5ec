package server

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/gate-dev/gate/internal/mcpgw"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A hostile peer (127.0.0.2; Linux answers all of 127.0.0.0/8) takes what
// a client without the token may on loopback, as fast as it can: event
// streams, stalled /mcp bodies, idle connections. Another peer must be
// served beside it.

// hostileWait bounds every wait of these tests.
const hostileWait = 10 * time.Second

// labeled is the value of the counter name{reason=reason} in m.
func labeled(t *testing.T, m *Metrics, name, reason string) float64 {
	t.Helper()
	families, err := m.Registry.Gather()
	require.NoError(t, err)
	for _, f := range families {
		if f.GetName() != name {
			continue
		}
		for _, s := range f.Metric {
			if len(s.Label) == 1 && s.Label[0].GetValue() == reason {
				return s.GetCounter().GetValue()
			}
		}
	}
	t.Fatalf("no metric %s{reason=%q}", name, reason)
	return 0
}

// waitMetric waits until the gauge or counter name in m is want.
func waitMetric(t *testing.T, m *Metrics, name string, want float64) {
	t.Helper()
	require.Eventually(t, func() bool { return metricValue(t, m, name) == want },
		hostileWait, 5*time.Millisecond, "%s is %v, not %v", name, metricValue(t, m, name), want)
}

// ask sends req on c and reads the answer's head; its body is left to
// come (an event stream's never ends).
func (c *rawConn) ask(t *testing.T, req string) *http.Response {
	t.Helper()
	require.NoError(t, c.SetDeadline(time.Now().Add(hostileWait)))
	_, err := io.WriteString(c, req)
	require.NoError(t, err)
	resp, err := http.ReadResponse(c.r, nil)
	require.NoError(t, err)
	return resp
}

// mcpFixture serves the API with the MCP gateway at /mcp over a one-tool
// manifest, as gatectl serve does, with the given limits.
func mcpFixture(t *testing.T, metrics *Metrics, gw mcpgw.Config, opts Options, sopts ServerOptions) *fixture {
	t.Helper()
	path := writeManifest(t, t.TempDir(), "[[tools]]\nname = \"echo\"\ndescription = \"Always here.\"\n")
	svc := openService(t, path, metrics, serviceConfig(metrics, nil))
	runService(t, svc)
	g := mcpgw.New(svc, gw.WithMetrics(metrics.Registry))
	ctx, cancel := context.WithCancel(context.Background())
	ran := make(chan struct{})
	go func() { defer close(ran); _ = g.Run(ctx) }()
	t.Cleanup(func() {
		closing, stop := context.WithTimeout(context.Background(), 5*time.Second)
		defer stop()
		_ = g.CloseSessionsContext(closing)
		cancel()
		<-ran
	})
	opts.MCP = g.Handler()
	f := serveWith(t, svc, metrics, opts, sopts)
	metrics.WatchListener(f.listener)
	return f
}

// honest is another peer's use of everything: /v1/status, an MCP session
// that initializes and lists its tools, an event stream (returned open).
func honest(t *testing.T, f *fixture) *sseClient {
	t.Helper()
	assert.Equal(t, http.StatusOK, f.get(t, "/v1/status").code, "another peer's /v1/status")
	ctx, cancel := context.WithTimeout(context.Background(), hostileWait)
	defer cancel()
	cl := mcp.NewClient(&mcp.Implementation{Name: "honest", Version: "1"}, nil)
	cs, err := cl.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: f.url + "/mcp", MaxRetries: -1}, nil)
	require.NoError(t, err, "another peer's MCP initialize")
	defer cs.Close()
	_, err = cs.ListTools(ctx, nil)
	require.NoError(t, err, "another peer's tools/list")
	events := openEvents(t, f, "")
	events.waitFor(t, hostileWait, "hello", isEvent("hello"))
	return events
}

// TestHostilePeerHoldsOnlyItsShare: a peer that opens event streams,
// stalls /mcp bodies and holds idle connections gets its share of each
// and is refused past it (429 for a stream or a body, its new connection
// closed at once), while another peer's requests, MCP session and event
// stream are served; what gate holds for it is bounded by its counters,
// and every share is given back when its connections close. (Before, one
// peer's streams took every connection slot and its bodies the request
// cap each, with no bound on them together.)
func TestHostilePeerHoldsOnlyItsShare(t *testing.T) {
	const (
		declared  = 64 << 10
		bodyHeld  = declared // a body of known length is read into buffers of its length
		streams   = 8
		bodies    = 3
		peerConns = 16
		hostile   = "127.0.0.2"
	)
	metrics := NewMetrics()
	f := mcpFixture(t, metrics,
		mcpgw.NewConfig().WithMaxRequestBytes(declared).WithRequestBodyBudget(8*bodyHeld, bodies*bodyHeld).WithRequestBodyTimeout(time.Hour),
		Options{MaxStreams: 3 * streams, MaxPeerStreams: streams},
		ServerOptions{MaxConns: 64, MaxPeerConns: peerConns})
	addr := strings.TrimPrefix(f.url, "http://")
	var held []*rawConn

	// Event streams: its share, then 429, the connection closed.
	for i := range 2 * streams {
		c := dialFrom(t, hostile, addr)
		resp := c.ask(t, get("/v1/events", ""))
		if i < streams {
			require.Equal(t, http.StatusOK, resp.StatusCode, "stream %d, within the peer's share", i)
			held = append(held, c)
			continue
		}
		assert.Equal(t, http.StatusTooManyRequests, resp.StatusCode, "stream %d, past the peer's share", i)
		assert.NotEmpty(t, resp.Header.Get("Retry-After"))
		assert.True(t, c.closedByServer(t), "a refused stream's connection is closed")
	}
	waitMetric(t, metrics, "gate_event_streams", streams)
	assert.Equal(t, float64(streams), labeled(t, metrics, "gate_event_streams_refused_total", "peer_share"))

	// Stalled bodies: its share of the body budget, then 429.
	post := fmt.Sprintf("POST /mcp HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: %d\r\n\r\n%s", addr, declared, strings.Repeat(" ", declared-1))
	for i := range bodies {
		c := dialFrom(t, hostile, addr)
		_, err := io.WriteString(c, post)
		require.NoError(t, err)
		held = append(held, c)
		waitMetric(t, metrics, "gate_mcp_request_body_bytes", float64((i+1)*bodyHeld))
	}
	open := metricValue(t, metrics, "gate_http_connections")
	over := dialFrom(t, hostile, addr)
	resp := over.ask(t, post)
	assert.Equal(t, http.StatusTooManyRequests, resp.StatusCode, "a body past the peer's share")
	assert.True(t, over.closedByServer(t), "a refused body's connection is closed")
	// The server half-closes a connection whose client may still be
	// sending and closes it a moment later (net/http's reset-avoidance
	// delay), which is when its slot is given back: the idle connections
	// below count from then.
	waitMetric(t, metrics, "gate_http_connections", open)

	// Idle connections, each proven by a request: its share of the
	// slots; then a request on a connection opened before is refused,
	// and a new connection closed at once.
	late := dialFrom(t, hostile, addr)
	for len(held) < peerConns {
		c := dialFrom(t, hostile, addr)
		require.Equal(t, http.StatusOK, c.roundTrip(t, get("/v1/status", "")).StatusCode)
		held = append(held, c)
	}
	resp = late.ask(t, get("/v1/status", ""))
	assert.Equal(t, http.StatusTooManyRequests, resp.StatusCode, "a request on a connection past the peer's share")
	assert.NotEmpty(t, resp.Header.Get("Retry-After"))
	assert.True(t, late.closedByServer(t), "its connection is closed")
	for range 5 {
		assert.True(t, dialFrom(t, hostile, addr).closedByServer(t), "a connection past the peer's share is closed at once")
	}
	assert.Equal(t, 5.0, metricValue(t, metrics, "gate_http_connections_peer_refused_total"))
	n, _ := f.listener.provenBy(hostile)
	assert.Equal(t, peerConns, n, "the hostile peer holds its share of the connections, no more")

	// What gate holds for it is its shares, no more, and another peer is
	// served.
	events := honest(t, f)
	waitMetric(t, metrics, "gate_event_streams", streams+1)
	assert.Equal(t, float64(bodies*bodyHeld), metricValue(t, metrics, "gate_mcp_request_body_bytes"))

	// Everything is given back when its connections close.
	for _, c := range held {
		c.Close()
	}
	waitMetric(t, metrics, "gate_event_streams", 1)
	waitMetric(t, metrics, "gate_mcp_request_body_bytes", 0)
	require.Eventually(t, func() bool { _, known := f.listener.provenBy(hostile); return !known }, hostileWait, 5*time.Millisecond, "the hostile peer's connections are forgotten")
	assert.Zero(t, f.srv.hub.open.HeldBy(hostile), "the hostile peer's streams are given back")
	assert.Equal(t, 1, f.srv.hub.open.Parties(), "only the honest peer holds a stream")
	events.close()
	require.Eventually(t, func() bool { return f.srv.hub.open.Parties() == 0 }, hostileWait, 5*time.Millisecond, "a closed stream gives its place back")

	// And the hostile peer may come back within its share.
	c := dialFrom(t, hostile, addr)
	assert.Equal(t, http.StatusOK, c.ask(t, get("/v1/events", "")).StatusCode)
}

// TestStreamsPastTheTotal: past the server's cap of streams, a stream is
// refused with 503, whichever peer asks, until one ends.
func TestStreamsPastTheTotal(t *testing.T) {
	metrics := NewMetrics()
	f := mcpFixture(t, metrics, mcpgw.NewConfig(), Options{MaxStreams: 4, MaxPeerStreams: 2}, ServerOptions{})
	addr := strings.TrimPrefix(f.url, "http://")
	var open []*rawConn
	for _, peer := range []string{"127.0.0.2", "127.0.0.2", "127.0.0.3", "127.0.0.3"} {
		c := dialFrom(t, peer, addr)
		require.Equal(t, http.StatusOK, c.ask(t, get("/v1/events", "")).StatusCode)
		open = append(open, c)
	}
	c := dialFrom(t, "127.0.0.4", addr)
	resp := c.ask(t, get("/v1/events", ""))
	assert.Equal(t, http.StatusServiceUnavailable, resp.StatusCode)
	assert.NotEmpty(t, resp.Header.Get("Retry-After"))
	assert.Equal(t, 1.0, labeled(t, metrics, "gate_event_streams_refused_total", "total"))
	open[0].Close()
	waitMetric(t, metrics, "gate_event_streams", 3)
	assert.Equal(t, http.StatusOK, dialFrom(t, "127.0.0.4", addr).ask(t, get("/v1/events", "")).StatusCode)
}
