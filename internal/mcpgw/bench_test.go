package mcpgw_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gate-dev/gate/internal/mcpgw"
	gateruntime "github.com/gate-dev/gate/runtime"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/require"
)

// The gateway's benchmarks (docs/BENCHMARKS.md, "The MCP gateway"). Each
// measures a path through the gateway against the same path without it,
// in the same run: a client of the Go SDK over streamable HTTP on
// loopback, talking to an upstream directly, and through a gateway that
// talks to that upstream over streamable HTTP on loopback. Sub-benchmarks
// share the parent's servers, so "via=direct" and "via=gateway" run one
// after the other on the same upstream, and rounds of one test binary
// interleave them:
//
//	go test -c -o /tmp/gw.test ./gateway
//	cd gateway && for i in $(seq 6); do /tmp/gw.test -test.run '^$' -test.bench . -test.benchtime 2s -test.benchmem; done | tee /tmp/bench.txt
//	benchstat -col /via /tmp/bench.txt

// BenchmarkCall times one tools/call of the upstream's echo tool, made
// directly and through the gateway; p50-µs and p99-µs are over the calls
// of a run.
func BenchmarkCall(b *testing.B) {
	b.Cleanup(noLeaks(b))
	url := upstreamB(b, newUpstreamServer(""))
	direct := connectB(b, url, nil)
	h := startB(b, fmt.Sprintf("[[servers]]\nname = \"web\"\nurl = %q\nprefix = \"w_\"\n", url), fastConfig())
	via := connectB(b, h.url, nil)
	waitOffered(b, h.gw, len(upstreamTools))

	for _, v := range []struct {
		name, tool string
		cs         *mcp.ClientSession
	}{{"via=direct", "echo", direct}, {"via=gateway", "w_echo", via}} {
		b.Run(v.name, func(b *testing.B) {
			ctx := context.Background()
			params := &mcp.CallToolParams{Name: v.tool, Arguments: map[string]any{"text": "hi"}}
			// One call before the clock starts: the first opens the
			// connections the others reuse.
			checkEcho(b, v.cs, params)
			lat := make([]time.Duration, 0, b.N)
			cpu0 := processCPU()
			b.ResetTimer()
			for range b.N {
				t0 := time.Now()
				res, err := v.cs.CallTool(ctx, params)
				lat = append(lat, time.Since(t0))
				if err != nil || res.IsError {
					b.Fatalf("call %s: %v %v", v.tool, err, res)
				}
			}
			b.StopTimer()
			reportPercentiles(b, lat, time.Microsecond, "µs")
			// The CPU of the whole process, client, gateway and upstream
			// alike, where /proc says (to 10ms: over a second's calls).
			if cpu := processCPU() - cpu0; cpu > 0 {
				b.ReportMetric(float64(cpu)/float64(time.Microsecond)/float64(b.N), "cpu-µs/op")
			}
		})
	}
}

// BenchmarkListTools1000 times a full tools/list (every page) of 1,000
// tools, from the upstream directly and from the gateway, which answers
// from the set it computed in the background.
func BenchmarkListTools1000(b *testing.B) {
	const n = 1000
	b.Cleanup(noLeaks(b))
	s := mcp.NewServer(&mcp.Implementation{Name: "wide", Version: "1"}, nil)
	for i := range n {
		name := fmt.Sprintf("tool%04d", i)
		s.AddTool(&mcp.Tool{Name: name, Description: "Tool number " + name[4:] + ".", InputSchema: objectSchema},
			func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) { return text(name), nil })
	}
	url := upstreamB(b, s)
	direct := connectB(b, url, nil)
	h := startB(b, fmt.Sprintf("[[servers]]\nname = \"wide\"\nurl = %q\nprefix = \"w_\"\n", url), fastConfig())
	via := connectB(b, h.url, nil)
	waitOffered(b, h.gw, n)

	for _, v := range []struct {
		name string
		cs   *mcp.ClientSession
	}{{"via=direct", direct}, {"via=gateway", via}} {
		b.Run(v.name, func(b *testing.B) {
			ctx := context.Background()
			list := func() int {
				got := 0
				for _, err := range v.cs.Tools(ctx, nil) {
					if err != nil {
						b.Fatal(err)
					}
					got++
				}
				return got
			}
			if got := list(); got != n {
				b.Fatalf("listed %d tools; want %d", got, n)
			}
			b.ResetTimer()
			for range b.N {
				if got := list(); got != n {
					b.Fatalf("listed %d tools; want %d", got, n)
				}
			}
		})
	}
}

// BenchmarkFlipToNotification times a change of the tool set to the
// client's receipt of notifications/tools/list_changed (p50-ms, p99-ms
// over the flips of a run; ns/op is their mean):
//
//   - sdk-direct: the baseline, the SDK's own path: a tool added to or
//     removed from an upstream server, to its direct client (the SDK
//     debounces by 10ms);
//   - gateway-upstream: the same change on the gateway's upstream, to the
//     gateway's client (the upstream's list_changed, a relisting, the
//     gateway's own change and debounce);
//   - gateway-probe: a loopback listener watched by the tcp: probe of a
//     [[servers.tools]] rule closed or opened again, to the gateway's
//     client. The manifest's ttl (30ms) and the service's tick (10ms) bound
//     how soon the probe runs again to see it.
func BenchmarkFlipToNotification(b *testing.B) {
	b.Cleanup(noLeaks(b))
	base := newUpstreamServer("")
	directChanged := make(chan struct{}, 100)
	connectB(b, upstreamB(b, base), directChanged)

	up := newUpstreamServer("")
	ln := listenB(b)
	h := startB(b, fmt.Sprintf(`
[[servers]]
name = "web"
url = %q
prefix = "w_"

[[servers.tools]]
name = "echo"
probe = "tcp:%s"
`, upstreamB(b, up), ln.addr), fastConfig())
	viaChanged := make(chan struct{}, 100)
	via := connectB(b, h.url, viaChanged)
	waitOffered(b, h.gw, len(upstreamTools))
	settle(viaChanged)

	blip := func(s *mcp.Server, on bool) {
		if on {
			s.AddTool(&mcp.Tool{Name: "blip", InputSchema: objectSchema}, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				return text("blip"), nil
			})
		} else {
			s.RemoveTools("blip")
		}
	}
	for _, v := range []struct {
		name    string
		changed chan struct{}
		flip    func(b *testing.B, i int)
		// check, when set, is run after each notification, off the clock:
		// the gateway's list must show the flip.
		check func(b *testing.B, i int)
	}{
		{name: "via=direct", changed: directChanged, flip: func(_ *testing.B, i int) { blip(base, i%2 == 0) }},
		{name: "via=gateway-upstream", changed: viaChanged, flip: func(_ *testing.B, i int) { blip(up, i%2 == 0) },
			check: func(b *testing.B, i int) { checkListed(b, via, "w_blip", i%2 == 0) }},
		{name: "via=gateway-probe", changed: viaChanged, flip: func(b *testing.B, i int) {
			if i%2 == 0 {
				ln.close()
			} else {
				ln.reopen(b)
			}
		}, check: func(b *testing.B, i int) { checkListed(b, via, "w_echo", i%2 != 0) }},
	} {
		b.Run(v.name, func(b *testing.B) {
			lat := make([]time.Duration, 0, b.N)
			b.ResetTimer()
			for i := range b.N {
				b.StopTimer()
				settle(v.changed)
				b.StartTimer()
				t0 := time.Now()
				v.flip(b, i)
				select {
				case <-v.changed:
				case <-time.After(waitFor):
					b.Fatalf("flip %d: no notifications/tools/list_changed", i)
				}
				lat = append(lat, time.Since(t0))
				if v.check != nil {
					b.StopTimer()
					v.check(b, i)
					b.StartTimer()
				}
			}
			b.StopTimer()
			// Leave the set as it was found, for the next run.
			if b.N%2 != 0 {
				v.flip(b, b.N)
				select {
				case <-v.changed:
				case <-time.After(waitFor):
					b.Fatal("no notifications/tools/list_changed for the flip back")
				}
			}
			reportPercentiles(b, lat, time.Millisecond, "ms")
		})
	}
}

// timeEach runs op b.N times on the benchmark's clock and returns how long
// each took.
func timeEach(b *testing.B, op func()) []time.Duration {
	lat := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for range b.N {
		t0 := time.Now()
		op()
		lat = append(lat, time.Since(t0))
	}
	b.StopTimer()
	return lat
}

// reportPercentiles reports the median and the 99th percentile of lat,
// in unit (named name).
func reportPercentiles(b *testing.B, lat []time.Duration, unit time.Duration, name string) {
	if len(lat) == 0 {
		return
	}
	slices.Sort(lat)
	at := func(q float64) time.Duration { return lat[min(len(lat)-1, int(q*float64(len(lat))))] }
	b.ReportMetric(float64(at(0.50))/float64(unit), "p50-"+name)
	b.ReportMetric(float64(at(0.99))/float64(unit), "p99-"+name)
}

// processCPU returns the CPU time, user and system, this process has
// used so far, from /proc/self/stat (in ticks of 10ms), or 0 where there
// is no /proc.
func processCPU() time.Duration {
	stat, err := os.ReadFile("/proc/self/stat")
	if err != nil {
		return 0
	}
	f := strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+1:]))
	if len(f) < 13 {
		return 0
	}
	utime, _ := strconv.ParseInt(f[11], 10, 64)
	stime, _ := strconv.ParseInt(f[12], 10, 64)
	return time.Duration(utime+stime) * 10 * time.Millisecond
}

// settle waits until no list_changed has come for 40ms (past the SDK's
// 10ms debounce, and a relisting), so that a flip is timed to its own
// notification, then for a random 0-30ms more: a flip then falls at any
// point of the probe's ~30ms cycle, not always at the same distance from
// the re-probe that found the last one.
func settle(ch chan struct{}) {
	for {
		select {
		case <-ch:
		case <-time.After(40 * time.Millisecond):
			time.Sleep(rand.N(30 * time.Millisecond))
			return
		}
	}
}

func checkEcho(b *testing.B, cs *mcp.ClientSession, params *mcp.CallToolParams) {
	ctx, cancel := context.WithTimeout(context.Background(), waitFor)
	defer cancel()
	res, err := cs.CallTool(ctx, params)
	require.NoError(b, err)
	require.Equal(b, "echo: hi", textOf(res))
}

// checkListed fails b unless the client's tools/list has name exactly
// when want says so.
func checkListed(b *testing.B, cs *mcp.ClientSession, name string, want bool) {
	ctx, cancel := context.WithTimeout(context.Background(), waitFor)
	defer cancel()
	got := false
	for t, err := range cs.Tools(ctx, nil) {
		require.NoError(b, err)
		got = got || t.Name == name
	}
	if got != want {
		b.Fatalf("after the notification, %s listed: %v; want %v", name, got, want)
	}
}

// waitOffered waits until the gateway offers n tools.
func waitOffered(tb testing.TB, gw *mcpgw.Gateway, n int) {
	tb.Helper()
	require.Eventually(tb, func() bool { return len(gw.Offered()) == n }, waitFor, 5*time.Millisecond,
		"the gateway never offered %d tools", n)
}

// benchGateway is start's harness for a testing.TB: a gateway over a
// manifest, served over streamable HTTP on loopback, all of it closed by
// tb's cleanup.
type benchGateway struct {
	gw  *mcpgw.Gateway
	url string
}

func startB(tb testing.TB, toml string, cfg mcpgw.Config) *benchGateway {
	tb.Helper()
	path := filepath.Join(tb.TempDir(), "gate.toml")
	require.NoError(tb, os.WriteFile(path, []byte(manifestHead+toml), 0o600))
	ctx, cancel := context.WithCancel(context.Background())
	svc, err := gateruntime.OpenService(ctx, path, gateruntime.NewServiceConfig().WithTick(10*time.Millisecond).WithWatchInterval(0))
	if err != nil {
		cancel()
		tb.Fatal(err)
	}
	gw := mcpgw.New(svc, cfg)
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); _ = svc.Run(ctx) }()
	go func() { defer wg.Done(); _ = gw.Run(ctx) }()
	srv := httptest.NewServer(gw.Handler())
	tb.Cleanup(func() {
		gw.CloseSessions()
		srv.CloseClientConnections()
		srv.Close()
		cancel()
		wg.Wait()
		_ = svc.Close(context.Background())
	})
	return &benchGateway{gw: gw, url: srv.URL}
}

// upstreamB serves s over streamable HTTP on loopback until tb ends.
func upstreamB(tb testing.TB, s *mcp.Server) string {
	tb.Helper()
	srv := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, nil))
	tb.Cleanup(func() {
		srv.CloseClientConnections()
		srv.Close()
	})
	return srv.URL
}

// connectB connects a Go SDK client to url over streamable HTTP, with an
// HTTP client of its own (closed with the session). changed, when not
// nil, gets a value for each notifications/tools/list_changed.
func connectB(tb testing.TB, url string, changed chan<- struct{}) *mcp.ClientSession {
	tb.Helper()
	var opts *mcp.ClientOptions
	if changed != nil {
		opts = &mcp.ClientOptions{ToolListChangedHandler: func(context.Context, *mcp.ToolListChangedRequest) {
			select {
			case changed <- struct{}{}:
			default:
			}
		}}
	}
	hc := &http.Client{Transport: http.DefaultTransport.(*http.Transport).Clone()}
	ctx, cancel := context.WithTimeout(context.Background(), waitFor)
	defer cancel()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "bench-client", Version: "1"}, opts).
		Connect(ctx, &mcp.StreamableClientTransport{Endpoint: url, HTTPClient: hc}, nil)
	require.NoError(tb, err)
	tb.Cleanup(func() {
		_ = cs.Close()
		hc.CloseIdleConnections()
	})
	return cs
}

// benchListener is a loopback listener a tcp: probe watches; close and
// reopen flip the probe.
type benchListener struct {
	addr string
	l    net.Listener
}

func listenB(tb testing.TB) *benchListener {
	tb.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(tb, err)
	ln := &benchListener{addr: l.Addr().String(), l: l}
	go acceptAll(l)
	tb.Cleanup(ln.close)
	return ln
}

func (l *benchListener) close() {
	if l.l != nil {
		_ = l.l.Close()
		l.l = nil
	}
}

func (l *benchListener) reopen(tb testing.TB) {
	nl, err := net.Listen("tcp", l.addr)
	require.NoError(tb, err)
	l.l = nl
	go acceptAll(nl)
}

// noLeaks notes the goroutines running now; the function it returns,
// registered first with Cleanup so that it runs last, fails tb if more
// are still running a few seconds after everything was closed.
func noLeaks(tb testing.TB) func() {
	before := runtime.NumGoroutine()
	return func() {
		deadline := time.Now().Add(5 * time.Second)
		for runtime.NumGoroutine() > before {
			if time.Now().After(deadline) {
				buf := make([]byte, 1<<20)
				buf = buf[:runtime.Stack(buf, true)]
				tb.Errorf("%d goroutines still running after the benchmark, %d before:\n%s",
					runtime.NumGoroutine(), before, trimStacks(string(buf)))
				return
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
}

// trimStacks keeps the first lines of each goroutine's stack.
func trimStacks(s string) string {
	var out []string
	for _, g := range strings.Split(s, "\n\n") {
		lines := strings.Split(g, "\n")
		out = append(out, strings.Join(lines[:min(len(lines), 9)], "\n"))
	}
	return strings.Join(out, "\n\n")
}
