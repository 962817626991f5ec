package server

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	goruntime "runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// benchTools is the size of the load test's manifest: 1,000 tools, nine
// in ten gated by a standard env probe on a variable that is set, the rest
// without a probe; each with a small parameters schema, as real tools
// have.
const benchTools = 1000

func benchManifest(b *testing.B, ttl string) string {
	var m strings.Builder
	fmt.Fprintf(&m, "[runtime]\nttl = %q\n\n", ttl)
	for i := range benchTools {
		fmt.Fprintf(&m, "[[tools]]\nname = \"tool_%04d\"\ndescription = \"Benchmark tool number %d: does one thing well.\"\n", i, i)
		fmt.Fprintf(&m, "parameters = { type = \"object\", properties = { query = { type = \"string\" }, limit = { type = \"integer\" } }, required = [\"query\"] }\n")
		if i%10 != 0 {
			v := fmt.Sprintf("GATE_BENCH_VAR_%04d", i)
			b.Setenv(v, "set")
			fmt.Fprintf(&m, "probe = \"env:%s\"\n", v)
		}
		m.WriteString("\n")
	}
	return m.String()
}

// benchFixture serves a 1,000-tool service with the given TTL, after its
// first round.
func benchFixture(b *testing.B, metrics *Metrics, ttl string) *fixture {
	b.Helper()
	path := writeManifest(b, b.TempDir(), benchManifest(b, ttl))
	svc := openService(b, path, metrics, serviceConfig(metrics, nil))
	runService(b, svc)
	return serve(b, svc, metrics, Options{})
}

// BenchmarkSchema1000 is the load test of GET /v1/schema with 1,000 tools
// over real HTTP on loopback, one keep-alive client sending requests one
// after the other (b.N of them: bounded by -benchtime), in three settings:
// idle; while 100 clients hold event streams; while the refresher
// re-probes every tool every ~80 ms (TTL 100 ms). It reports requests per
// second and the p50 and p99 latencies in µs; the refreshing variant also
// reports the probe runs per second behind it. No request runs a probe.
func BenchmarkSchema1000(b *testing.B) {
	idle := benchFixture(b, nil, "30s")
	b.Run("idle", func(b *testing.B) { benchSchema(b, idle, nil) })

	var streams []*sseClient
	for range 100 {
		c := openEvents(b, idle, "")
		c.waitFor(b, 5*time.Second, "hello", isEvent("hello"))
		streams = append(streams, c)
	}
	b.Run("sse100", func(b *testing.B) {
		if n := idle.srv.hub.count(); n != 100 {
			b.Fatalf("%d streams connected, want 100", n)
		}
		benchSchema(b, idle, nil)
	})
	for _, c := range streams {
		c.close()
	}

	metrics := NewMetrics()
	busy := benchFixture(b, metrics, "100ms")
	b.Run("refreshing", func(b *testing.B) {
		benchSchema(b, busy, func() float64 {
			n := 0.0
			for _, o := range []string{"available", "unavailable", "error"} {
				n += value(b, metrics.probeRuns.WithLabelValues("tool", o))
			}
			return n
		})
	})
}

// BenchmarkToolsConcurrent1000 is GET /v1/tools with 1,000 tools from 8
// clients at once: the answer is rendered once per change of the list
// and shared, so the server's allocations per request (B/op, in this
// process with the clients') stay near the body's copy the client reads,
// rather than a rendering per request.
func BenchmarkToolsConcurrent1000(b *testing.B) {
	f := benchFixture(b, nil, "30s")
	b.ReportAllocs()
	b.SetParallelism(8 / max(1, goruntime.GOMAXPROCS(0)))
	b.RunParallel(func(pb *testing.PB) {
		client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 1}}
		defer client.CloseIdleConnections()
		for pb.Next() {
			resp, err := client.Get(f.url + "/v1/tools")
			if err != nil {
				b.Error(err)
				return
			}
			_, _ = io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
		}
	})
}

// benchSchema sends b.N requests and reports their rate and latencies;
// probes, when not nil, counts the probe runs so far.
func benchSchema(b *testing.B, f *fixture, probes func() float64) {
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 1}}
	defer client.CloseIdleConnections()
	url := f.url + "/v1/schema?format=openai"
	// Read as a client that wants the whole body does, in big reads (the
	// body is about 420 KB; io.Discard would read it 8 KB at a time).
	buf := make([]byte, 1<<20)
	get := func() int {
		resp, err := client.Get(url)
		if err != nil {
			b.Fatal(err)
		}
		n := 0
		for err == nil {
			var k int
			k, err = resp.Body.Read(buf)
			n += k
		}
		resp.Body.Close()
		if err != io.EOF || resp.StatusCode != http.StatusOK {
			b.Fatalf("GET %s: %d, %v", url, resp.StatusCode, err)
		}
		return n
	}
	size := get() // connect, and render once
	b.SetBytes(int64(size))
	lat := make([]time.Duration, b.N)
	var before float64
	if probes != nil {
		before = probes()
	}
	b.ResetTimer()
	start := time.Now()
	for i := range b.N {
		t0 := time.Now()
		get()
		lat[i] = time.Since(t0)
	}
	elapsed := time.Since(start)
	b.StopTimer()
	slices.Sort(lat)
	pct := func(p float64) float64 {
		i := int(float64(len(lat))*p+0.999999) - 1
		return float64(lat[max(i, 0)].Nanoseconds()) / 1e3
	}
	b.ReportMetric(float64(b.N)/elapsed.Seconds(), "req/s")
	b.ReportMetric(pct(0.50), "p50-µs")
	b.ReportMetric(pct(0.99), "p99-µs")
	if probes != nil {
		b.ReportMetric((probes()-before)/elapsed.Seconds(), "probes/s")
	}
}

// BenchmarkStatus1000 is GET /v1/status with 1,000 tools over real HTTP
// on loopback from 8 clients at once, each on its own keep-alive
// connection, against a static handler that serves the same bytes with
// the same headers behind the same listener and server settings, in one
// run: the static server is the anchor, what no rendering can beat. b.N
// requests go to each, in alternating slices so that both see the same
// machine. It reports both rates and status-req/s as a share of the
// static rate (ratio); idle, and while the refresher re-probes every tool
// every ~80 ms (TTL 100 ms), which changes the answers every tick.
func BenchmarkStatus1000(b *testing.B) {
	for _, c := range []struct{ name, ttl string }{{"idle", "30s"}, {"refreshing", "100ms"}} {
		f := benchFixture(b, nil, c.ttl)
		b.Run(c.name, func(b *testing.B) { benchStatus(b, f) })
	}
}

func benchStatus(b *testing.B, f *fixture) {
	first := f.get(b, "/v1/status")
	if first.code != http.StatusOK {
		b.Fatalf("GET /v1/status: %d", first.code)
	}
	body := []byte(first.body)
	header := http.Header{}
	for _, k := range []string{"Content-Type", "Cache-Control", "X-Content-Type-Options"} {
		header.Set(k, first.header.Get(k))
	}
	static := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		for k, v := range header {
			w.Header()[k] = v
		}
		writeBody(w, http.StatusOK, header.Get("Content-Type"), body)
	})
	l, err := Listen("tcp", "127.0.0.1:0", ServerOptions{})
	if err != nil {
		b.Fatal(err)
	}
	ts := &httptest.Server{Listener: l, Config: NewHTTPServer(static, ServerOptions{})}
	ts.Start()
	defer ts.Close()

	const clients, slices = 8, 16
	statusURL, staticURL := f.url+"/v1/status", ts.URL+"/v1/status"
	b.SetBytes(int64(len(body)))
	b.ResetTimer()
	var took [2]time.Duration
	for i := range slices {
		n := b.N / slices
		if i == slices-1 {
			n = b.N - n*(slices-1)
		}
		took[0] += benchParallelGets(b, statusURL, n, clients)
		took[1] += benchParallelGets(b, staticURL, n, clients)
	}
	b.StopTimer()
	statusRate, staticRate := float64(b.N)/took[0].Seconds(), float64(b.N)/took[1].Seconds()
	b.ReportMetric(statusRate, "status-req/s")
	b.ReportMetric(staticRate, "static-req/s")
	b.ReportMetric(statusRate/staticRate, "ratio")
}

// benchParallelGets sends n GETs of url from clients goroutines, each
// with one keep-alive connection, reading every body whole in big reads,
// and returns how long they took.
func benchParallelGets(b *testing.B, url string, n, clients int) time.Duration {
	var next atomic.Int64
	var wg sync.WaitGroup
	start := time.Now()
	for range clients {
		wg.Go(func() {
			client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 1}}
			defer client.CloseIdleConnections()
			buf := make([]byte, 1<<20)
			for next.Add(1) <= int64(n) {
				resp, err := client.Get(url)
				if err != nil {
					b.Error(err)
					return
				}
				for err == nil {
					_, err = resp.Body.Read(buf)
				}
				resp.Body.Close()
				if err != io.EOF || resp.StatusCode != http.StatusOK {
					b.Errorf("GET %s: %d, %v", url, resp.StatusCode, err)
					return
				}
			}
		})
	}
	wg.Wait()
	return time.Since(start)
}
