package mcpgw

import (
	"bytes"
	"context"
	"encoding/json"

	segjson "github.com/segmentio/encoding/json"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gate-dev/gate/internal/uplink"
)

// notification is how the SDK's client takes one notification gate acts
// on: the type it decodes the params into, and whether params may be
// missing.
type notification struct {
	params        func() any
	missingParams bool
	// preempted: the SDK's canceller decodes it before anything else,
	// and drops one whose params are missing or whose id is neither a
	// number nor a string.
	preempted bool
}

// handledNotifications are the notifications gate acts on, the only ones
// the flow cap counts (uplink.Inflow, told by reachesGate): the SDK
// ignores the others, or refuses them before gate sees them, so counting
// them would count what is never handled. A stdio upstream's others are
// dropped before the SDK decodes them.
var handledNotifications = map[string]notification{
	"notifications/progress":               {params: func() any { return new(mcp.ProgressNotificationParams) }},
	"notifications/tools/list_changed":     {params: func() any { return new(mcp.ToolListChangedParams) }, missingParams: true},
	"notifications/resources/list_changed": {params: func() any { return new(mcp.ResourceListChangedParams) }, missingParams: true},
	"notifications/prompts/list_changed":   {params: func() any { return new(mcp.PromptListChangedParams) }, missingParams: true},
	"notifications/resources/updated":      {params: func() any { return new(mcp.ResourceUpdatedNotificationParams) }, missingParams: true},
	"notifications/elicitation/complete":   {params: func() any { return new(mcp.ElicitationCompleteParams) }, missingParams: true},
	methodCancelled:                        {params: func() any { return new(mcp.CancelledParams) }, missingParams: true, preempted: true},
	//lint:ignore SA1019 MCP deprecates logging as of 2026-07-28 (SEP-2577); upstreams of the earlier versions gate speaks use it
	methodLog: {params: func() any { return new(mcp.LoggingMessageParams) }},
}

// methodCancelled is MCP's cancellation notification.
const methodCancelled = "notifications/cancelled"

// reachesGate reports whether the SDK's client hands the notification
// method with params to gate's receiving middleware, decided as the SDK
// decides: with its decoder (segmentio's, struct fields matched by case
// only), into the type it decodes into, with its rule on missing or null
// params, and, for a cancellation, its rule on the request's id. One the
// SDK refuses never reaches the middleware, and counting it would hold its
// place in the flow cap for the session's life.
func reachesGate(method string, params json.RawMessage) bool {
	n, ok := handledNotifications[method]
	if !ok {
		return false
	}
	if len(params) == 0 {
		return n.missingParams && !n.preempted
	}
	p := n.params()
	dec := segjson.NewDecoder(bytes.NewReader(params))
	dec.DontMatchCaseInsensitiveStructFields()
	if dec.Decode(p) != nil {
		return false
	}
	if !n.missingParams && bytes.Equal(bytes.TrimSpace(params), []byte("null")) {
		return false
	}
	if c, ok := p.(*mcp.CancelledParams); ok && n.preempted {
		if _, err := jsonrpc.MakeID(c.RequestID); err != nil {
			return false
		}
	}
	return true
}

// countHandled counts each notification gate has handled in flow, as the
// client's receiving middleware: the SDK handles notifications one at a
// time, in order, so the count is what has left its queue.
func countHandled(flow *uplink.Inflow) mcp.Middleware {
	return func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			if _, ok := handledNotifications[method]; !ok {
				return next(ctx, method, req)
			}
			defer flow.Handled()
			return next(ctx, method, req)
		}
	}
}
