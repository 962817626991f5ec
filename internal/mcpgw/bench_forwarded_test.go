package mcpgw_test

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// BenchmarkForwardedCalls runs 1, 16 and 64 client sessions, each calling
// the upstream's echo tool in a loop at once, directly and through the
// gateway, against one upstream over streamable HTTP on loopback (docs/
// BENCHMARKS.md, "Many sessions calling at once"). Every client session
// has an HTTP client of its own, as separate clients would. Beside ns/op
// (wall time per call, all sessions together: calls/s is 1e9 over it), it
// reports p50-µs and p99-µs over the calls, cpu-µs/op (the whole
// process's CPU per call), and conns/1000calls: the TCP
// connections the upstream accepted during the run per 1,000 calls, from
// a listener that counts them (the same listener for both sides).
//
// Each count runs twice: with tool=echo, which answers at once, so that
// the run measures nothing but the path a call takes; and with
// tool=api20ms, which waits 20 ms before it answers as a tool that calls
// a remote API waits for it, so that the run measures what the path adds
// to a call whose tool does some work.
//
//	go test -c -o /tmp/gw.test ./gateway && cd gateway
//	for i in $(seq 5); do /tmp/gw.test -test.run '^$' -test.bench ForwardedCalls -test.benchtime 2s >> /tmp/fwd.txt; done
//	benchstat -col /via /tmp/fwd.txt
func BenchmarkForwardedCalls(b *testing.B) {
	b.Cleanup(noLeaks(b))
	const most = 64
	s := newUpstreamServer("")
	s.AddTool(&mcp.Tool{Name: "api20ms", InputSchema: objectSchema}, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(apiWork):
		}
		return text("echo: " + parse(req).Text), nil
	})
	up := countingUpstream(b, s)
	h := startB(b, fmt.Sprintf("[[servers]]\nname = \"web\"\nurl = %q\nprefix = \"w_\"\n", up.url), fastConfig())
	waitOffered(b, h.gw, len(upstreamTools)+1)
	direct := make([]*mcp.ClientSession, most)
	via := make([]*mcp.ClientSession, most)
	for i := range most {
		direct[i] = connectB(b, up.url, nil)
		via[i] = connectB(b, h.url, nil)
	}
	for _, tool := range []string{"echo", "api20ms"} {
		for _, n := range []int{1, 16, 64} {
			for _, v := range []struct {
				name, prefix string
				cs           []*mcp.ClientSession
			}{{"via=direct", "", direct[:n]}, {"via=gateway", "w_", via[:n]}} {
				b.Run(fmt.Sprintf("tool=%s/sessions=%d/%s", tool, n, v.name), func(b *testing.B) {
					forwardedCalls(b, up, v.cs, &mcp.CallToolParams{Name: v.prefix + tool, Arguments: map[string]any{"text": "hi"}})
				})
			}
		}
	}
}

// apiWork is how long the api20ms tool waits before it answers.
const apiWork = 20 * time.Millisecond

// forwardedCalls is one run of BenchmarkForwardedCalls: b.N calls of
// params from every session of cs at once.
func forwardedCalls(b *testing.B, up *countedUpstream, cs []*mcp.ClientSession, params *mcp.CallToolParams) {
	// One call from every session at once before the clock starts: the
	// connections a run needs are open.
	callAll(b, cs, params, len(cs))
	accepted, cpu0 := up.accepted.Load(), processCPU()
	b.ResetTimer()
	lat := callAll(b, cs, params, b.N)
	b.StopTimer()
	reportPercentiles(b, lat, time.Microsecond, "µs")
	b.ReportMetric(float64(up.accepted.Load()-accepted)*1000/float64(b.N), "conns/1000calls")
	// The CPU of the whole process (clients, gateway, upstream): with
	// every core busy, calls/s follows it.
	if cpu := processCPU() - cpu0; cpu > 0 {
		b.ReportMetric(float64(cpu)/float64(time.Microsecond)/float64(b.N), "cpu-µs/op")
	}
}

// callAll makes calls of params, from every session of cs at once, each
// taking the next until there have been calls in all, and returns how
// long each took.
func callAll(b *testing.B, cs []*mcp.ClientSession, params *mcp.CallToolParams, calls int) []time.Duration {
	var next atomic.Int64
	lats := make([][]time.Duration, len(cs))
	var wg sync.WaitGroup
	for i, s := range cs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for next.Add(1) <= int64(calls) {
				t0 := time.Now()
				res, err := s.CallTool(context.Background(), params)
				lats[i] = append(lats[i], time.Since(t0))
				if err != nil || res.IsError || textOf(res) != "echo: hi" {
					b.Errorf("call %s: %v %v", params.Name, err, res)
					return
				}
			}
		}()
	}
	wg.Wait()
	if b.Failed() {
		b.FailNow()
	}
	return slices.Concat(lats...)
}

// countedUpstream is an upstream served on loopback whose listener counts the
// connections it accepts.
type countedUpstream struct {
	url      string
	accepted atomic.Int64
	open     atomic.Int64 // the connections not yet closed
}

// countingUpstream serves s over streamable HTTP on loopback until tb
// ends, counting the TCP connections accepted.
func countingUpstream(tb testing.TB, s *mcp.Server) *countedUpstream {
	tb.Helper()
	return countingServer(tb, mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, nil))
}

// countingServer serves h on loopback until tb ends, counting the TCP
// connections accepted.
func countingServer(tb testing.TB, h http.Handler) *countedUpstream {
	tb.Helper()
	up := &countedUpstream{}
	srv := httptest.NewUnstartedServer(h)
	srv.Listener = &countingListener{Listener: srv.Listener, n: &up.accepted}
	srv.Config.ConnState = func(_ net.Conn, state http.ConnState) {
		switch state {
		case http.StateNew:
			up.open.Add(1)
		case http.StateClosed, http.StateHijacked:
			up.open.Add(-1)
		}
	}
	srv.Start()
	tb.Cleanup(func() {
		srv.CloseClientConnections()
		srv.Close()
	})
	up.url = srv.URL
	return up
}

// countingListener counts the connections it accepts.
type countingListener struct {
	net.Listener
	n *atomic.Int64
}

func (l *countingListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err == nil {
		l.n.Add(1)
	}
	return c, err
}
