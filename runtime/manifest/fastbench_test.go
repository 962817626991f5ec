package manifest

import (
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/pelletier/go-toml/v2"
)

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

// BenchmarkParseFast is Parse alone (the fast path) on plain manifests
// and on genTools', with toml.Unmarshal of the same bytes as the
// reference, reporting per tool the time and the heap a kept Manifest
// holds.
func BenchmarkParseFast(b *testing.B) {
	for _, n := range []int{1_000, 10_000} {
		for _, g := range []struct {
			name string
			gen  func(int) []byte
		}{{"plain", genPlain}, {"genTools", genTools}} {
			src := g.gen(n)
			b.Run(fmt.Sprintf("%s/tools=%d/Parse", g.name, n), func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					if _, err := Parse("gate.toml", src); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/tool")
				b.ReportMetric(retainedPerTool(b, src, n), "retained-B/tool")
			})
			b.Run(fmt.Sprintf("%s/tools=%d/Unmarshal", g.name, n), func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					var doc map[string]any
					if err := toml.Unmarshal(src, &doc); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/tool")
			})
		}
	}
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
