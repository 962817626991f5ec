package mcpgw_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/require"
)

// The gateway at scale (docs/BENCHMARKS.md, "The gateway at scale"): a
// gateway fronting scaleUpstreams Go SDK servers of scaleTools tools each,
// half of them this test binary over stdio, half in this process over
// streamable HTTP on loopback, and a Go SDK client of the gateway over
// streamable HTTP. Each measure has its anchor in the same run:
//
//	go test -c -o /tmp/gw.test ./gateway && cd gateway
//	for i in $(seq 5); do
//	  /tmp/gw.test -test.run '^$' -test.bench 'GatewayAtScale/(heap|list|call)' -test.benchtime 2s -test.benchmem >> /tmp/scale.txt
//	  /tmp/gw.test -test.run '^$' -test.bench 'GatewayAtScale/flip' -test.benchtime 20x -test.benchmem >> /tmp/scale-flip.txt
//	done
//	benchstat -col /via /tmp/scale.txt

const (
	scaleUpstreams = 10
	scaleTools     = 1000
)

func init() {
	upstreamModes["scale"] = func() *mcp.Server {
		n, _ := strconv.Atoi(os.Getenv("GATE_TEST_COUNT"))
		return newScaleServer(os.Getenv("GATE_TEST_NAME"), n)
	}
}

// scaleSchema is a small input schema, as real tools have: two
// properties with descriptions, one required.
var scaleSchema = json.RawMessage(`{"type":"object","properties":{"id":{"type":"string","description":"The record's identifier, as listed."},"limit":{"type":"integer","minimum":1,"description":"At most this many fields."}},"required":["id"]}`)

// newScaleServer returns a Go SDK server of n tools, tool_0000 on, each
// with a description and scaleSchema, each answering its name and "id".
func newScaleServer(name string, n int) *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: name, Version: "1"}, nil)
	for i := range n {
		tool := fmt.Sprintf("tool_%04d", i)
		s.AddTool(&mcp.Tool{
			Name:        tool,
			Description: fmt.Sprintf("Looks up record %d of the %s catalogue and answers its fields as JSON. Read-only; safe to retry.", i, name),
			InputSchema: scaleSchema,
		}, func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			var a struct {
				ID string `json:"id"`
			}
			_ = json.Unmarshal(req.Params.Arguments, &a)
			return text(tool + ": " + a.ID), nil
		})
	}
	return s
}

// scaleStdio is the manifest lines, and the command, of a stdio upstream
// of n tools: this test binary in mode "scale".
func scaleStdio(tb testing.TB, name string, n int) (toml string, cmd *exec.Cmd) {
	exe, err := os.Executable()
	require.NoError(tb, err)
	toml = fmt.Sprintf("command = [%q]\nenv = { GATE_TEST_UPSTREAM = \"scale\", GATE_TEST_NAME = %q, GATE_TEST_COUNT = \"%d\" }\n", exe, name, n)
	cmd = exec.Command(exe)
	cmd.Env = append(os.Environ(), "GATE_TEST_UPSTREAM=scale", "GATE_TEST_NAME="+name, fmt.Sprintf("GATE_TEST_COUNT=%d", n))
	return toml, cmd
}

// liveHeap is the heap in use after a collection, in bytes.
func liveHeap() uint64 {
	var m runtime.MemStats
	for range 2 { // the second collects what the first's finalizers freed
		runtime.GC()
	}
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// settledHeap is liveHeap once two looks 100ms apart agree within 1%:
// the gateway offers a set before it has finished giving it to the SDK's
// server, whose work in flight would otherwise count.
func settledHeap() uint64 {
	last := liveHeap()
	for range 50 {
		time.Sleep(100 * time.Millisecond)
		now := liveHeap()
		if max(now, last)-min(now, last) < last/100 {
			return now
		}
		last = now
	}
	return last
}

// BenchmarkGatewayAtScale fronts scaleUpstreams upstreams of scaleTools
// tools each (5 over stdio, 5 over streamable HTTP) with one gateway, and
// measures, each against its anchor in the same run:
//
//   - list/via=direct-1000: a full tools/list of one HTTP upstream of
//     1,000 tools, directly; list/via=direct-10000: of one Go SDK server
//     of 10,000 tools; list/via=gateway-10000: of the gateway's 10,000;
//     p50-ms and p99-ms over the listings of a run;
//   - call/via=direct and call/via=gateway: a tools/call of HTTP upstream
//     0's tool, directly and forwarded; call/via=direct-stdio (a client of
//     its own over stdio) and call/via=gateway-stdio: the same of stdio
//     upstream 5's;
//   - flip/via=gateway: a tool added to or removed from HTTP upstream 0,
//     to the gateway's client receiving notifications/tools/list_changed
//     (p50-ms, p99-ms) and then a full listing that shows the change
//     (p50-list-ms, p99-list-ms); the anchor, from the same flips, is the
//     upstream's own client receiving its notification (direct-p50-ms,
//     direct-p99-ms);
//   - heap: the live heap with the gateway up (its sessions to the
//     upstreams, one client that has listed), less the live heap before
//     it started, per upstream tool (B/tool). The stdio upstreams run in
//     processes of their own, and the HTTP ones are in both measures.
func BenchmarkGatewayAtScale(b *testing.B) {
	b.Cleanup(noLeaks(b))
	ctx := context.Background()

	big := connectB(b, upstreamB(b, newScaleServer("big", scaleUpstreams*scaleTools)), nil)
	var toml strings.Builder
	var httpURL string
	var up0 *mcp.Server // HTTP upstream 0, whose tools the flips change
	for i := range scaleUpstreams {
		name := fmt.Sprintf("u%d", i)
		fmt.Fprintf(&toml, "[[servers]]\nname = %q\nprefix = \"%s_\"\n", name, name)
		if i < scaleUpstreams/2 {
			s := newScaleServer(name, scaleTools)
			url := upstreamB(b, s)
			if i == 0 {
				httpURL, up0 = url, s
			}
			fmt.Fprintf(&toml, "url = %q\n", url)
			continue
		}
		lines, _ := scaleStdio(b, name, scaleTools)
		toml.WriteString(lines)
	}
	directChanged := make(chan struct{}, 100)
	direct := connectB(b, httpURL, directChanged)
	_, cmd := scaleStdio(b, "u5", scaleTools)
	directStdio, err := mcp.NewClient(&mcp.Implementation{Name: "bench-client", Version: "1"}, nil).
		Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	require.NoError(b, err)
	b.Cleanup(func() { _ = directStdio.Close() })

	before := liveHeap()
	h := startB(b, toml.String(), fastConfig())
	viaChanged := make(chan struct{}, 100)
	via := connectB(b, h.url, viaChanged)
	waitOffered(b, h.gw, scaleUpstreams*scaleTools)
	listEvery(b, via)
	heapPerTool := float64(int64(settledHeap())-int64(before)) / float64(scaleUpstreams*scaleTools)
	settle(viaChanged)
	settle(directChanged)

	b.Run("heap", func(b *testing.B) {
		for range b.N {
		}
		b.ReportMetric(heapPerTool, "B/tool")
	})
	for _, v := range []struct {
		name string
		cs   *mcp.ClientSession
		n    int
	}{
		{"via=direct-1000", direct, scaleTools},
		{"via=direct-10000", big, scaleUpstreams * scaleTools},
		{"via=gateway-10000", via, scaleUpstreams * scaleTools},
	} {
		b.Run("list/"+v.name, func(b *testing.B) {
			lat := timeEach(b, func() {
				if got := listEvery(b, v.cs); len(got) != v.n {
					b.Fatalf("listed %d tools; want %d", len(got), v.n)
				}
			})
			reportPercentiles(b, lat, time.Millisecond, "ms")
		})
	}
	for _, v := range []struct {
		name, tool string
		cs         *mcp.ClientSession
	}{
		{"via=direct", "tool_0007", direct},
		{"via=gateway", "u0_tool_0007", via},
		{"via=direct-stdio", "tool_0007", directStdio},
		{"via=gateway-stdio", "u5_tool_0007", via},
	} {
		b.Run("call/"+v.name, func(b *testing.B) {
			params := &mcp.CallToolParams{Name: v.tool, Arguments: map[string]any{"id": "r1"}}
			call := func() {
				res, err := v.cs.CallTool(ctx, params)
				if err != nil || res.IsError || textOf(res) != "tool_0007: r1" {
					b.Fatalf("call %s: %v %v", v.tool, err, res)
				}
			}
			call()
			cpu0 := processCPU()
			lat := timeEach(b, call)
			reportPercentiles(b, lat, time.Microsecond, "µs")
			if cpu := processCPU() - cpu0; cpu > 0 {
				b.ReportMetric(float64(cpu)/float64(time.Microsecond)/float64(b.N), "cpu-µs/op")
			}
		})
	}
	b.Run("flip/via=gateway", func(b *testing.B) {
		var lat, listLat, directLat []time.Duration
		flip := func(i int) {
			if i%2 == 0 {
				up0.AddTool(&mcp.Tool{Name: "blip", InputSchema: scaleSchema}, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
					return text("blip"), nil
				})
			} else {
				up0.RemoveTools("blip")
			}
		}
		b.ResetTimer()
		for i := range b.N {
			b.StopTimer()
			settle(viaChanged)
			settle(directChanged)
			b.StartTimer()
			t0 := time.Now()
			flip(i)
			for _, w := range []struct {
				ch  chan struct{}
				lat *[]time.Duration
			}{{directChanged, &directLat}, {viaChanged, &lat}} {
				select {
				case <-w.ch:
					*w.lat = append(*w.lat, time.Since(t0))
				case <-time.After(waitFor):
					b.Fatalf("flip %d: no notifications/tools/list_changed", i)
				}
			}
			names := listEvery(b, via)
			listLat = append(listLat, time.Since(t0))
			if want := scaleUpstreams*scaleTools + 1 - i%2; len(names) != want || slices.Contains(names, "u0_blip") != (i%2 == 0) {
				b.Fatalf("flip %d: the listing after the notification has %d tools; want %d", i, len(names), want)
			}
		}
		b.StopTimer()
		if b.N%2 != 0 { // leave the set as it was found
			flip(b.N)
			require.Eventually(b, func() bool { return len(h.gw.Offered()) == scaleUpstreams*scaleTools }, waitFor, 5*time.Millisecond)
		}
		reportPercentiles(b, lat, time.Millisecond, "ms")
		reportPercentiles(b, listLat, time.Millisecond, "list-ms")
		reportPercentiles(b, directLat, time.Millisecond, "direct-ms")
	})
}

// listEvery is the names of every tool a full tools/list (every page) of
// cs gives.
func listEvery(tb testing.TB, cs *mcp.ClientSession) []string {
	ctx, cancel := context.WithTimeout(context.Background(), waitFor)
	defer cancel()
	var names []string
	for t, err := range cs.Tools(ctx, nil) {
		if err != nil {
			tb.Fatal(err)
		}
		names = append(names, t.Name)
	}
	return names
}
