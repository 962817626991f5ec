package mcpgw_test

import (
	"context"
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/gate-dev/gate/internal/otlptest"
	"github.com/gate-dev/gate/internal/tracing"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/require"
)

// BenchmarkCallTraced is BenchmarkCall with a third column: through a
// gateway that traces each call (a span exported to a loopback OTLP
// receiver, its context passed upstream in _meta and the header). The
// anchor is the direct call, and via=gateway (tracing off) the same as
// BenchmarkCall's, in the same run.
func BenchmarkCallTraced(b *testing.B) {
	b.Cleanup(noLeaks(b))
	url := upstreamB(b, newUpstreamServer(""))
	direct := connectB(b, url, nil)
	toml := fmt.Sprintf("[[servers]]\nname = \"web\"\nurl = %q\nprefix = \"w_\"\n", url)
	off := startB(b, toml, fastConfig())
	viaOff := connectB(b, off.url, nil)
	waitOffered(b, off.gw, len(upstreamTools))

	rcv := otlptest.Start(b)
	b.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", rcv.URL)
	tr, err := tracing.FromEnv(os.Getenv)
	require.NoError(b, err)
	b.Cleanup(func() { _ = tr.Shutdown(context.Background()) })
	on := startB(b, toml, fastConfig().WithTracer(tr))
	viaOn := connectB(b, on.url, nil)
	waitOffered(b, on.gw, len(upstreamTools))

	for _, v := range []struct {
		name, tool string
		cs         *mcp.ClientSession
	}{{"via=direct", "echo", direct}, {"via=gateway", "w_echo", viaOff}, {"via=gateway-traced", "w_echo", viaOn}} {
		b.Run(v.name, func(b *testing.B) {
			ctx := context.Background()
			params := &mcp.CallToolParams{Name: v.tool, Arguments: map[string]any{"text": "hi"}}
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
			if cpu := processCPU() - cpu0; cpu > 0 {
				b.ReportMetric(float64(cpu)/float64(time.Microsecond)/float64(b.N), "cpu-µs/op")
			}
		})
	}
}
