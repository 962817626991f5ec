package tracing

import (
	"net/http"
	"strings"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/trace"
)

// Handler returns h with a span for each request to gate's HTTP API (the
// /v1 routes, health, metrics), a child of the traceparent in its
// headers; h itself when tracing is off. Requests to mcpPath are passed
// on as they came: the span of an MCP request is its forwarded request's
// (Forward), which reads the headers itself, and the streams of /mcp last
// as long as sessions.
//
// The span names the path only when route says it is one of the API's
// (route returns it, else ""), never any other path a client sent, and
// the method only when it is one of HTTP's; of the trace context it takes
// the ids, not the tracestate.
func (t *Tracer) Handler(h http.Handler, mcpPath string, route func(path string) string) http.Handler {
	if t == nil {
		return h
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == mcpPath || strings.HasPrefix(r.URL.Path, mcpPath+"/") {
			h.ServeHTTP(w, r)
			return
		}
		parent := WithParty(r.Context(), APIParty)
		// The parent's ids only: its tracestate is text the client chose,
		// and a request to the API is passed on to no one who would read it.
		if sc := trace.SpanContextFromContext(t.carrier.Extract(parent, propagation.HeaderCarrier(r.Header))); sc.IsValid() {
			parent = trace.ContextWithRemoteSpanContext(parent, sc.WithTraceState(trace.TraceState{}))
		}
		method := knownMethod(r.Method)
		name, attrs := method, []attribute.KeyValue{attribute.String("http.request.method", method)}
		if path := route(r.URL.Path); path != "" {
			name += " " + path
			attrs = append(attrs, attribute.String("http.route", path))
		}
		ctx, span := t.tracer.Start(parent, name, trace.WithSpanKind(trace.SpanKindServer), trace.WithAttributes(attrs...))
		defer span.End()
		sw := &statusWriter{ResponseWriter: w, status: http.StatusOK}
		h.ServeHTTP(sw, r.WithContext(ctx))
		span.SetAttributes(attribute.Int("http.response.status_code", sw.status))
		if sw.status >= 500 {
			span.SetStatus(codes.Error, "")
		}
	})
}

// knownMethod is the request's method if it is one of HTTP's, else
// "_OTHER", as OpenTelemetry's conventions say.
func knownMethod(m string) string {
	switch m {
	case http.MethodGet, http.MethodHead, http.MethodPost, http.MethodPut, http.MethodPatch,
		http.MethodDelete, http.MethodConnect, http.MethodOptions, http.MethodTrace:
		return m
	}
	return "_OTHER"
}

// statusWriter notes the status a handler wrote, passing on Flush (the
// event stream needs it).
type statusWriter struct {
	http.ResponseWriter
	status int
}

func (w *statusWriter) WriteHeader(code int) {
	w.status = code
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// Unwrap lets http.ResponseController reach the connection's deadlines.
func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }
