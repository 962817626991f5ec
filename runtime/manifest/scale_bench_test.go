package manifest

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/pelletier/go-toml/v2"
)

// benchScaleLimits let a 50,000-tool genTools manifest through (18 MB,
// over the default MaxBytes), with the tool cap set as well so that the
// benchmark runs on code whose default cap was 10,000.
var benchScaleLimits = Limits{MaxBytes: 32 << 20, MaxTools: 100_000}

// scaleSizes are the manifests' sizes in tools.
var scaleSizes = []int{1_000, 10_000, 50_000}

// BenchmarkParseScale parses manifests of 1,000, 10,000 and 50,000 tools
// of both benchmark shapes (genPlain is gatectl's BenchmarkCheckVsPython
// manifest), with toml.Unmarshal of the same bytes as the anchor,
// reporting time, bytes and allocations per tool.
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

// BenchmarkLoadScale loads genTools manifests of 1,000, 10,000 and 50,000
// tools through a warm cache (LoadCached, an entry present) and without
// one (LoadWithLimits), to say whether the cache pays for itself at each
// size.
func BenchmarkLoadScale(b *testing.B) {
	for _, n := range scaleSizes {
		dir := b.TempDir()
		file := filepath.Join(dir, "gate.toml")
		if err := os.WriteFile(file, genTools(n), 0o644); err != nil {
			b.Fatal(err)
		}
		cache := filepath.Join(dir, "cache")
		if _, err := LoadCached(file, benchScaleLimits, cache); err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprintf("tools=%d/cached", n), func(b *testing.B) {
			b.ReportAllocs()
			h := cacheHits.Load()
			for b.Loop() {
				if _, err := LoadCached(file, benchScaleLimits, cache); err != nil {
					b.Fatal(err)
				}
			}
			if cacheHits.Load()-h != int64(b.N) {
				b.Fatal("a warm load missed")
			}
		})
		b.Run(fmt.Sprintf("tools=%d/uncached", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := LoadWithLimits(file, benchScaleLimits); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
