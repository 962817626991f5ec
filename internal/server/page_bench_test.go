package server

import (
	"io"
	"net/http"
	"testing"
)

// BenchmarkPage1000 is GET / (the status page) with 1,000 tools over real
// HTTP on loopback, one keep-alive client sending requests one after the
// other while nothing changes: what a browser tab reloading the page in a
// loop costs gate per request.
func BenchmarkPage1000(b *testing.B) {
	f := benchFixture(b, nil, "30s")
	req, err := http.NewRequest(http.MethodGet, f.url+"/", nil)
	if err != nil {
		b.Fatal(err)
	}
	req.Header.Set("Accept", browserAccept)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		resp, err := f.client.Do(req)
		if err != nil {
			b.Fatal(err)
		}
		n, _ := io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			b.Fatalf("GET /: %d", resp.StatusCode)
		}
		b.SetBytes(n)
	}
}
