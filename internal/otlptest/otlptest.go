// Package otlptest is the OTLP/HTTP trace receiver of gate's tests: a
// loopback net/http server that accepts POST /v1/traces in protobuf, as a
// collector does, and keeps the spans it was sent (Start), or one that
// holds its exports unanswered until told (Hold), or a collector that
// never answers at all (Dead).
package otlptest

import (
	"bytes"
	"encoding/hex"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"sync"
	"testing"

	coltrace "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	commonpb "go.opentelemetry.io/proto/otlp/common/v1"
	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"
	"google.golang.org/protobuf/proto"
)

// Receiver is the collector; URL is its base (set
// OTEL_EXPORTER_OTLP_ENDPOINT to it).
type Receiver struct {
	URL string

	mu       sync.Mutex
	held     chan struct{} // closed to answer the exports Hold keeps waiting
	requests int
	spans    []*tracepb.Span
	services []string
}

// Start serves a Receiver until the test ends.
func Start(t testing.TB) *Receiver {
	r := &Receiver{}
	srv := httptest.NewServer(http.HandlerFunc(r.serve))
	t.Cleanup(srv.Close)
	r.URL = srv.URL
	return r
}

func (r *Receiver) serve(w http.ResponseWriter, req *http.Request) {
	if req.Method != http.MethodPost || req.URL.Path != "/v1/traces" || req.Header.Get("Content-Type") != "application/x-protobuf" {
		http.Error(w, "POST /v1/traces in protobuf only", http.StatusNotFound)
		return
	}
	body, err := io.ReadAll(io.LimitReader(req.Body, 16<<20))
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	r.mu.Lock()
	held := r.held
	r.mu.Unlock()
	if held != nil {
		select {
		case <-held:
		case <-req.Context().Done():
			return
		}
	}
	var export coltrace.ExportTraceServiceRequest
	if err := proto.Unmarshal(body, &export); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	r.mu.Lock()
	r.requests++
	for _, rs := range export.ResourceSpans {
		if v, ok := Attr(rs.GetResource().GetAttributes(), "service.name"); ok {
			r.services = append(r.services, v)
		}
		for _, ss := range rs.ScopeSpans {
			r.spans = append(r.spans, ss.Spans...)
		}
	}
	r.mu.Unlock()
	out, _ := proto.Marshal(&coltrace.ExportTraceServiceResponse{})
	w.Header().Set("Content-Type", "application/x-protobuf")
	_, _ = io.Copy(w, bytes.NewReader(out))
}

// Hold keeps every export that comes from now on waiting, unanswered and
// its spans not kept, until release is called (at the latest when the test
// ends): a collector that is slow, so that the exporter's queue fills.
func (r *Receiver) Hold(t testing.TB) (release func()) {
	held := make(chan struct{})
	r.mu.Lock()
	r.held = held
	r.mu.Unlock()
	var once sync.Once
	release = func() {
		once.Do(func() {
			r.mu.Lock()
			r.held = nil
			r.mu.Unlock()
			close(held)
		})
	}
	t.Cleanup(release)
	return release
}

// Requests is how many exports came.
func (r *Receiver) Requests() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.requests
}

// Spans are the spans received so far.
func (r *Receiver) Spans() []*tracepb.Span {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]*tracepb.Span(nil), r.spans...)
}

// Services are the service.name of each batch of spans received.
func (r *Receiver) Services() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.services...)
}

// Named returns the received spans called name.
func (r *Receiver) Named(name string) []*tracepb.Span {
	var out []*tracepb.Span
	for _, s := range r.Spans() {
		if s.Name == name {
			out = append(out, s)
		}
	}
	return out
}

// Attr is the string form of the attribute key among attrs.
func Attr(attrs []*commonpb.KeyValue, key string) (string, bool) {
	for _, kv := range attrs {
		if kv.Key != key {
			continue
		}
		switch v := kv.Value.Value.(type) {
		case *commonpb.AnyValue_StringValue:
			return v.StringValue, true
		default:
			return kv.Value.String(), true
		}
	}
	return "", false
}

// Hex is an id as traceparent writes it.
func Hex(id []byte) string { return hex.EncodeToString(id) }

// Dead returns the URL of a collector that accepts every connection and
// holds it open without ever answering, until the test ends.
func Dead(t testing.TB) string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("otlptest: %v", err)
	}
	var mu sync.Mutex
	var held []net.Conn
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			held = append(held, c)
			mu.Unlock()
		}
	}()
	t.Cleanup(func() {
		l.Close()
		<-done
		mu.Lock()
		defer mu.Unlock()
		for _, c := range held {
			c.Close()
		}
	})
	return "http://" + l.Addr().String()
}

// ClearEnv unsets, for the test, every OTEL_* variable that would send a
// test's spans elsewhere than its receiver or change how they are named,
// batched, sampled or timed: each test starts with none.
func ClearEnv(t testing.TB) {
	for _, k := range []string{
		"OTEL_SDK_DISABLED", "OTEL_TRACES_EXPORTER", "OTEL_EXPORTER_OTLP_ENDPOINT", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT",
		"OTEL_EXPORTER_OTLP_PROTOCOL", "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL", "OTEL_SERVICE_NAME",
		"OTEL_EXPORTER_OTLP_TIMEOUT", "OTEL_EXPORTER_OTLP_TRACES_TIMEOUT", "OTEL_TRACES_SAMPLER", "OTEL_BSP_SCHEDULE_DELAY",
		"OTEL_BSP_MAX_QUEUE_SIZE", "OTEL_BSP_MAX_EXPORT_BATCH_SIZE", "OTEL_BSP_EXPORT_TIMEOUT",
	} {
		t.Setenv(k, "")
		os.Unsetenv(k)
	}
}
