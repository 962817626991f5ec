package tracing

import (
	"context"
	"net/http"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/trace"
)

// The keys of W3C Trace Context, in HTTP headers and, as MCP's SEP-414
// says, in a request's _meta. Baggage is neither read nor passed on: it
// carries whatever a client put in it, for every hop.
const (
	keyTraceparent = "traceparent"
	keyTracestate  = "tracestate"
)

// Span is one forwarded request's span; nil when tracing is off.
type Span struct{ span trace.Span }

// Forwarded is a request gate forwards to an upstream, as its span names
// it: only names gate offers, never a URI, an argument or other text a
// client sent.
type Forwarded struct {
	Method string // "tools/call", "resources/read", "prompts/get", "completion/complete"
	Server string // the manifest's name of the upstream
	Tool   string // tools/call: the tool as gate offers it (gen_ai.tool.name)
	Prompt string // prompts/get: the prompt as gate offers it (gen_ai.prompt.name)
}

// Forward starts the span of a request gate forwards to an upstream, made
// for the party of ctx (WithParty). Its parent is the trace context in
// the request's _meta (meta), else in the HTTP request's headers (header,
// nil over stdio), else none; ctx then carries the span, which Meta and
// Transport pass on. A traceparent that is not W3C's form is ignored, as
// the propagator ignores it.
func (t *Tracer) Forward(ctx context.Context, req Forwarded, header http.Header, meta map[string]any) (context.Context, *Span) {
	if t == nil {
		return ctx, nil
	}
	parent := t.carrier.Extract(context.Background(), metaCarrier(meta))
	if !trace.SpanContextFromContext(parent).IsValid() && header != nil {
		parent = t.carrier.Extract(context.Background(), propagation.HeaderCarrier(header))
	}
	if sc := trace.SpanContextFromContext(parent); sc.IsValid() {
		// The span takes the parent's ids, not its tracestate, text the
		// client chose (no value a client wrote goes into a span); the
		// upstream gets that tracestate as it came (Meta, Transport), as
		// Trace Context asks of a hop that adds no entry of its own.
		ctx = trace.ContextWithRemoteSpanContext(ctx, sc.WithTraceState(trace.TraceState{}))
		if ts := sc.TraceState(); ts.Len() > 0 {
			ctx = context.WithValue(ctx, clientStateKey{}, ts)
		}
	}
	name := req.Method
	attrs := []attribute.KeyValue{attribute.String("mcp.method.name", req.Method), attribute.String("gate.server", req.Server)}
	switch {
	case req.Method == "tools/call":
		name += " " + req.Tool
		attrs = append(attrs, attribute.String("gen_ai.tool.name", req.Tool))
	case req.Prompt != "":
		name += " " + req.Prompt
		attrs = append(attrs, attribute.String("gen_ai.prompt.name", req.Prompt))
	}
	ctx, span := t.tracer.Start(ctx, name, trace.WithSpanKind(trace.SpanKindServer), trace.WithAttributes(attrs...))
	return ctx, &Span{span: span}
}

// End ends the span with the request's outcome (for tools/call,
// gate_mcp_calls_total's label; for the others "ok", "cancelled" or
// "error"): "ok" and "tool_error" are answers, anything else an error.
func (s *Span) End(outcome string) {
	if s == nil {
		return
	}
	s.span.SetAttributes(attribute.String("gate.outcome", outcome))
	if outcome != "ok" && outcome != "tool_error" {
		s.span.SetStatus(codes.Error, outcome)
	}
	s.span.End()
}

// Meta returns meta (the _meta of a request gate sends upstream) with the
// traceparent and tracestate of ctx's span, so that the upstream's span
// is its child; meta itself when ctx has no span (tracing off). A nil meta
// is made.
func Meta(ctx context.Context, meta map[string]any) map[string]any {
	if !trace.SpanContextFromContext(ctx).IsValid() {
		return meta
	}
	if meta == nil {
		meta = make(map[string]any, 2)
	}
	propagation.TraceContext{}.Inject(ctx, metaCarrier(meta))
	if ts, ok := clientState(ctx); ok {
		meta[keyTracestate] = ts
	}
	return meta
}

// clientStateKey is the context key of the tracestate the client sent
// with a forwarded request, which its span does not keep (Forward).
type clientStateKey struct{}

// clientState is the tracestate the client sent with the request ctx
// forwards, if any.
func clientState(ctx context.Context) (string, bool) {
	ts, ok := ctx.Value(clientStateKey{}).(trace.TraceState)
	return ts.String(), ok
}

// metaCarrier reads and writes the trace context keys of a _meta object:
// only those, and only string values.
type metaCarrier map[string]any

func (m metaCarrier) Get(key string) string {
	if key != keyTraceparent && key != keyTracestate {
		return ""
	}
	s, _ := m[key].(string)
	return s
}

func (m metaCarrier) Set(key, value string) { m[key] = value }

func (m metaCarrier) Keys() []string { return []string{keyTraceparent, keyTracestate} }

// Transport returns base with the traceparent and tracestate of each
// request's context's span set as headers (an HTTP upstream's requests
// are sent under the context of the forwarded request); base itself when
// tracing is off.
func (t *Tracer) Transport(base http.RoundTripper) http.RoundTripper {
	if t == nil {
		return base
	}
	return traceHeaders{base: base}
}

type traceHeaders struct{ base http.RoundTripper }

func (h traceHeaders) RoundTrip(req *http.Request) (*http.Response, error) {
	if !trace.SpanContextFromContext(req.Context()).IsValid() {
		return h.base.RoundTrip(req)
	}
	out := req.Clone(req.Context()) // a RoundTripper must not change its request
	propagation.TraceContext{}.Inject(req.Context(), propagation.HeaderCarrier(out.Header))
	if ts, ok := clientState(req.Context()); ok {
		out.Header.Set(keyTracestate, ts)
	}
	return h.base.RoundTrip(out)
}
