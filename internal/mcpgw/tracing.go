package mcpgw

import (
	"context"

	"github.com/gate-dev/gate/internal/tracing"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// WithTracer has the gateway make a span of each forwarded tools/call and
// pass its trace context to the upstream (in the request's _meta, and as
// headers to an HTTP upstream); nil, the default, is none.
func (c Config) WithTracer(t *tracing.Tracer) Config { c.tracer = t; return c }

// traceCall starts the span of a forwarded tools/call, a child of the
// trace context the client sent in its _meta or, over /mcp, its headers.
func (g *Gateway) traceCall(ctx context.Context, req *mcp.CallToolRequest, o *offer) (context.Context, *tracing.Span) {
	if g.cfg.tracer == nil {
		return ctx, nil
	}
	var header map[string][]string
	if req.Extra != nil {
		header = req.Extra.Header
	}
	var meta map[string]any
	if req.Params != nil {
		meta = req.Params.Meta
	}
	return g.cfg.tracer.Forward(ctx, "tools/call", o.up.name, o.tool.Name, header, meta)
}
