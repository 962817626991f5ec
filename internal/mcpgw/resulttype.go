package mcpgw

import (
	"reflect"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// completeMarkers are results whose (unexported) resultType is
// "complete", the only way the SDK (v1.8.0) lets a result be given one
// from outside; made on first use, as every gatectl command links this
// package. MCP 2026-07-28 requires a resultType of every result of the
// three methods that may ask for input (tools/call, prompts/get,
// resources/read), and the TypeScript SDK v2's client refuses one without
// it.
var (
	completeCall   = sync.OnceValue(func() mcp.CallToolResult { return completeMarker[mcp.CallToolResult](`{"content":[]}`) })
	completeRead   = sync.OnceValue(func() mcp.ReadResourceResult { return completeMarker[mcp.ReadResourceResult](`{"contents":[]}`) })
	completePrompt = sync.OnceValue(func() mcp.GetPromptResult { return completeMarker[mcp.GetPromptResult](`{"messages":[]}`) })
)

// completeMarker decodes result, a JSON object, with "resultType":
// "complete" added.
func completeMarker[T any, P interface {
	*T
	UnmarshalJSON([]byte) error
}](result string) T {
	var r T
	if err := P(&r).UnmarshalJSON([]byte(result[:len(result)-1] + `,"resultType":"complete"}`)); err != nil {
		panic("mcpgw: the SDK reads no resultType: " + err.Error())
	}
	return r
}

// markComplete gives a forwarded call's result the resultType "complete".
// The SDK's own tools/call handler sets it, but gate answers a call in a
// middleware before that handler (serveOffered), so it sets it here, on
// the same test the SDK makes: a session with no initialize (2026-07-28
// has none), or one that negotiated 2026-07-28 or later. An older
// session's result is left as it is, as is one that asks for input. It
// copies the result's fields, not its content, so it costs the same
// whatever the result's size.
func markComplete(req *mcp.CallToolRequest, res *mcp.CallToolResult) *mcp.CallToolResult {
	if res == nil || res.NeedsInput() || req == nil || !speaksStateless(req.Session) {
		return res
	}
	out := withFieldsOf(completeCall(), res)
	if err := res.GetError(); err != nil {
		out.SetError(err)
	}
	return out
}

// markFeatureComplete is markComplete for the results of resources/read
// and prompts/get, which gate answers before the SDK's handlers too
// (serveFeatures); any other result is left as it is.
func markFeatureComplete(req mcp.Request, res mcp.Result) mcp.Result {
	ss, _ := req.GetSession().(*mcp.ServerSession)
	if !speaksStateless(ss) {
		return res
	}
	switch r := res.(type) {
	case *mcp.ReadResourceResult:
		if r != nil && !r.NeedsInput() {
			return withFieldsOf(completeRead(), r)
		}
	case *mcp.GetPromptResult:
		if r != nil && !r.NeedsInput() {
			return withFieldsOf(completePrompt(), r)
		}
	}
	return res
}

// withFieldsOf returns marker with the exported fields of res.
func withFieldsOf[T any](marker T, res *T) *T {
	out := marker
	dst := reflect.ValueOf(&out).Elem()
	src := reflect.ValueOf(res).Elem()
	for i := range src.NumField() {
		if src.Type().Field(i).IsExported() {
			dst.Field(i).Set(src.Field(i))
		}
	}
	return &out
}

// speaksStateless reports whether ss is a session of MCP 2026-07-28 or
// later, as the SDK tells it: no initialize, or one that negotiated such
// a version.
func speaksStateless(ss *mcp.ServerSession) bool {
	if ss == nil {
		return false
	}
	p := ss.InitializeParams()
	return p == nil || p.ProtocolVersion >= firstStatelessVersion
}
