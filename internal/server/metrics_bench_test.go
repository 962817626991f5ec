package server

import (
	"io"
	"net/http"
	"testing"
)

// BenchmarkMetrics1000 is a scrape of /metrics over real HTTP on
// loopback, with the 1,000 tools of the load test's manifest (nine in ten
// gated by an env probe): what a Prometheus server pays gate every scrape
// interval. It reports the body's size too.
func BenchmarkMetrics1000(b *testing.B) {
	metrics := NewMetrics()
	f := benchFixture(b, metrics, "30s")
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 1}}
	defer client.CloseIdleConnections()
	get := func() int64 {
		resp, err := client.Get(f.url + "/metrics")
		if err != nil {
			b.Fatal(err)
		}
		n, err := io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if err != nil || resp.StatusCode != http.StatusOK {
			b.Fatalf("GET /metrics: %d, %v", resp.StatusCode, err)
		}
		return n
	}
	size := get()
	b.SetBytes(size)
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		get()
	}
	b.ReportMetric(float64(size), "body_bytes")
}
