package manifest

import (
	"fmt"
	"runtime"
	"testing"
	"time"

	"github.com/pelletier/go-toml/v2"
)

// BenchmarkParse parses manifests of 1,000 and 10,000 tools shaped like
// real ones (genTools: a description, an env probe, a parameters schema
// with two properties), reporting per tool the time and the bytes
// allocated, the manifest's size and values, and what each phase costs
// as a ratio to go-toml's decoder (toml.Unmarshal of the same bytes): the
// byte scan, the one pass that reads the document (positions, limit
// counts and values), and the whole parse (meta-schema validation
// included).
func BenchmarkParse(b *testing.B) {
	for _, n := range []int{1_000, 10_000} {
		src := genTools(n)
		b.Run(fmt.Sprintf("tools=%d", n), func(b *testing.B) {
			var scan, read, decode, total time.Duration
			var values int
			b.ReportAllocs()
			for b.Loop() {
				t0 := time.Now()
				rawScan(src, DefaultMaxValues)
				t1 := time.Now()
				ix, err := readTOML(src, Limits{})
				if err != nil || ix.over != nil {
					b.Fatal(err, ix.over)
				}
				values = ix.values
				t2 := time.Now()
				var doc map[string]any
				if err := toml.Unmarshal(src, &doc); err != nil {
					b.Fatal(err)
				}
				t3 := time.Now()
				if _, err := Parse("gate.toml", src); err != nil {
					b.Fatal(err)
				}
				t4 := time.Now()
				scan += t1.Sub(t0)
				read += t2.Sub(t1)
				decode += t3.Sub(t2)
				total += t4.Sub(t3)
			}
			iters := float64(b.N)
			b.ReportMetric(float64(total.Nanoseconds())/iters/float64(n), "parse-ns/tool")
			b.ReportMetric(float64(len(src))/float64(n), "src-bytes/tool")
			b.ReportMetric(float64(values)/float64(n), "values/tool")
			b.ReportMetric(float64(scan)/float64(decode), "rawscan/decode")
			b.ReportMetric(float64(read)/float64(decode), "read/decode")
			b.ReportMetric(float64(total)/float64(decode), "parse/decode")
			b.ReportMetric(allocsPerTool(b, src, n), "parse-bytes/tool")
		})
	}
}

// allocsPerTool is what one Parse of src allocates, per tool.
func allocsPerTool(b *testing.B, src []byte, n int) float64 {
	b.StopTimer()
	defer b.StartTimer()
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	if _, err := Parse("gate.toml", src); err != nil {
		b.Fatal(err)
	}
	runtime.ReadMemStats(&after)
	return float64(after.TotalAlloc-before.TotalAlloc) / float64(n)
}
