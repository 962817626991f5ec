package main

import (
	"context"
	"io"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gate-dev/gate/internal/otlptest"
	"github.com/gate-dev/gate/internal/tracing"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// startTracedServe runs gatectl serve on a loopback port with a manifest of one
// env-probed tool, and returns its base URL, its stop and its exit code.
func startTracedServe(t *testing.T) (base string, stop func() time.Duration, code <-chan int, stderr *syncBuffer) {
	t.Setenv("GATE_CACHE_DIR", t.TempDir())
	manifest := filepath.Join(t.TempDir(), "gate.toml")
	writeFile(t, manifest, "[[tools]]\nname = \"notes_search\"\nprobe = \"env:GATE_SERVE_TRACING_UNSET\"\n")
	ctx, cancel := context.WithCancel(context.Background())
	addrc := make(chan string, 1)
	codes := make(chan int, 1)
	stderr = &syncBuffer{}
	go func() {
		codes <- serveContext(ctx, []string{"-m", manifest, "--addr", "127.0.0.1:0"}, nil, io.Discard, stderr, func(addr string) { addrc <- addr })
	}()
	select {
	case a := <-addrc:
		base = "http://" + a
	case c := <-codes:
		t.Fatalf("serve exited with %d: %s", c, stderr.String())
	}
	exited := make(chan int, 1)
	stop = func() time.Duration {
		begun := time.Now()
		cancel()
		exited <- <-codes
		return time.Since(begun)
	}
	t.Cleanup(func() {
		cancel()
	})
	return base, stop, exited, stderr
}

// gatectl serve traces its probe runs and its API's requests, as children
// of the client's traceparent, and sends the last of them as it exits.
func TestServeTraces(t *testing.T) {
	otlptest.ClearEnv(t)
	rcv := otlptest.Start(t)
	t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", rcv.URL)
	base, stop, code, _ := startTracedServe(t)
	req, err := http.NewRequest(http.MethodGet, base+"/v1/status", nil)
	require.NoError(t, err)
	req.Header.Set("traceparent", "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01")
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	resp.Body.Close()
	_, metrics := get(t, base+"/metrics", "")
	assert.Contains(t, metrics, `gate_trace_spans_dropped_total{party="client"} 0`, "the spans' drops are counted on /metrics")
	stop()
	assert.Equal(t, exitOK, <-code)

	status := rcv.Named("GET /v1/status")
	require.Len(t, status, 1)
	assert.Equal(t, "b7ad6b7169203331", otlptest.Hex(status[0].ParentSpanId))
	assert.NotEmpty(t, rcv.Named("probe notes_search"), "the probe's runs are spans")
}

// A collector that accepts and never answers adds no more than the
// tracer's bound to serve's exit; with no OTEL_* variable nothing is
// sent; a variable gate cannot honour is refused at start, by name.
func TestServeTracingBounds(t *testing.T) {
	t.Run("dead collector", func(t *testing.T) {
		otlptest.ClearEnv(t)
		t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", otlptest.Dead(t))
		base, stop, code, stderr := startTracedServe(t)
		status, _ := get(t, base+"/healthz", "")
		require.Equal(t, http.StatusOK, status)
		took := stop()
		assert.Equal(t, exitOK, <-code)
		// serve's own bounds (5 s for the requests, then its last steps)
		// plus the tracer's: what a dead collector may add.
		assert.Less(t, took, shutdownBound+tracing.ShutdownBound+5*time.Second)
		// The spans are lost, and serve says so: when it flushes them at
		// exit, or before, when the batch's own export gave up (a loaded
		// machine may take that long to stop).
		assert.Regexp(t, `gatectl serve: tracing: (the last spans were not all sent|traces export: )`, stderr.String())
		t.Logf("serve exited in %v with a dead collector", took)
	})
	t.Run("nothing set", func(t *testing.T) {
		otlptest.ClearEnv(t)
		rcv := otlptest.Start(t)
		base, stop, code, _ := startTracedServe(t)
		get(t, base+"/v1/status", "")
		stop()
		assert.Equal(t, exitOK, <-code)
		assert.Zero(t, rcv.Requests())
	})
	t.Run("grpc refused", func(t *testing.T) {
		otlptest.ClearEnv(t)
		t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", "http://127.0.0.1:4317")
		t.Setenv("OTEL_EXPORTER_OTLP_PROTOCOL", "grpc")
		var stderr syncBuffer
		got := serveContext(context.Background(), []string{"-m", filepath.Join(t.TempDir(), "none.toml"), "--addr", "127.0.0.1:0"}, nil, io.Discard, &stderr, nil)
		assert.Equal(t, exitUsage, got)
		assert.Contains(t, stderr.String(), `gatectl serve: tracing: OTEL_EXPORTER_OTLP_PROTOCOL="grpc"`)
	})
	t.Run("another exporter refused by gatectl mcp", func(t *testing.T) {
		otlptest.ClearEnv(t)
		t.Setenv("OTEL_TRACES_EXPORTER", "zipkin")
		var stderr syncBuffer
		got := mcpContext(context.Background(), []string{"-m", filepath.Join(t.TempDir(), "none.toml")}, strings.NewReader(""), nil, io.Discard, &stderr)
		assert.Equal(t, exitUsage, got)
		assert.Contains(t, stderr.String(), `gatectl mcp: tracing: OTEL_TRACES_EXPORTER="zipkin"`)
	})
}
