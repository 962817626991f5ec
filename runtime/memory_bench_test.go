package runtime

import (
	"context"
	"fmt"
	goruntime "runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// BenchmarkMemoryPerTool measures what one more probed tool keeps while it
// idles in a Gate opened from a manifest, after every probe has run once:
// the Go heap (the manifest's entry, the registry's, the probe and its
// grants) and the linear memory of warm instances (not on the Go heap when
// it is a mapped region, so counted apart). It is the slope between Gates
// of 1,000 and 4,000 tools, so that what a Gate holds whatever its size
// (the engine, the pools' few instances, the free list of pages) is not
// spread over the tools. The baseline in the same run is a tool without a
// probe.
//
//	go test -run '^$' -bench MemoryPerTool -benchtime 1x ./runtime/
func BenchmarkMemoryPerTool(b *testing.B) {
	for _, tc := range []struct{ name, probe string }{
		{"no probe", ""},
		{"env", `probe = "env:HOME"`},
		{"tcp", `probe = "tcp:127.0.0.1:1"`},
	} {
		b.Run(tc.name, func(b *testing.B) {
			for range b.N {
				heap, linear := toolSlope(b, tc.probe)
				b.ReportMetric(heap, "heap-B/tool")
				b.ReportMetric(linear, "linear-B/tool")
			}
		})
	}
}

// TestIdleMemoryPerTool: a tool with a standard probe costs under
// maxIdleToolHeap bytes of heap while it idles, and no linear memory of
// its own: the tools of a module share its pooled instances, where a warm
// instance per tool would cost a 64 KiB page each.
func TestIdleMemoryPerTool(t *testing.T) {
	heap, linear := toolSlope(t, `probe = "env:HOME"`)
	t.Logf("per idle env tool: %.0f heap bytes, %.0f linear memory bytes", heap, linear)
	require.Less(t, heap, maxIdleToolHeap, "heap bytes per idle env tool")
	require.Less(t, linear, 64.0, "linear memory bytes per idle env tool")
}

// maxIdleToolHeap is 1 KB, and the 80 bytes by which the manifest's
// Probe grew (from the 176-byte size class to the 256) when its grants
// became one hostfuncs.Grants, the type the runtime takes, rather than
// lists split across its fields and a pointer.
const maxIdleToolHeap = 1024.0 + 80

// toolSlope is the heap and linear memory one more tool costs, as the
// difference between Gates of 1,000 and 4,000 tools, each opened from a
// manifest and probed once.
func toolSlope(tb testing.TB, probe string) (heap, linear float64) {
	tb.Helper()
	const small, large = 1000, 4000
	hs, ls := gateMemory(tb, small, probe)
	hl, ll := gateMemory(tb, large, probe)
	return float64(hl-hs) / (large - small), float64(ll-ls) / (large - small)
}

// gateMemory opens a Gate of n tools with the probe line given, probes
// them all, and returns the heap it holds and its idle linear memory.
func gateMemory(tb testing.TB, n int, probe string) (heap, linear int64) {
	tb.Helper()
	var src strings.Builder
	for i := range n {
		fmt.Fprintf(&src, "[[tools]]\nname = \"t%d\"\ndescription = \"Tool %d.\"\n%s\n", i, i, probe)
	}
	path := writeManifest(tb, src.String(), nil)
	ctx := context.Background()
	before := heapInUse()
	g, err := Open(ctx, path, NewGateConfig())
	require.NoError(tb, err)
	_, err = g.Tools().Refresh(ctx)
	require.NoError(tb, err)
	heap = heapInUse() - before
	linear = g.engine.idleBytes.Load()
	goruntime.KeepAlive(g)
	require.NoError(tb, g.Close(ctx))
	return heap, linear
}

// heapInUse is the bytes of live heap objects after a collection
// (HeapAlloc, not HeapInuse: the spans' free slots depend on what the
// parse before left behind, and made the slope wander by 20%).
func heapInUse() int64 {
	goruntime.GC()
	goruntime.GC()
	var ms goruntime.MemStats
	goruntime.ReadMemStats(&ms)
	return int64(ms.HeapAlloc)
}
