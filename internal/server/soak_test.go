package server

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	goruntime "runtime"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// soakDuration is how long TestSoak flaps probes and reloads the manifest.
const soakDuration = 60 * time.Second

// soakManifest gates a tool, a server and a skill on a listener that
// comes and goes every 100 ms, with a 50 ms TTL; the second variant adds
// a tool, so that each reload also adds or removes one.
const soakManifest = `
[runtime]
ttl = "50ms"
grace = "0s"

[[tools]]
name = "flap"
description = "Up one moment, down the next."
probe = "tcp:%[1]s"

[[tools]]
name = "search_web"
probe = "env:GATE_SERVER_TEST_KEY"

[[tools]]
name = "echo"
%[2]s

[[servers]]
name = "mcp:flap"
probe = "tcp:%[1]s"

[skills]
paths = ["skills"]
`

// TestSoak runs soakDuration of flapping probes and manifest reloads with
// event streams connected (five that read everything, one that reconnects
// every second) and a client polling the JSON endpoints and /metrics.
// Then it checks that no stream fell behind, that heap in use did not
// grow beyond 2x + 16 MiB, and that after shutdown the goroutines are
// back to about where they started.
func TestSoak(t *testing.T) {
	goroutinesBefore := goruntime.NumGoroutine()
	t.Run("run", soak)
	if t.Failed() {
		return
	}
	// Replaced Gates are closed a retire delay after their reload; the
	// HTTP server's connections wind down on their own.
	deadline := time.Now().Add(10 * time.Second)
	var after int
	for {
		after = goruntime.NumGoroutine()
		if after <= goroutinesBefore+3 || time.Now().After(deadline) {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Logf("goroutines: %d before, %d after shutdown", goroutinesBefore, after)
	if after > goroutinesBefore+3 {
		buf := make([]byte, 1<<20)
		n := goruntime.Stack(buf, true)
		t.Fatalf("goroutines: %d before the soak, %d after shutdown\n%s", goroutinesBefore, after, buf[:n])
	}
}

func soak(t *testing.T) {
	t.Setenv("GATE_SERVER_TEST_KEY", "k")
	metrics := NewMetrics()
	dir := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "skills", "flap-report"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "skills", "flap-report", "SKILL.md"),
		[]byte("---\nname: flap-report\ndescription: Needs the flapping tool.\nrequires_tools: [flap]\n---\n"), 0o644))

	flap := newFlapper(t)
	manifests := [2]string{
		fmt.Sprintf(soakManifest, flap.addr, ""),
		fmt.Sprintf(soakManifest, flap.addr, "\n[[tools]]\nname = \"extra\"\n"),
	}
	path := writeManifest(t, dir, manifests[0])
	svc := openService(t, path, metrics, serviceConfig(metrics, nil).WithRetireDelay(time.Second))
	runService(t, svc)
	f := serve(t, svc, metrics, Options{PingInterval: 200 * time.Millisecond})

	ctx, stop := context.WithTimeout(context.Background(), soakDuration)
	defer stop()
	var wg sync.WaitGroup
	var reloads, polls, churned atomic.Int64

	// Five readers: every event, in order, none missed.
	readers := make([]*soakReader, 5)
	for i := range readers {
		readers[i] = &soakReader{c: openEvents(t, f, "")}
		wg.Go(readers[i].read)
	}

	wg.Go(func() { flap.run(ctx, 100*time.Millisecond) })
	wg.Go(func() {
		for i := 1; ctx.Err() == nil; i++ {
			sleep(ctx, 500*time.Millisecond)
			writeManifest(t, dir, manifests[i%2])
			if err := svc.Reload(context.Background()); err != nil {
				t.Errorf("reload %d: %v", i, err)
				return
			}
			reloads.Add(1)
		}
	})
	wg.Go(func() { // a client that comes and goes
		for ctx.Err() == nil {
			c := openEvents(t, f, "")
			sleep(ctx, time.Second)
			c.close()
			churned.Add(1)
		}
	})
	wg.Go(func() {
		client := &http.Client{}
		defer client.CloseIdleConnections()
		paths := []string{"/v1/schema", "/v1/tools", "/v1/status", "/v1/skills", "/v1/skills/prompt", "/v1/diagnostics", "/metrics", "/readyz"}
		for i := 0; ctx.Err() == nil; i++ {
			resp, err := client.Get(f.url + paths[i%len(paths)])
			if err != nil {
				t.Errorf("GET %s: %v", paths[i%len(paths)], err)
				return
			}
			_, _ = io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			if resp.StatusCode != http.StatusOK {
				t.Errorf("GET %s: %d", paths[i%len(paths)], resp.StatusCode)
			}
			polls.Add(1)
			sleep(ctx, 20*time.Millisecond)
		}
	})

	// Heap in use, a few seconds in (every structure has been built) and
	// at the end.
	sleep(ctx, min(5*time.Second, soakDuration/4))
	heapStart := heapInUse()
	<-ctx.Done()
	heapEnd := heapInUse()
	for _, r := range readers {
		r.c.close()
	}
	wg.Wait()

	t.Logf("%v: %d flaps, %d reloads, %d events, %d probe runs, %d polls, %d streams opened and closed; heap in use %.1f MiB a few seconds in, %.1f MiB at the end",
		soakDuration, flap.flips.Load(), reloads.Load(), f.srv.hub.generation(),
		int64(value(t, metrics.probeRuns.WithLabelValues("tool", "available"))+value(t, metrics.probeRuns.WithLabelValues("tool", "unavailable"))),
		polls.Load(), churned.Load(), float64(heapStart)/(1<<20), float64(heapEnd)/(1<<20))
	assert.Greater(t, reloads.Load(), int64(soakDuration/time.Second), "reloads")
	assert.Greater(t, value(t, metrics.stateChanges.WithLabelValues("tool")), float64(soakDuration/time.Second), "tool flips")
	assert.Equal(t, 0.0, value(t, metrics.overflows), "a reading stream overflowed")
	for i, r := range readers {
		assert.Empty(t, r.problem, "reader %d", i)
		assert.Greater(t, r.changes, int(soakDuration/time.Second), "reader %d saw too few changes", i)
	}
	if limit := 2*heapStart + 16<<20; heapEnd > limit {
		t.Errorf("heap in use grew from %d to %d bytes (limit 2x + 16 MiB = %d)", heapStart, heapEnd, limit)
	}
}

func heapInUse() uint64 {
	goruntime.GC()
	var m goruntime.MemStats
	goruntime.ReadMemStats(&m)
	return m.HeapInuse
}

func sleep(ctx context.Context, d time.Duration) {
	select {
	case <-ctx.Done():
	case <-time.After(d):
	}
}

// soakReader reads a stream to its end, checking that the ids follow one
// another (no event missed) and no overflow came.
type soakReader struct {
	c       *sseClient
	changes int
	problem string
}

func (r *soakReader) read() {
	last := -1
	for e := range r.c.events {
		switch e.Event {
		case "hello":
			var h struct{ Generation int }
			if err := json.Unmarshal([]byte(e.Data), &h); err != nil {
				r.problem = "bad hello: " + e.Data
			}
			last = h.Generation
		case "change":
			id, err := strconv.Atoi(e.ID)
			if r.problem == "" && (err != nil || id != last+1) {
				r.problem = fmt.Sprintf("event id %q after %d", e.ID, last)
			}
			last = id
			r.changes++
		case "overflow":
			r.problem = "overflow"
		}
	}
}

// flapper is a loopback listener that opens and closes on one port.
type flapper struct {
	t     *testing.T
	addr  string
	mu    sync.Mutex
	l     net.Listener
	flips atomic.Int64
}

func newFlapper(t *testing.T) *flapper {
	f := &flapper{t: t}
	f.open("127.0.0.1:0")
	f.addr = f.l.Addr().String()
	t.Cleanup(f.close)
	return f
}

func (f *flapper) open(addr string) {
	l, err := net.Listen("tcp", addr)
	if err != nil {
		f.t.Errorf("listen again on %s: %v", addr, err)
		return
	}
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			c.Close()
		}
	}()
	f.mu.Lock()
	f.l = l
	f.mu.Unlock()
}

func (f *flapper) close() {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.l != nil {
		f.l.Close()
		f.l = nil
	}
}

// run closes and reopens the listener every period until ctx is done.
func (f *flapper) run(ctx context.Context, period time.Duration) {
	for ctx.Err() == nil {
		sleep(ctx, period)
		f.mu.Lock()
		up := f.l != nil
		f.mu.Unlock()
		if up {
			f.close()
		} else {
			f.open(f.addr)
		}
		f.flips.Add(1)
	}
}
