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
// resultType "input_required" (relay.go): a 2026-07-28 client (or gate's
// own call, ss nil) gets it as it came, within maxInputRequests; for an
// older one, gate sends it each input request as the old form's request
// and retries the call with the answers and the upstream's requestState,
// up to maxInputRounds rounds, all within the call's context.
//
// gate's server answers tools/call itself (serveOffered), beneath the
// SDK's own multi-round-trip middleware, which would do this bridge for
// the SDK's tool handlers: gate does it here, as that middleware does.
func (u *upstream) callWithInputs(ctx context.Context, cs *mcp.ClientSession, params *mcp.CallToolParams, ss *mcp.ServerSession) (*mcp.CallToolResult, error) {
	for round := 0; ; round++ {
		res, err := cs.CallTool(ctx, params)
		if err != nil || !res.NeedsInput() {
			return res, err
		}
		if len(res.InputRequests) > maxInputRequests {
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: fmt.Sprintf("server %s asked for %d inputs in one input_required result, over the gateway's cap of %d: it was not passed on", u.name, len(res.InputRequests), maxInputRequests)}
		}
		if ss == nil {
			return res, nil
		}
		if !olderThanInputRequired(ss) {
			wrapURLElicitations(res) // urlanswers.go
			return res, nil
		}
		if round == maxInputRounds {
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: fmt.Sprintf("server %s asked for input %d times in one call, the gateway's cap", u.name, maxInputRounds)}
		}
		if len(res.InputRequests) == 0 {
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: fmt.Sprintf("server %s is busy (an input_required result that asks for nothing): retry later", u.name)}
		}
		answers, err := u.gw.bridgeInputs(ctx, ss, res.InputRequests)
		if err != nil {
			// What the upstream would have been answered (relay.go) is
			// the call's failure here, not a code of tools/call's own.
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: fmt.Sprintf("server %s asked for input its client did not give: %s", u.name, jsonMessage(err))}
		}
		retry := *params
		retry.InputResponses, retry.RequestState = answers, res.RequestState
		params = &retry
	}
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
