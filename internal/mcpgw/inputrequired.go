//lint:file-ignore SA1019 MCP deprecates roots as of 2026-07-28 (SEP-2577); clients and servers of the earlier versions gate speaks use it

package mcpgw

import (
	"context"
	"errors"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// callWithInputs sends one tools/call upstream, and handles an answer of
// resultType "input_required" (withInputs).
//
// gate's server answers tools/call itself (serveOffered), beneath the
// SDK's own multi-round-trip middleware, which would do this bridge for
// the SDK's tool handlers: gate does it here, as that middleware does.
func (u *upstream) callWithInputs(ctx context.Context, cs *mcp.ClientSession, params *mcp.CallToolParams, ss *mcp.ServerSession) (*mcp.CallToolResult, error) {
	return withInputs(u, ctx, ss, "call", params, func(p *mcp.CallToolParams) (*mcp.CallToolResult, error) { return cs.CallTool(ctx, p) })
}

// inputResult is a result that may be "input_required": those of
// tools/call, resources/read and prompts/get.
type inputResult interface {
	*mcp.CallToolResult | *mcp.ReadResourceResult | *mcp.GetPromptResult
	NeedsInput() bool
}

// inputParams is the params of a request whose retry carries the answers
// to an input_required result.
type inputParams interface {
	*mcp.CallToolParams | *mcp.ReadResourceParams | *mcp.GetPromptParams
}

// withInputs sends one request upstream with send, and handles an answer
// of resultType "input_required" (relay.go): a 2026-07-28 client (or
// gate's own request, ss nil) gets it as it came, within
// maxInputRequests; for an older one, gate sends it each input request as
// the old form's request and retries the request with the answers and
// the upstream's requestState, up to maxInputRounds rounds, all within
// ctx (the request's call_timeout). what names the request in errors
// ("call", "read", "get").
func withInputs[P inputParams, R inputResult](u *upstream, ctx context.Context, ss *mcp.ServerSession, what string, params P, send func(P) (R, error)) (R, error) {
	var zero R
	for round := 0; ; round++ {
		res, err := send(params)
		if err != nil || res == zero || !res.NeedsInput() {
			return res, err
		}
		reqs, state := inputsOf(res)
		if len(reqs) > maxInputRequests {
			return zero, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: fmt.Sprintf("server %s asked for %d inputs in one input_required result, over the gateway's cap of %d: it was not passed on", u.name, len(reqs), maxInputRequests)}
		}
		if ss == nil {
			return res, nil
		}
		if !olderThanInputRequired(ss) {
			return withState(res, wrappedState(reqs, state)), nil // urlanswers.go
		}
		if round == maxInputRounds {
			return zero, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: fmt.Sprintf("server %s asked for input %d times in one %s, the gateway's cap", u.name, maxInputRounds, what)}
		}
		if len(reqs) == 0 {
			return zero, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: fmt.Sprintf("server %s is busy (an input_required result that asks for nothing): retry later", u.name)}
		}
		answers, err := u.gw.bridgeInputs(ctx, ss, reqs)
		if err != nil {
			// What the upstream would have been answered (relay.go) is
			// the request's failure here, not a code of its own method.
			return zero, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: fmt.Sprintf("server %s asked for input its client did not give: %s", u.name, jsonMessage(err))}
		}
		params = retryWith(params, answers, state)
	}
}

// inputsOf is the input requests and requestState of an input_required
// result.
func inputsOf[R inputResult](res R) (mcp.InputRequestMap, string) {
	switch r := any(res).(type) {
	case *mcp.CallToolResult:
		return r.InputRequests, r.RequestState
	case *mcp.ReadResourceResult:
		return r.InputRequests, r.RequestState
	case *mcp.GetPromptResult:
		return r.InputRequests, r.RequestState
	}
	return nil, ""
}

// withState is res with its requestState set to state.
func withState[R inputResult](res R, state string) R {
	switch r := any(res).(type) {
	case *mcp.CallToolResult:
		r.RequestState = state
	case *mcp.ReadResourceResult:
		r.RequestState = state
	case *mcp.GetPromptResult:
		r.RequestState = state
	}
	return res
}

// retryWith is a copy of params carrying answers and state: the params
// the client sent are never changed.
func retryWith[P inputParams](params P, answers mcp.InputResponseMap, state string) P {
	switch p := any(params).(type) {
	case *mcp.CallToolParams:
		c := *p
		c.InputResponses, c.RequestState = answers, state
		return any(&c).(P)
	case *mcp.ReadResourceParams:
		c := *p
		c.InputResponses, c.RequestState = answers, state
		return any(&c).(P)
	case *mcp.GetPromptParams:
		c := *p
		c.InputResponses, c.RequestState = answers, state
		return any(&c).(P)
	}
	return params
}

// olderThanInputRequired reports whether ss speaks a protocol older than
// 2026-07-28, which has no input_required results.
func olderThanInputRequired(ss *mcp.ServerSession) bool {
	p := ss.InitializeParams()
	return p == nil || p.ProtocolVersion < noServerRequests
}

// bridgeInputs has ss answer each of an upstream's input requests as the
// old form's request to it, one at a time.
func (g *Gateway) bridgeInputs(ctx context.Context, ss *mcp.ServerSession, reqs mcp.InputRequestMap) (mcp.InputResponseMap, error) {
	answers := make(mcp.InputResponseMap, len(reqs))
	for id, ir := range reqs {
		var (
			answer mcp.InputResponse
			err    error
		)
		switch p := ir.(type) {
		case *mcp.ElicitParams:
			answer, err = g.relayElicit(ctx, ss, p, nil)
		case *mcp.CreateMessageWithToolsParams:
			answer, err = g.relaySample(ctx, ss, p)
		case *mcp.ListRootsParams:
			// As gate answers an upstream's roots/list (roots.go).
			answer = &mcp.ListRootsResult{Roots: g.rootsNow()}
		default:
			err = &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: fmt.Sprintf("gate cannot relay an input request of type %T", ir)}
		}
		if err != nil {
			return nil, err
		}
		answers[id] = answer
	}
	return answers, nil
}

// jsonMessage is the message of a JSON-RPC error, else the error's text.
func jsonMessage(err error) string {
	var je *jsonrpc.Error
	if errors.As(err, &je) {
		return je.Message
	}
	return err.Error()
}
