package manifest

import (
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/pelletier/go-toml/v2"
)

// benchScaleLimits let a 50,000-tool genTools manifest through (18 MB,
// over the default MaxBytes).
var benchScaleLimits = Limits{MaxBytes: 32 << 20}

// scaleSizes are the manifests' sizes in tools.
var scaleSizes = []int{1_000, 10_000, 50_000}

// BenchmarkParseScale parses manifests of 1,000, 10,000 and 50,000 tools
// of both benchmark shapes (genPlain is gatectl's BenchmarkCheckVsPython
// manifest), with toml.Unmarshal of the same bytes as the anchor,
// reporting time, bytes and allocations per tool, and the heap the
// Manifest keeps per tool.
func BenchmarkParseScale(b *testing.B) {
	for _, g := range []struct {
		name string
		gen  func(int) []byte
	}{{"plain", genPlain}, {"genTools", genTools}} {
		for _, n := range scaleSizes {
			src := g.gen(n)
			perTool := func(b *testing.B, run func() error) {
				b.ReportAllocs()
				for b.Loop() {
					if err := run(); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/tool")
			}
			b.Run(fmt.Sprintf("%s/tools=%d/Parse", g.name, n), func(b *testing.B) {
				perTool(b, func() error {
					_, err := ParseWithLimits("gate.toml", src, benchScaleLimits)
					return err
				})
				b.ReportMetric(retainedPerTool(b, src, n), "retained-B/tool")
			})
			b.Run(fmt.Sprintf("%s/tools=%d/Unmarshal", g.name, n), func(b *testing.B) {
				perTool(b, func() error {
					var doc map[string]any
					return toml.Unmarshal(src, &doc)
				})
			})
		}
	}
}

// genPlain is a manifest of n tools of the plainest real shape (what
// scripts/gen.py-style generators write): a name, a description, an
// inline parameters schema with one property, an env probe.
func genPlain(n int) []byte {
	var b strings.Builder
	b.WriteString("[runtime]\nttl = \"30s\"\n\n")
	for i := range n {
		fmt.Fprintf(&b, "[[tools]]\nname = \"tool_%d\"\ndescription = \"Tool number %d.\"\n"+
			"parameters = { type = \"object\", properties = { q = { type = \"string\" } }, required = [\"q\"] }\n"+
			"probe = \"env:GATE_BENCH_%d\"\n\n", i, i, i)
	}
	return []byte(b.String())
}

// retainedPerTool is the heap a Manifest parsed from a copy of src holds
// once the copy is dropped, per tool.
func retainedPerTool(b *testing.B, src []byte, n int) float64 {
	b.StopTimer()
	defer b.StartTimer()
	own := append([]byte(nil), src...)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.GC()
	runtime.ReadMemStats(&before)
	m, err := Parse("gate.toml", own)
	if err != nil {
		b.Fatal(err)
	}
	own = nil
	runtime.GC()
	runtime.GC()
	runtime.ReadMemStats(&after)
	runtime.KeepAlive(m)
	return float64(int64(after.HeapAlloc)-int64(before.HeapAlloc)) / float64(n)
}
