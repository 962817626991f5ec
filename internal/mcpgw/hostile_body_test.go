package mcpgw_test

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// These clients send a /mcp POST's headers and part of its body, then
// stall: the slow senders that once held 4 MiB each, with no bound on
// them together. Each comes from a loopback address of its own, a peer of
// its own as gate sees it (Linux answers all of 127.0.0.0/8).

// stalledBody is a connection from the loopback address from to h that
// sent a POST declaring a body of declared bytes and sent sent of them.
type stalledBody struct {
	net.Conn
	r *bufio.Reader
}

func stallBody(t *testing.T, h *harness, from string, declared, sent int) *stalledBody {
	t.Helper()
	d := net.Dialer{Timeout: waitFor, LocalAddr: &net.TCPAddr{IP: net.ParseIP(from)}}
	c, err := d.Dial("tcp", strings.TrimPrefix(h.url, "http://"))
	require.NoError(t, err)
	t.Cleanup(func() { c.Close() })
	head := fmt.Sprintf("POST / HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: %d\r\n\r\n", strings.TrimPrefix(h.url, "http://"), declared)
	require.NoError(t, c.SetWriteDeadline(time.Now().Add(waitFor)))
	_, err = io.WriteString(c, head+strings.Repeat(" ", sent))
	require.NoError(t, err)
	return &stalledBody{Conn: c, r: bufio.NewReader(c)}
}

// answer reads gate's answer to the stalled request, within the wait.
func (s *stalledBody) answer(t *testing.T) *http.Response {
	t.Helper()
	require.NoError(t, s.SetReadDeadline(time.Now().Add(waitFor)))
	resp, err := http.ReadResponse(s.r, nil)
	require.NoError(t, err, "gate answers the stalled request")
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp
}

// gaugeValue is the value of the gauge name in reg.
func gaugeValue(t *testing.T, reg *prometheus.Registry, name string) float64 {
	t.Helper()
	families, err := reg.Gather()
	require.NoError(t, err)
	for _, f := range families {
		if f.GetName() == name {
			return f.Metric[0].GetGauge().GetValue()
		}
	}
	t.Fatalf("no metric %s", name)
	return 0
}

// bodyBytes waits until the bodies being read hold want bytes, as gate
// counts them.
func bodyBytes(t *testing.T, reg *prometheus.Registry, want int) {
	t.Helper()
	require.Eventually(t, func() bool {
		return gaugeValue(t, reg, "gate_mcp_request_body_bytes") == float64(want)
	}, waitFor, 5*time.Millisecond, "the bodies being read hold %d bytes (now %v)", want, gaugeValue(t, reg, "gate_mcp_request_body_bytes"))
}

// A peer that stalls bodies is refused past its share of the body budget,
// with 429 and Retry-After, alone: gate holds no more of it than its share,
// another peer's stalled bodies are still read, an honest client
// initializes and lists its tools; past the global bound, whoever asks is
// refused with 503; everything is given back when the stalled connections
// close. (Before, every body was read whole up to the request cap, with no
// bound on them together.)
func TestHostileBodiesAreRefusedPastTheirShare(t *testing.T) {
	const (
		declared = 64 << 10
		// A body of known length is read into buffers of its length,
		// all of them made once all but its last byte are in.
		held = declared
	)
	reg := prometheus.NewRegistry()
	h := start(t, "", fastConfig().WithMetrics(reg).WithMaxRequestBytes(declared).
		WithRequestBodyBudget(5*held+1024, 3*held).WithRequestBodyTimeout(time.Hour))

	var hostile []*stalledBody
	for i := range 3 {
		hostile = append(hostile, stallBody(t, h, "127.0.0.2", declared, declared-1))
		bodyBytes(t, reg, (i+1)*held)
	}
	for range 5 {
		over := stallBody(t, h, "127.0.0.2", declared, declared-1)
		resp := over.answer(t)
		assert.Equal(t, http.StatusTooManyRequests, resp.StatusCode, "a body past the peer's share")
		assert.NotEmpty(t, resp.Header.Get("Retry-After"))
		assert.True(t, closedBy(t, over), "the refused body's connection is closed")
	}
	bodyBytes(t, reg, 3*held)
	assert.Equal(t, 5.0, counterValue(t, reg, "gate_mcp_request_bodies_refused_total", "peer_share"))

	// Another peer's bodies are read, and an honest client is served.
	other := []*stalledBody{stallBody(t, h, "127.0.0.3", declared, declared-1), stallBody(t, h, "127.0.0.3", declared, declared-1)}
	bodyBytes(t, reg, 5*held)
	c := h.client()
	c.Tools(t)

	// The budget is held whole: whoever asks now is refused, with 503.
	full := stallBody(t, h, "127.0.0.4", declared, declared-1)
	resp := full.answer(t)
	assert.Equal(t, http.StatusServiceUnavailable, resp.StatusCode, "a body past the global bound")
	assert.NotEmpty(t, resp.Header.Get("Retry-After"))
	assert.Equal(t, 1.0, counterValue(t, reg, "gate_mcp_request_bodies_refused_total", "total"))

	// Everything is given back once the stalled connections close.
	for _, s := range append(hostile, other...) {
		s.Close()
	}
	bodyBytes(t, reg, 0)
	c.Tools(t)
}

// A body that stalls is its own client's timeout: answered 408 and its
// connection closed once the body timeout passes, its bytes given back;
// an honest client is served meanwhile.
func TestStalledBodyTimesOut(t *testing.T) {
	reg := prometheus.NewRegistry()
	h := start(t, "", fastConfig().WithMetrics(reg).WithRequestBodyTimeout(200*time.Millisecond))
	slow := stallBody(t, h, "127.0.0.2", 1<<20, 100<<10)
	h.client().Tools(t)
	resp := slow.answer(t)
	assert.Equal(t, http.StatusRequestTimeout, resp.StatusCode)
	assert.True(t, closedBy(t, slow), "the stalled body's connection is closed")
	bodyBytes(t, reg, 0)
	assert.Equal(t, 1.0, counterValue(t, reg, "gate_mcp_request_bodies_refused_total", "timeout"))
}

// A body declared larger than the request cap is refused before a byte of
// it is read or charged.
func TestBodyDeclaredTooLarge(t *testing.T) {
	reg := prometheus.NewRegistry()
	h := start(t, "", fastConfig().WithMetrics(reg).WithMaxRequestBytes(64<<10))
	big := stallBody(t, h, "127.0.0.2", 64<<10+1, 0)
	assert.Equal(t, http.StatusRequestEntityTooLarge, big.answer(t).StatusCode)
	bodyBytes(t, reg, 0)
}
