package mcpgw

import (
	"encoding/json"
	"reflect"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// completeJSON is a result whose (unexported) resultType is "complete",
// the only way the SDK (v1.8.0) lets a result be given one from outside,
// as each of the results that may be input_required reads it.
var completeJSON = map[reflect.Type][]byte{
	reflect.TypeFor[mcp.CallToolResult]():     []byte(`{"content":[],"resultType":"complete"}`),
	reflect.TypeFor[mcp.ReadResourceResult](): []byte(`{"contents":[],"resultType":"complete"}`),
	reflect.TypeFor[mcp.GetPromptResult]():    []byte(`{"messages":[],"resultType":"complete"}`),
}

// inputRequiredJSON is, as completeJSON, each result with the resultType
// "input_required".
var inputRequiredJSON = map[reflect.Type][]byte{
	reflect.TypeFor[mcp.CallToolResult]():     []byte(`{"content":[],"resultType":"input_required"}`),
	reflect.TypeFor[mcp.ReadResourceResult](): []byte(`{"contents":[],"resultType":"input_required"}`),
	reflect.TypeFor[mcp.GetPromptResult]():    []byte(`{"messages":[],"resultType":"input_required"}`),
}

// inputRequiredOf is gate's own input_required result of type R, asking
// reqs under state (a parked call's: parked.go).
func inputRequiredOf[R inputResult](reqs mcp.InputRequestMap, state string) mcp.Result {
	t := reflect.TypeFor[R]().Elem()
	fresh := reflect.New(t)
	if err := fresh.Interface().(json.Unmarshaler).UnmarshalJSON(inputRequiredJSON[t]); err != nil {
		panic("mcpgw: the SDK reads no resultType: " + err.Error())
	}
	switch r := fresh.Interface().(type) {
	case *mcp.CallToolResult:
		r.Content, r.InputRequests = nil, reqs
	case *mcp.ReadResourceResult:
		r.InputRequests = reqs
	case *mcp.GetPromptResult:
		r.InputRequests = reqs
	}
	return any(withState(fresh.Interface().(R), state)).(mcp.Result)
}

// markComplete gives a result of tools/call, resources/read or
// prompts/get the resultType "complete" that MCP 2026-07-28 requires of
// each (the TypeScript SDK v2's client refuses one without it). The SDK's
// own handlers of those methods set it, but gate answers them in a
// middleware before those handlers (serveOffered, serveFeatures), so it
// sets it here, on the same test the SDK makes: a session with no
// initialize (2026-07-28 has none), or one that negotiated 2026-07-28 or
// later. An older session's result is left as it is, as is one that asks
// for input. It copies the result's fields, not its content, so it costs
// the same whatever the result's size.
func markComplete[R inputResult](req mcp.Request, res R) R {
	var none R
	if res == none || res.NeedsInput() || !speaksStateless(req) {
		return res
	}
	t := reflect.TypeFor[R]().Elem()
	fresh := reflect.New(t)
	if err := fresh.Interface().(json.Unmarshaler).UnmarshalJSON(completeJSON[t]); err != nil {
		panic("mcpgw: the SDK reads no resultType: " + err.Error())
	}
	out := fresh.Interface().(R)
	dst := fresh.Elem()
	src := reflect.ValueOf(res).Elem()
	for i := range src.NumField() {
		if src.Type().Field(i).IsExported() {
			dst.Field(i).Set(src.Field(i))
		}
	}
	if call, ok := any(res).(*mcp.CallToolResult); ok {
		if err := call.GetError(); err != nil {
			any(out).(*mcp.CallToolResult).SetError(err)
		}
	}
	return out
}

// speaksStateless reports whether req came on a session of MCP
// 2026-07-28 or later, as the SDK tells it: no initialize, or one that
// negotiated such a version.
func speaksStateless(req mcp.Request) bool {
	if req == nil {
		return false
	}
	ss, ok := req.GetSession().(*mcp.ServerSession)
	if !ok || ss == nil {
		return false
	}
	p := ss.InitializeParams()
	return p == nil || p.ProtocolVersion >= firstStatelessVersion
}
