package manifest

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// BenchmarkLoadCached loads a 10,000-tool manifest (genTools) through the
// cache, each iteration once cold (no entry: read, parse, encode, write)
// and once warm (read, hash, read the entry, decode), and once without
// the cache (LoadWithLimits), reporting each in milliseconds, the ratio
// of cold to warm and of uncached to warm, and the sizes of the manifest
// and of its entry.
func BenchmarkLoadCached(b *testing.B) {
	dir := b.TempDir()
	file := filepath.Join(dir, "gate.toml")
	src := genTools(10_000)
	if err := os.WriteFile(file, src, 0o644); err != nil {
		b.Fatal(err)
	}
	cache := filepath.Join(dir, "cache")
	var cold, warm, plain time.Duration
	var entry int64
	b.ReportAllocs()
	for b.Loop() {
		if err := os.RemoveAll(filepath.Join(cache, cacheSubdir)); err != nil {
			b.Fatal(err)
		}
		t0 := time.Now()
		h := cacheHits.Load()
		if _, err := LoadCached(file, Limits{}, cache); err != nil {
			b.Fatal(err)
		}
		t1 := time.Now()
		if _, err := LoadCached(file, Limits{}, cache); err != nil {
			b.Fatal(err)
		}
		t2 := time.Now()
		if _, err := LoadWithLimits(file, Limits{}); err != nil {
			b.Fatal(err)
		}
		t3 := time.Now()
		if cacheHits.Load() != h+1 {
			b.Fatal("the warm load missed")
		}
		cold += t1.Sub(t0)
		warm += t2.Sub(t1)
		plain += t3.Sub(t2)
	}
	names, _ := filepath.Glob(filepath.Join(cache, cacheSubdir, "*"))
	for _, n := range names {
		if fi, err := os.Stat(n); err == nil {
			entry += fi.Size()
		}
	}
	n := float64(b.N)
	b.ReportMetric(float64(cold.Microseconds())/1e3/n, "cold-ms")
	b.ReportMetric(float64(warm.Microseconds())/1e3/n, "warm-ms")
	b.ReportMetric(float64(plain.Microseconds())/1e3/n, "uncached-ms")
	b.ReportMetric(float64(cold)/float64(warm), "cold/warm")
	b.ReportMetric(float64(plain)/float64(warm), "uncached/warm")
	b.ReportMetric(float64(len(src)), "manifest-bytes")
	b.ReportMetric(float64(entry), "entry-bytes")
}

// BenchmarkManifestCacheDecode is the warm path's decoding alone.
func BenchmarkManifestCacheDecode(b *testing.B) {
	m, err := Parse("gate.toml", genTools(10_000))
	if err != nil {
		b.Fatal(err)
	}
	e := encodeEntry(m, fuzzCacheKey)
	b.SetBytes(int64(len(e)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := decodeEntry(e, fuzzCacheKey, Limits{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkLoadCachedWarm is the warm path alone.
func BenchmarkLoadCachedWarm(b *testing.B) {
	dir := b.TempDir()
	file := filepath.Join(dir, "gate.toml")
	if err := os.WriteFile(file, genTools(10_000), 0o644); err != nil {
		b.Fatal(err)
	}
	cache := filepath.Join(dir, "cache")
	if _, err := LoadCached(file, Limits{}, cache); err != nil {
		b.Fatal(err)
	}
	h := cacheHits.Load()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := LoadCached(file, Limits{}, cache); err != nil {
			b.Fatal(err)
		}
	}
	if cacheHits.Load()-h != int64(b.N) {
		b.Fatal("missed")
	}
}
