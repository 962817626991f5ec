package mcpgw_test

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gate-dev/gate/internal/mcptest"
	"github.com/gate-dev/gate/internal/otlptest"
	"github.com/gate-dev/gate/internal/tracing"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/require"
	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"
)

// seenContext is the trace context one call reached the upstream with.
type seenContext struct{ meta, header, metaState, headerState string }

// tracedUpstream is a Go SDK server whose tool "traced" notes the
// traceparent in its request's _meta and HTTP headers, by the call's
// "name" argument.
func tracedUpstream(t *testing.T) (url string, seen func(name string) seenContext) {
	var mu sync.Mutex
	got := map[string]seenContext{}
	s := mcp.NewServer(&mcp.Implementation{Name: "traced-upstream", Version: "1"}, nil)
	s.AddTool(&mcp.Tool{Name: "traced", InputSchema: objectSchema}, func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		var sc seenContext
		sc.meta, _ = req.Params.Meta["traceparent"].(string)
		sc.metaState, _ = req.Params.Meta["tracestate"].(string)
		if req.Extra != nil && req.Extra.Header != nil {
			sc.header = req.Extra.Header.Get("traceparent")
			sc.headerState = req.Extra.Header.Get("tracestate")
		}
		mu.Lock()
		got[parse(req).Name] = sc
		mu.Unlock()
		return text("traced"), nil
	})
	url, _ = httpUpstream(t, s)
	return url + "/mcp", func(name string) seenContext {
		mu.Lock()
		defer mu.Unlock()
		return got[name]
	}
}

// headerTransport sets a traceparent on every request a client sends.
type headerTransport struct{ traceparent string }

func (h headerTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	req = req.Clone(req.Context())
	req.Header.Set("traceparent", h.traceparent)
	return http.DefaultTransport.RoundTrip(req)
}

// A forwarded tools/call is a span whose parent is the trace context the
// client sent, in its request's _meta or as the header on /mcp; the
// upstream gets gate's span as its parent, in its request's _meta and,
// over HTTP, as the header.
func TestTracingForwardedCall(t *testing.T) {
	rcv, tr := tracerToReceiver(t)
	require.NotNil(t, tr)

	url, seen := tracedUpstream(t)
	h := start(t, fmt.Sprintf("[[servers]]\nname = \"up\"\nurl = %q\n", url), fastConfig().WithTracer(tr))

	const (
		metaTrace   = "4bf92f3577b34da6a3ce929d0e0e4736"
		metaParent  = "00f067aa0ba902b7"
		headerTrace = "0af7651916cd43dd8448eb211c80319c"
		headParent  = "b7ad6b7169203331"
	)
	// In _meta, over a client that sends no header.
	c := h.client()
	waitTool(t, c, "up_traced")
	ctx, cancel := context.WithTimeout(context.Background(), waitFor)
	defer cancel()
	_, err := c.Session.CallTool(ctx, &mcp.CallToolParams{Name: "up_traced", Arguments: map[string]any{"name": "meta"},
		Meta: mcp.Meta{"traceparent": "00-" + metaTrace + "-" + metaParent + "-01", "tracestate": "vendor=1"}})
	require.NoError(t, err)

	// As the HTTP header on /mcp.
	cl, hc := mcptest.New("header-client")
	cs, err := cl.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: h.url,
		HTTPClient: &http.Client{Transport: headerTransport{"00-" + headerTrace + "-" + headParent + "-01"}}}, nil)
	require.NoError(t, err)
	t.Cleanup(func() { _ = cs.Close() })
	hc.Session = cs
	_, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "up_traced", Arguments: map[string]any{"name": "header"}})
	require.NoError(t, err)

	require.NoError(t, tr.Shutdown(context.Background()))
	spans := rcv.Named("tools/call up_traced")
	require.Len(t, spans, 2)
	for _, tc := range []struct{ name, trace, parent string }{
		{"meta", metaTrace, metaParent},
		{"header", headerTrace, headParent},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var span = spans[0]
			if otlptest.Hex(span.TraceId) != tc.trace {
				span = spans[1]
			}
			require.Equal(t, tc.trace, otlptest.Hex(span.TraceId))
			require.Equal(t, tc.parent, otlptest.Hex(span.ParentSpanId), "gate's span is the client's child")
			for key, want := range map[string]string{"mcp.method.name": "tools/call", "gate.server": "up", "gen_ai.tool.name": "up_traced", "gate.outcome": "ok"} {
				got, ok := otlptest.Attr(span.Attributes, key)
				require.True(t, ok, key)
				require.Equal(t, want, got, key)
			}
			for _, kv := range span.Attributes {
				require.NotContains(t, kv.Value.String(), tc.name, "an argument went into %s", kv.Key)
			}
			want := "00-" + tc.trace + "-" + otlptest.Hex(span.SpanId) + "-01"
			got := seen(tc.name)
			require.Equal(t, want, got.meta, "the upstream's _meta names gate's span as its parent")
			require.Equal(t, want, got.header, "the upstream's traceparent header names gate's span")
			require.False(t, strings.Contains(got.meta, tc.parent), "the client's span is not passed on as the upstream's parent")
		})
	}
}

// TestTracingKeepsNoClientTracestate: the client's tracestate is text it
// chose, which gate's span does not keep (no value a client wrote goes
// into a span); the upstream gets it as it came, in _meta and as the
// header, as Trace Context asks of a hop.
func TestTracingKeepsNoClientTracestate(t *testing.T) {
	rcv, tr := tracerToReceiver(t)
	url, seen := tracedUpstream(t)
	h := start(t, fmt.Sprintf("[[servers]]\nname = \"up\"\nurl = %q\n", url), fastConfig().WithTracer(tr))
	c := h.client()
	waitTool(t, c, "up_traced")
	ctx, cancel := context.WithTimeout(context.Background(), waitFor)
	defer cancel()
	const state = "vendor=textfromtheclient"
	_, err := c.Session.CallTool(ctx, &mcp.CallToolParams{Name: "up_traced", Arguments: map[string]any{"name": "state"},
		Meta: mcp.Meta{"traceparent": "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01", "tracestate": state}})
	require.NoError(t, err)
	require.NoError(t, tr.Shutdown(context.Background()))
	spans := rcv.Named("tools/call up_traced")
	require.Len(t, spans, 1)
	require.Equal(t, "4bf92f3577b34da6a3ce929d0e0e4736", otlptest.Hex(spans[0].TraceId), "the client's trace")
	require.Empty(t, spans[0].TraceState, "the client's tracestate went into gate's span")
	got := seen("state")
	require.Equal(t, state, got.metaState, "the upstream's _meta has the client's tracestate")
	require.Equal(t, state, got.headerState, "the upstream's tracestate header is the client's")
}

// featureTracedUpstream is a Go SDK server with a resource, a prompt and
// completions, each noting the trace context its request came with, by
// method.
func featureTracedUpstream(t *testing.T) (url string, seen func(method string) seenContext) {
	var mu sync.Mutex
	got := map[string]seenContext{}
	note := func(method string, meta mcp.Meta, extra *mcp.RequestExtra) {
		var sc seenContext
		sc.meta, _ = meta["traceparent"].(string)
		sc.metaState, _ = meta["tracestate"].(string)
		if extra != nil && extra.Header != nil {
			sc.header = extra.Header.Get("traceparent")
			sc.headerState = extra.Header.Get("tracestate")
		}
		mu.Lock()
		got[method] = sc
		mu.Unlock()
	}
	s := mcp.NewServer(&mcp.Implementation{Name: "traced-features", Version: "1"}, &mcp.ServerOptions{
		CompletionHandler: func(_ context.Context, r *mcp.CompleteRequest) (*mcp.CompleteResult, error) {
			note("completion/complete", r.Params.Meta, r.Extra)
			return &mcp.CompleteResult{Completion: mcp.CompletionResultDetails{Values: []string{"alice"}}}, nil
		},
	})
	s.AddResource(&mcp.Resource{URI: tracedURI, Name: "traced", MIMEType: "text/plain"}, func(_ context.Context, r *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
		note("resources/read", r.Params.Meta, r.Extra)
		return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: r.Params.URI, MIMEType: "text/plain", Text: "traced"}}}, nil
	})
	s.AddPrompt(&mcp.Prompt{Name: "traced", Arguments: []*mcp.PromptArgument{{Name: "who"}}}, func(_ context.Context, r *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
		note("prompts/get", r.Params.Meta, r.Extra)
		return &mcp.GetPromptResult{Messages: []*mcp.PromptMessage{{Role: "user", Content: &mcp.TextContent{Text: "traced"}}}}, nil
	})
	url, _ = httpUpstream(t, s)
	return url + "/mcp", func(method string) seenContext {
		mu.Lock()
		defer mu.Unlock()
		return got[method]
	}
}

// tracedURI is the resource of featureTracedUpstream; a secret-looking
// query that must not reach a span.
const tracedURI = "file:///traced.txt?key=urisecret"

// TestTracingForwardedFeatures: a forwarded resources/read, prompts/get
// and completion/complete is each a span, as a tools/call is: its parent
// the client's trace context (in _meta, else the /mcp header), gate's span
// passed to the upstream in the forwarded request's _meta and headers,
// and no URI, argument or other text of the client's in the span.
func TestTracingForwardedFeatures(t *testing.T) {
	rcv, tr := tracerToReceiver(t)
	url, seen := featureTracedUpstream(t)
	h := start(t, fmt.Sprintf("[[servers]]\nname = \"up\"\nurl = %q\n", url), fastConfig().WithTracer(tr))
	ctx, cancel := context.WithTimeout(context.Background(), waitFor)
	defer cancel()

	const headerTrace, headerParent = "0af7651916cd43dd8448eb211c80319c", "b7ad6b7169203331"
	cl, hc := mcptest.New("header-client")
	cs, err := cl.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: h.url,
		HTTPClient: &http.Client{Transport: headerTransport{"00-" + headerTrace + "-" + headerParent + "-01"}}}, nil)
	require.NoError(t, err)
	t.Cleanup(func() { _ = cs.Close() })
	hc.Session = cs
	require.Eventually(t, func() bool {
		p, err := cs.ListPrompts(ctx, nil)
		return err == nil && len(p.Prompts) == 1
	}, waitFor, 10*time.Millisecond, "the upstream's prompt offered")

	type call struct {
		method, span  string
		trace, parent string // the client's: in _meta, else the header
		upstream      seenContext
	}
	var calls []call
	for _, tc := range []struct {
		method, span string
		send         func(mcp.Meta) error
	}{
		{"resources/read", "resources/read", func(m mcp.Meta) error {
			_, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: tracedURI, Meta: m})
			return err
		}},
		{"prompts/get", "prompts/get up_traced", func(m mcp.Meta) error {
			_, err := cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "up_traced", Arguments: map[string]string{"who": "argsecret"}, Meta: m})
			return err
		}},
		{"completion/complete", "completion/complete", func(m mcp.Meta) error {
			_, err := cs.Complete(ctx, &mcp.CompleteParams{Ref: &mcp.CompleteReference{Type: "ref/prompt", Name: "up_traced"},
				Argument: mcp.CompleteParamsArgument{Name: "who", Value: "argsecret"}, Meta: m})
			return err
		}},
	} {
		// In _meta, which wins over the header the same POST carries.
		metaTrace := fmt.Sprintf("%032x", len(calls)+1)
		require.NoError(t, tc.send(mcp.Meta{"traceparent": "00-" + metaTrace + "-00f067aa0ba902b7-01", "tracestate": "vendor=statesecret"}), tc.method)
		calls = append(calls, call{tc.method, tc.span, metaTrace, "00f067aa0ba902b7", seen(tc.method)})
		// The header only.
		require.NoError(t, tc.send(nil), tc.method)
		calls = append(calls, call{tc.method, tc.span, headerTrace, headerParent, seen(tc.method)})
	}
	require.NoError(t, tr.Shutdown(context.Background()))

	for _, c := range calls {
		t.Run(c.method+" "+c.trace, func(t *testing.T) {
			var span *tracepb.Span
			for _, s := range rcv.Named(c.span) {
				if otlptest.Hex(s.TraceId) == c.trace {
					span = s
				}
			}
			require.NotNil(t, span, "a span %q in the client's trace", c.span)
			require.Equal(t, c.parent, otlptest.Hex(span.ParentSpanId), "gate's span is the client's child")
			want := map[string]string{"mcp.method.name": c.method, "gate.server": "up", "gate.outcome": "ok"}
			if c.method == "prompts/get" {
				want["gen_ai.prompt.name"] = "up_traced"
			}
			for key, v := range want {
				got, ok := otlptest.Attr(span.Attributes, key)
				require.True(t, ok, key)
				require.Equal(t, v, got, key)
			}
			require.Len(t, span.Attributes, len(want), "no attribute but those")
			require.Empty(t, span.TraceState, "the client's tracestate went into gate's span")
			gate := "00-" + c.trace + "-" + otlptest.Hex(span.SpanId) + "-01"
			require.Equal(t, gate, c.upstream.meta, "the upstream's _meta names gate's span as its parent")
			require.Equal(t, gate, c.upstream.header, "the upstream's traceparent header names gate's span")
		})
	}
	for _, s := range rcv.Spans() {
		require.NotContains(t, s.Name, "secret", "a client's text went into a span's name")
		for _, kv := range s.Attributes {
			require.NotContains(t, kv.Value.String(), "secret", "a client's text went into %s", kv.Key)
		}
	}
}

// TestTracingSessionsShareTheQueue: each client session is its own party
// in the span export queue, so one that floods gate with calls while the
// collector is slow loses its own spans past its share, and every span of
// another session still arrives.
func TestTracingSessionsShareTheQueue(t *testing.T) {
	otlptest.ClearEnv(t)
	rcv := otlptest.Start(t)
	t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", rcv.URL)
	const queue = 8 // a session's share is a quarter of it
	t.Setenv("OTEL_BSP_MAX_QUEUE_SIZE", fmt.Sprint(queue))
	t.Setenv("OTEL_EXPORTER_OTLP_TIMEOUT", "600000") // the collector is slow, not failing
	t.Setenv("OTEL_BSP_EXPORT_TIMEOUT", "600000")
	tr, err := tracing.FromEnv(os.Getenv)
	require.NoError(t, err)
	url, _ := tracedUpstream(t)
	h := start(t, fmt.Sprintf("[[servers]]\nname = \"up\"\nurl = %q\n", url), fastConfig().WithTracer(tr))
	flooder, other := h.client(), h.client()
	waitTool(t, flooder, "up_traced")
	release := rcv.Hold(t)

	const flood, others = 5 * queue, 2
	for i := range flood {
		_, err := flooder.call(t, "up_traced", map[string]any{"name": fmt.Sprint("flood", i)})
		require.NoError(t, err)
	}
	for i := range others {
		_, err := other.Session.CallTool(context.Background(), &mcp.CallToolParams{Name: "up_traced", Arguments: map[string]any{"name": fmt.Sprint("other", i)},
			Meta: mcp.Meta{"traceparent": "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"}})
		require.NoError(t, err)
	}
	release()
	require.NoError(t, tr.Shutdown(context.Background()))

	spans := rcv.Named("tools/call up_traced")
	var mine int
	for _, s := range spans {
		if otlptest.Hex(s.TraceId) == "4bf92f3577b34da6a3ce929d0e0e4736" {
			mine++
		}
	}
	require.Equal(t, others, mine, "every span of the other session arrives")
	require.Len(t, spans, others+queue/4, "the flooding session's share, and the other's spans")
}

// tracerToReceiver is a tracer, made from the environment as gatectl makes
// it, that exports to a receiver of the test's own, and that receiver.
func tracerToReceiver(t *testing.T) (*otlptest.Receiver, *tracing.Tracer) {
	t.Helper()
	otlptest.ClearEnv(t)
	rcv := otlptest.Start(t)
	t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", rcv.URL)
	tr, err := tracing.FromEnv(os.Getenv)
	require.NoError(t, err)
	return rcv, tr
}
