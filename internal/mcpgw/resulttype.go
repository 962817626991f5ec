package mcpgw

import (
	"reflect"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// completeMarker is a result whose (unexported) resultType is "complete",
// the only way the SDK (v1.8.0) lets a result be given one from outside;
// made on first use, as every gatectl command links this package.
var completeMarker = sync.OnceValue(func() mcp.CallToolResult {
	var r mcp.CallToolResult
	if err := r.UnmarshalJSON([]byte(`{"content":[],"resultType":"complete"}`)); err != nil {
		panic("mcpgw: the SDK reads no resultType: " + err.Error())
	}
	return r
})

// markComplete gives a forwarded call's result the resultType "complete"
// that MCP 2026-07-28 requires of every tools/call result (the TypeScript
// SDK v2's client refuses one without it). The SDK's own tools/call
// handler sets it, but gate answers a call in a middleware before that
// handler (serveOffered), so it sets it here, on the same test the SDK
// makes: a session with no initialize (2026-07-28 has none), or one that
// negotiated 2026-07-28 or later. An older session's result is left as
// it is, as is one that asks for input. It copies the result's fields,
// not its content, so it costs the same whatever the result's size.
func markComplete(req *mcp.CallToolRequest, res *mcp.CallToolResult) *mcp.CallToolResult {
	if res == nil || res.NeedsInput() || !speaksStateless(req) {
		return res
	}
	out := completeMarker()
	dst := reflect.ValueOf(&out).Elem()
	src := reflect.ValueOf(res).Elem()
	for i := range src.NumField() {
		if src.Type().Field(i).IsExported() {
			dst.Field(i).Set(src.Field(i))
		}
	}
	if err := res.GetError(); err != nil {
		out.SetError(err)
	}
	return &out
}

// speaksStateless reports whether req came on a session of MCP
// 2026-07-28 or later, as the SDK tells it: no initialize, or one that
// negotiated such a version.
func speaksStateless(req *mcp.CallToolRequest) bool {
	if req == nil || req.Session == nil {
		return false
	}
	p := req.Session.InitializeParams()
	return p == nil || p.ProtocolVersion >= firstStatelessVersion
}
