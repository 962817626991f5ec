package tracing_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/gate-dev/gate/internal/otlptest"
	"github.com/gate-dev/gate/internal/tracing"
	"github.com/gate-dev/gate/runtime"
	"github.com/stretchr/testify/require"
)

func TestEnabled(t *testing.T) {
	for _, tc := range []struct {
		name    string
		env     map[string]string
		on      bool
		wantErr string
	}{
		{"nothing set", nil, false, ""},
		{"an endpoint", map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:4318"}, true, ""},
		{"a traces endpoint", map[string]string{"OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": "http://127.0.0.1:4318/v1/traces"}, true, ""},
		{"otlp asked for", map[string]string{"OTEL_TRACES_EXPORTER": "otlp"}, true, ""},
		{"the SDK disabled", map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:4318", "OTEL_SDK_DISABLED": "true"}, false, ""},
		{"exporter none", map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:4318", "OTEL_TRACES_EXPORTER": "none"}, false, ""},
		{"http/protobuf", map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:4318", "OTEL_EXPORTER_OTLP_PROTOCOL": "http/protobuf"}, true, ""},
		{"grpc", map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:4317", "OTEL_EXPORTER_OTLP_PROTOCOL": "grpc"}, false, `OTEL_EXPORTER_OTLP_PROTOCOL="grpc"`},
		{"the traces protocol wins", map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:4317", "OTEL_EXPORTER_OTLP_PROTOCOL": "grpc", "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL": "http/protobuf"}, true, ""},
		{"another exporter", map[string]string{"OTEL_TRACES_EXPORTER": "zipkin"}, false, `OTEL_TRACES_EXPORTER="zipkin"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			on, err := tracing.Enabled(func(k string) string { return tc.env[k] })
			if tc.wantErr != "" {
				require.ErrorContains(t, err, tc.wantErr)
				return
			}
			require.NoError(t, err)
			require.Equal(t, tc.on, on)
		})
	}
}

// probeOnce opens a manifest of one tool whose probe says unavailable
// (its variable is unset), with obs told of its run, and lists the tools.
func probeOnce(t *testing.T, obs runtime.Observer) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "gate.toml")
	require.NoError(t, os.WriteFile(path, []byte("[[tools]]\nname = \"notes_search\"\nprobe = \"env:GATE_TRACING_TEST_UNSET\"\n"), 0o600))
	cfg := runtime.NewGateConfig()
	if obs != nil {
		cfg = cfg.WithObserver(obs)
	}
	g, err := runtime.Open(context.Background(), path, cfg)
	require.NoError(t, err)
	defer g.Close(context.Background())
	require.Empty(t, g.AvailableTools(context.Background()))
}

// A probe run is a span named for its tool, with the kind of its probe,
// the state and code of its answer and the split of its time; never its
// reason, which may quote the probe.
func TestProbeRunSpan(t *testing.T) {
	otlptest.ClearEnv(t)
	rcv := otlptest.Start(t)
	t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", rcv.URL)
	t.Setenv("OTEL_SERVICE_NAME", "gate-test")
	tr, err := tracing.FromEnv(os.Getenv)
	require.NoError(t, err)
	require.NotNil(t, tr)
	probeOnce(t, tr.Observe(nil))
	require.NoError(t, tr.Shutdown(context.Background()))

	spans := rcv.Named("probe notes_search")
	require.Len(t, spans, 1)
	s := spans[0]
	for key, want := range map[string]string{
		"gate.probe.name": "notes_search", "gate.probe.of": "tool", "gate.probe.kind": "env",
		"gate.probe.state": "unavailable", "gate.probe.code": "env_missing",
	} {
		got, ok := otlptest.Attr(s.Attributes, key)
		require.True(t, ok, key)
		require.Equal(t, want, got, key)
	}
	for _, key := range []string{"gate.probe.queued_s", "gate.probe.run_s"} {
		_, ok := otlptest.Attr(s.Attributes, key)
		require.True(t, ok, key)
	}
	for _, kv := range s.Attributes {
		require.NotContains(t, kv.Value.String(), "GATE_TRACING_TEST_UNSET", "the probe's label or reason went into %s", kv.Key)
	}
	require.Empty(t, s.ParentSpanId, "a probe run is a root span")
	require.LessOrEqual(t, s.StartTimeUnixNano, s.EndTimeUnixNano)
	require.Contains(t, rcv.Services(), "gate-test")
}

// With no OTEL_* variable, or with them saying no, there is no tracer,
// and a probe run sends the receiver nothing.
func TestNothingSentWhenOff(t *testing.T) {
	for _, tc := range []struct {
		name string
		env  map[string]string
	}{
		{"nothing set", nil},
		{"the SDK disabled", map[string]string{"OTEL_SDK_DISABLED": "true"}},
		{"exporter none", map[string]string{"OTEL_TRACES_EXPORTER": "none"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			otlptest.ClearEnv(t)
			rcv := otlptest.Start(t)
			if tc.env != nil {
				t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", rcv.URL)
			}
			for k, v := range tc.env {
				t.Setenv(k, v)
			}
			tr, err := tracing.FromEnv(os.Getenv)
			require.NoError(t, err)
			require.Nil(t, tr)
			obs := tr.Observe(nil)
			require.Nil(t, obs, "tracing off leaves the registry without an observer")
			probeOnce(t, obs)
			require.NoError(t, tr.Shutdown(context.Background()))
			require.Zero(t, rcv.Requests())
		})
	}
}

// A collector that accepts connections and never answers holds Shutdown
// no longer than its bound, however many spans wait.
func TestShutdownBoundedByDeadCollector(t *testing.T) {
	otlptest.ClearEnv(t)
	t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", otlptest.Dead(t))
	tr, err := tracing.FromEnv(os.Getenv)
	require.NoError(t, err)
	probeOnce(t, tr.Observe(nil))

	done := make(chan error, 1)
	begun := time.Now()
	go func() { done <- tr.Shutdown(context.Background()) }()
	select {
	case err := <-done:
		require.Error(t, err, "the spans could not be sent")
		t.Logf("shutdown took %v against a bound of %v", time.Since(begun), tracing.ShutdownBound)
	case <-time.After(tracing.ShutdownBound + 5*time.Second):
		t.Fatalf("Shutdown still waiting on a dead collector past its bound of %v", tracing.ShutdownBound)
	}
}

// A request to the HTTP API is a span, the child of the traceparent in
// its headers, named by its route when it is one of the API's and never
// by another path; /mcp makes none of its own.
func TestHTTPSpans(t *testing.T) {
	otlptest.ClearEnv(t)
	rcv := otlptest.Start(t)
	t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", rcv.URL)
	tr, err := tracing.FromEnv(os.Getenv)
	require.NoError(t, err)
	route := func(p string) string {
		if p == "/v1/status" || p == "/mcp" {
			return p
		}
		return ""
	}
	api := httptest.NewServer(tr.Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/v1/status" {
			http.NotFound(w, r)
		}
	}), "/mcp", route))
	defer api.Close()
	const parent = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"
	for _, path := range []string{"/v1/status", "/v1/secret-token-in-path", "/mcp"} {
		req, err := http.NewRequest(http.MethodGet, api.URL+path, nil)
		require.NoError(t, err)
		req.Header.Set("traceparent", parent)
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		resp.Body.Close()
	}
	require.NoError(t, tr.Shutdown(context.Background()))
	spans := rcv.Spans()
	require.Len(t, spans, 2, "one span each for the two API requests, none for /mcp")
	status := rcv.Named("GET /v1/status")
	require.Len(t, status, 1)
	require.Equal(t, "0af7651916cd43dd8448eb211c80319c", otlptest.Hex(status[0].TraceId))
	require.Equal(t, "b7ad6b7169203331", otlptest.Hex(status[0].ParentSpanId))
	other := rcv.Named("GET")
	require.Len(t, other, 1)
	code, _ := otlptest.Attr(other[0].Attributes, "http.response.status_code")
	require.Contains(t, code, "404")
	for _, s := range spans {
		for _, kv := range s.Attributes {
			require.NotContains(t, kv.Value.String(), "secret-token", "a path the client sent went into %s", kv.Key)
		}
	}
}

// An export to a collector that never answers gives up at the
// exporter's own timeout, retries included (the SDK's default retries for
// a minute), and says so through LogErrors, while gate runs on.
func TestExportTimeoutAgainstDeadCollector(t *testing.T) {
	otlptest.ClearEnv(t)
	t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", otlptest.Dead(t))
	t.Setenv("OTEL_BSP_SCHEDULE_DELAY", "1") // export at once
	tr, err := tracing.FromEnv(os.Getenv)
	require.NoError(t, err)
	errs := make(chan string, 16)
	tr.LogErrors(lineWriter(errs), "test: ")
	begun := time.Now()
	probeOnce(t, tr.Observe(nil))
	select {
	case line := <-errs:
		require.Contains(t, line, "test: tracing: ")
		t.Logf("the export gave up after %v (ExportTimeout %v): %s", time.Since(begun), tracing.ExportTimeout, line)
	case <-time.After(tracing.ExportTimeout + 10*time.Second):
		t.Fatalf("an export to a dead collector was still going past its timeout of %v", tracing.ExportTimeout)
	}
	_ = tr.Shutdown(context.Background())
}

// lineWriter sends each write to lines, or drops it when they are full.
type lineWriter chan string

func (w lineWriter) Write(p []byte) (int, error) {
	select {
	case w <- string(p):
	default:
	}
	return len(p), nil
}

// TestHTTPSpanTakesNoHeaderText: a request's span takes its parent's trace
// and span ids from the traceparent header, and nothing else a client
// wrote: not the tracestate header, a value a client chose (docs/CLI.md:
// no header's value goes into a span), which the collector would store
// with the span.
func TestHTTPSpanTakesNoHeaderText(t *testing.T) {
	otlptest.ClearEnv(t)
	rcv := otlptest.Start(t)
	t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", rcv.URL)
	tr, err := tracing.FromEnv(os.Getenv)
	require.NoError(t, err)
	route := func(p string) string { return p }
	api := httptest.NewServer(tr.Handler(http.HandlerFunc(func(http.ResponseWriter, *http.Request) {}), "/mcp", route))
	defer api.Close()
	req, err := http.NewRequest(http.MethodGet, api.URL+"/v1/status", nil)
	require.NoError(t, err)
	req.Header.Set("traceparent", "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01")
	req.Header.Set("tracestate", "client=textfromtheclient")
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	resp.Body.Close()
	require.NoError(t, tr.Shutdown(context.Background()))
	spans := rcv.Named("GET /v1/status")
	require.Len(t, spans, 1)
	require.Equal(t, "0af7651916cd43dd8448eb211c80319c", otlptest.Hex(spans[0].TraceId), "the client's trace")
	require.Empty(t, spans[0].TraceState, "the client's tracestate went into the span")
}
