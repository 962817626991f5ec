package manifest

import (
	"fmt"
	"runtime"
	"slices"
	"testing"
)

// scaleLimits lets a 50,000-tool genTools manifest (18 MB) through:
// MaxBytes is the only default it exceeds.
var scaleLimits = Limits{MaxBytes: 32 << 20}

// parseCost is what one Parse of src allocates, in bytes and objects,
// the median of three runs (the counters are the whole process's).
func parseCost(t testing.TB, src []byte, lim Limits) (bytes, objects float64) {
	t.Helper()
	var bs, os []float64
	for range 3 {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		if _, err := ParseWithLimits("gate.toml", src, lim); err != nil {
			t.Fatal(err)
		}
		runtime.ReadMemStats(&after)
		bs = append(bs, float64(after.TotalAlloc-before.TotalAlloc))
		os = append(os, float64(after.Mallocs-before.Mallocs))
	}
	slices.Sort(bs)
	slices.Sort(os)
	return bs[1], os[1]
}

// TestParseScalesLinearly holds a parse to linear work: per tool, a
// 50,000-tool manifest may allocate at most 1.3 times the bytes and the
// objects a 1,000-tool one does, for both shapes the benchmarks use
// (genPlain is gatectl's BenchmarkCheckVsPython manifest).
func TestParseScalesLinearly(t *testing.T) {
	if testing.Short() {
		t.Skip("parses 50,000 tools")
	}
	for _, g := range []struct {
		name string
		gen  func(int) []byte
	}{{"plain", genPlain}, {"genTools", genTools}} {
		t.Run(g.name, func(t *testing.T) {
			perTool := func(n int) (float64, float64) {
				b, o := parseCost(t, g.gen(n), scaleLimits)
				return b / float64(n), o / float64(n)
			}
			smallB, smallO := perTool(1_000)
			bigB, bigO := perTool(50_000)
			t.Logf("per tool: 1,000 tools %.0f B, %.1f allocs; 50,000 tools %.0f B, %.1f allocs", smallB, smallO, bigB, bigO)
			if bigB > 1.3*smallB || bigO > 1.3*smallO {
				t.Errorf("50,000 tools cost %s per tool, more than 1.3 times 1,000 tools' (%s)",
					fmt.Sprintf("%.0f B in %.1f allocs", bigB, bigO), fmt.Sprintf("%.0f B in %.1f allocs", smallB, smallO))
			}
		})
	}
}
