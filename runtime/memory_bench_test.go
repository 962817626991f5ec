package runtime

import (
	"context"
	"fmt"
	goruntime "runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// BenchmarkMemoryPerTool measures what one probed tool keeps while it
// idles in a Gate, after every probe has run once: the Go heap (wazero's
// module instance, the registry's entry, the probe) and the linear memory
// of its warm instance (not on the Go heap when it is a mapped region, so
// counted apart). The baseline in the same run is a tool without a probe,
// whose cost is the registry's alone.
//
//	go test -run '^$' -bench MemoryPerTool -benchtime 1x ./runtime/
func BenchmarkMemoryPerTool(b *testing.B) {
	for _, tc := range []struct{ name, probe string }{
		{"no probe", ""},
		{"env", `probe = "env:HOME"`},
		{"tcp", `probe = "tcp:127.0.0.1:1"`},
	} {
		b.Run(tc.name, func(b *testing.B) {
			const tools = 1000
			var src strings.Builder
			for i := range tools {
				fmt.Fprintf(&src, "[[tools]]\nname = \"t%d\"\n%s\n", i, tc.probe)
			}
			path := writeManifest(b, src.String(), nil)
			ctx := context.Background()
			for range b.N {
				before := heapInUse()
				g, err := Open(ctx, path, NewGateConfig())
				require.NoError(b, err)
				_, err = g.Tools().Refresh(ctx)
				require.NoError(b, err)
				heap := heapInUse() - before
				linear := g.engine.idleBytes.Load()
				b.ReportMetric(float64(heap)/tools, "heap-B/tool")
				b.ReportMetric(float64(linear)/tools, "linear-B/tool")
				require.NoError(b, g.Close(ctx))
			}
		})
	}
}

func heapInUse() int64 {
	goruntime.GC()
	goruntime.GC()
	var ms goruntime.MemStats
	goruntime.ReadMemStats(&ms)
	return int64(ms.HeapInuse)
}
