package mcpgw

import (
	"context"
	"reflect"

	"github.com/gate-dev/gate/internal/tracing"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// WithTracer has the gateway make a span of each request it forwards
// (tools/call, resources/read, prompts/get, completion/complete) and pass
// its trace context to the upstream (in the request's _meta, and as
// headers to an HTTP upstream); nil, the default, is none.
func (c Config) WithTracer(t *tracing.Tracer) Config { c.tracer = t; return c }

// traceForward starts the span of a request the client's req gate
// forwards, a child of the trace context the client sent in its _meta
// or, over /mcp, its headers, made for the client's session (its party
// in the export queue).
func (g *Gateway) traceForward(ctx context.Context, req mcp.Request, fwd tracing.Forwarded) (context.Context, *tracing.Span) {
	if g.cfg.tracer == nil {
		return ctx, nil
	}
	var header map[string][]string
	if extra := req.GetExtra(); extra != nil {
		header = extra.Header
	}
	var meta map[string]any
	if p := req.GetParams(); p != nil && !reflect.ValueOf(p).IsNil() { // a typed nil's GetMeta panics
		meta = p.GetMeta()
	}
	party := ""
	if ss, ok := req.GetSession().(*mcp.ServerSession); ok && ss != nil {
		party = ss.ID()
	}
	return g.cfg.tracer.Forward(tracing.WithParty(ctx, tracing.ClientParty(party)), fwd, header, meta)
}

// traceCall starts the span of a forwarded tools/call.
func (g *Gateway) traceCall(ctx context.Context, req *mcp.CallToolRequest, o *offer) (context.Context, *tracing.Span) {
	return g.traceForward(ctx, req, tracing.Forwarded{Method: "tools/call", Server: o.up.name, Tool: o.tool.Name})
}

// tracedForward forwards a resources/read, prompts/get or
// completion/complete (forwardTo) under its span: the upstream gets the
// span as its parent when send puts tracing.Meta(ctx, ...) in its
// request's _meta (the headers of an HTTP upstream carry it anyway).
func tracedForward[R any](g *Gateway, ctx context.Context, req mcp.Request, fwd tracing.Forwarded, rt featureRoute, what string, send func(context.Context, *mcp.ClientSession) (R, error)) (R, error) {
	fwd.Server = rt.up.name
	ctx, span := g.traceForward(ctx, req, fwd)
	ss, _ := req.GetSession().(*mcp.ServerSession)
	res, err := forwardTo(g, ctx, ss, rt, what, send)
	outcome := OutcomeOK
	switch {
	case err != nil && ctx.Err() != nil:
		outcome = OutcomeCancelled
	case err != nil:
		outcome = OutcomeError
	}
	span.End(outcome)
	return res, err
}
