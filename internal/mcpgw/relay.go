//lint:file-ignore SA1019 MCP deprecates sampling and roots as of 2026-07-28 (SEP-2577); clients and servers of the earlier versions gate speaks use them

package mcpgw

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// An upstream's requests for input during a request gate forwarded
// (elicitation/create, sampling/createMessage) go to the client session
// whose request it is, and the answer back to that upstream alone.
//
// gate's client declares elicitation (form and url) and sampling (with
// tools) to every upstream: the upstream's session is shared by every
// client, and made before any of them, so whether a request can be served
// is known only when it comes, from the capabilities of the client whose
// call it is. One it cannot serve is answered as the spec says a client
// answers it: -32601 when the client did not declare the capability, or
// cannot be sent a request (a 2026-07-28 client outside a parked call);
// -32602 when it declared the capability but not the mode (url or form
// elicitation) or tools in sampling. A 2026-07-28 client's tools/call to
// an older upstream is parked, and the upstream's requests reach it as
// input_required results (parked.go). A url-mode elicitation's completion
// goes where it went (elicitcomplete.go).
//
// The old form is a request the upstream sends on its session while the
// call is in flight. Nothing in it names the call it is for; over
// streamable HTTP the stream it comes on does: one on the event stream of
// a call's POST is relayed to that call's client (uplink's Ties,
// relayCallers.relayFor). Any other (over stdio, HTTP+SSE, or the
// standalone GET stream) gate relays to the client session whose
// requests gate has in flight on that upstream, when they are all one
// session's, and refuses when they are several sessions' (and when none
// is).
//
// The 2026-07-28 form is a result with resultType "input_required": a
// 2026-07-28 client gets it as it is and retries with its inputResponses,
// which gate forwards to the same upstream with the call; an older client
// is sent each input request as the old form's request and gate retries
// the call upstream with the answers (bridgeInputs).
//
// Each is bounded as the call is: its client has the call's remaining
// call_timeout to answer, the messages the body caps, and a session has
// at most maxInputRequests input requests out at once.

// clientCapabilities sets what gate's client declares to an upstream:
// roots, the clients' union, which gate answers with (roots.go);
// elicitation and sampling, which go to the client whose call it is, as
// far as that client can serve them (relayRequests). An input_required
// result goes to the client too (callWithInputs), not to the SDK's
// handling.
func (u *upstream) clientCapabilities(opts *mcp.ClientOptions) {
	opts.Capabilities = &mcp.ClientCapabilities{
		RootsV2:     &mcp.RootCapabilities{ListChanged: true},
		Elicitation: &mcp.ElicitationCapabilities{Form: &mcp.FormElicitationCapabilities{}, URL: &mcp.URLElicitationCapabilities{}},
		Sampling:    &mcp.SamplingCapabilities{Tools: &mcp.SamplingToolsCapabilities{}},
	}
	opts.MultiRoundTrip = &mcp.MultiRoundTripOptions{Disabled: true}
	opts.ElicitationCompleteHandler = u.elicitationComplete
}

// relayedInput says whether an upstream's request method is one that may
// go to the client of a call (relayRequests; parkedRoots for roots/list):
// those are tied to the call whose stream they come on (uplink.Ties).
func relayedInput(method string) bool {
	return method == "elicitation/create" || method == "sampling/createMessage" || method == "roots/list"
}

// maxInputRequests is how many input requests a client session may have
// out at once, and the most one input_required result may hold: a client
// is one person answering, and more is an upstream asking in a loop.
const maxInputRequests = 4

// maxInputRounds bounds the input_required rounds of one call gate
// bridges for an older client.
const maxInputRounds = 8

// relayRequests is a receiving middleware of gate's client to an
// upstream: it answers elicitation/create and sampling/createMessage by
// relaying them to the client whose call they are for. It answers them
// before the SDK's client would: that client checks a form's schema and
// fills the answer with the schema's defaults, which are the upstream's
// to do with its own client's answer.
func (u *upstream) relayRequests(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		switch p := req.GetParams().(type) {
		case *mcp.ElicitParams:
			if p != nil && method == "elicitation/create" {
				ctx = u.tiedTo(ctx, p.Meta)
				return u.forCaller(ctx, method, p, func(rctx context.Context, ss *mcp.ServerSession) (mcp.Result, error) {
					// A url-mode elicitation's completion goes where it
					// went (elicitcomplete.go), once it has gone.
					return u.gw.relayElicit(rctx, ss, p, func() { u.urlElicits.sent(p.ElicitationID, ss) })
				})
			}
		case *mcp.CreateMessageWithToolsParams:
			if p != nil && method == "sampling/createMessage" {
				ctx = u.tiedTo(ctx, p.Meta)
				return u.forCaller(ctx, method, p, func(rctx context.Context, ss *mcp.ServerSession) (mcp.Result, error) {
					return u.gw.relaySample(rctx, ss, p)
				})
			}
		}
		return next(ctx, method, req)
	}
}

// forCaller relays one of the upstream's requests (method, ir) with
// relay, to the client whose call it is for (relayCallers.relayFor); to
// a 2026-07-28 client's parked call, as an input request (parked.go).
func (u *upstream) forCaller(ctx context.Context, method string, ir mcp.InputRequest, relay func(context.Context, *mcp.ServerSession) (mcp.Result, error)) (mcp.Result, error) {
	ss, rctx, done, sessions := u.callers.relayFor(ctx)
	switch sessions {
	case noCaller:
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidRequest, Message: fmt.Sprintf("gate relays %s only during a request it forwarded to server %s, and none is in flight", method, u.name)}
	case callerEnded:
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidRequest, Message: fmt.Sprintf("gate relays %s only during the request it came with, and that request to server %s has ended", method, u.name)}
	case oneCaller:
	default:
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: fmt.Sprintf("gate cannot tell which client's request %s is for: requests of several client sessions are in flight on server %s", method, u.name)}
	}
	defer done()
	if pc, err := u.parkedFor(ctx, ss, method); err != nil || pc != nil {
		if err != nil {
			return nil, err
		}
		return pc.request(rctx, method, ir)
	}
	return relay(rctx, ss)
}

// canRequest is the capabilities ss declared, or the error an upstream
// is answered when ss cannot be sent a request for input: a 2026-07-28
// session (its server sends none), one that is gone.
func (g *Gateway) canRequest(ss *mcp.ServerSession, method string) (*mcp.ClientCapabilities, error) {
	p := ss.InitializeParams()
	if p == nil || g.find(ss) == nil {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: fmt.Sprintf("the client session of the call has ended: %s was not relayed", method)}
	}
	if p.ProtocolVersion >= noServerRequests {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeMethodNotFound, Message: fmt.Sprintf("the client of the call speaks MCP %s, in which gate cannot send it %s (an upstream of that version answers input_required instead)", noServerRequests, method)}
	}
	if p.Capabilities == nil {
		return &mcp.ClientCapabilities{}, nil
	}
	return p.Capabilities, nil
}

// relayElicit sends an upstream's elicitation to ss, the session of the
// call it is for, within ctx. A url-mode elicitation goes as it came: gate
// never fetches or rewrites its URL, and answers the upstream with the
// action alone, so that nothing the user gave passes through gate.
// sentURL, when not nil, is told when a url-mode one is sent: one refused
// before that went nowhere, and its completion must go nowhere either.
func (g *Gateway) relayElicit(ctx context.Context, ss *mcp.ServerSession, p *mcp.ElicitParams, sentURL func()) (*mcp.ElicitResult, error) {
	const method = "elicitation/create"
	all, err := g.canRequest(ss, method)
	if err != nil {
		return nil, err
	}
	mode, err := elicitMode(all, p)
	if err != nil {
		return nil, err
	}
	release, err := g.holdInput(ss, method)
	if err != nil {
		return nil, err
	}
	defer release()
	out := &mcp.ElicitParams{Mode: mode, Message: p.Message, RequestedSchema: p.RequestedSchema, URL: p.URL, ElicitationID: p.ElicitationID}
	kept := &elicitAnswer{}
	if mode == "url" && sentURL != nil {
		sentURL()
	}
	res, err := ss.Elicit(context.WithValue(ctx, elicitAnswerKey{}, kept), out)
	if kept.res != nil {
		// The answer as the client gave it: the SDK's server checks it
		// against the schema and fills in the schema's defaults after,
		// which are the upstream's to do.
		res, err = kept.res, nil
	}
	if err != nil {
		return nil, relayError(ctx, method, err)
	}
	if mode == "url" {
		return &mcp.ElicitResult{Action: res.Action}, nil
	}
	return &mcp.ElicitResult{Action: res.Action, Content: res.Content}, nil
}

// elicitMode is the mode of elicitation p (form or url), or the error an
// upstream is answered when a client of capabilities all cannot serve it.
func elicitMode(all *mcp.ClientCapabilities, p *mcp.ElicitParams) (string, error) {
	caps := all.Elicitation
	mode := p.Mode
	if mode == "" {
		mode = "form"
		if p.URL != "" {
			mode = "url"
		}
	}
	switch {
	case caps == nil:
		return "", &jsonrpc.Error{Code: jsonrpc.CodeMethodNotFound, Message: "the client of the call does not offer elicitation"}
	case mode == "url" && caps.URL == nil:
		return "", &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "the client of the call does not offer url-mode elicitation"}
	case mode == "form" && caps.Form == nil && caps.URL != nil:
		return "", &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "the client of the call does not offer form-mode elicitation"}
	case mode != "url" && mode != "form":
		return "", &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "elicitation mode is neither form nor url"}
	}
	return mode, nil
}

// elicitAnswerKey is the context key of an elicitAnswer.
type elicitAnswerKey struct{}

// elicitAnswer is a client's answer to one relayed elicitation, as it
// came (keepElicitAnswer).
type elicitAnswer struct{ res *mcp.ElicitResult }

// keepElicitAnswer is a sending middleware of gate's server: the answer
// to an elicitation relayElicit sends is copied, whole, before the SDK
// changes it.
func (g *Gateway) keepElicitAnswer(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		res, err := next(ctx, method, req)
		kept, ok := ctx.Value(elicitAnswerKey{}).(*elicitAnswer)
		if r, isElicit := res.(*mcp.ElicitResult); ok && isElicit && err == nil && r != nil {
			kept.res = &mcp.ElicitResult{Action: r.Action, Content: copyContent(r.Content)}
		}
		return res, err
	}
}

// copyContent is a deep copy of an elicitation's answer (within the
// message cap the client's body was read under).
func copyContent(m map[string]any) map[string]any {
	if m == nil {
		return nil
	}
	b, err := json.Marshal(m)
	if err != nil {
		return nil
	}
	var out map[string]any
	if json.Unmarshal(b, &out) != nil {
		return nil
	}
	return out
}

// relaySample sends an upstream's sampling request to ss, the session of
// the call it is for, within ctx.
func (g *Gateway) relaySample(ctx context.Context, ss *mcp.ServerSession, p *mcp.CreateMessageWithToolsParams) (*mcp.CreateMessageWithToolsResult, error) {
	const method = "sampling/createMessage"
	all, err := g.canRequest(ss, method)
	if err != nil {
		return nil, err
	}
	if err := samplingRefusal(all, p); err != nil {
		return nil, err
	}
	release, err := g.holdInput(ss, method)
	if err != nil {
		return nil, err
	}
	defer release()
	out := *p
	out.Meta = nil // the upstream's progress token means nothing to the client
	res, err := ss.CreateMessageWithTools(ctx, &out)
	if err != nil {
		return nil, relayError(ctx, method, err)
	}
	return res, nil
}

// samplingRefusal is the error an upstream's sampling request p is
// answered when a client of capabilities all cannot serve it, or nil.
func samplingRefusal(all *mcp.ClientCapabilities, p *mcp.CreateMessageWithToolsParams) error {
	caps := all.Sampling
	switch {
	case caps == nil:
		return &jsonrpc.Error{Code: jsonrpc.CodeMethodNotFound, Message: "the client of the call does not offer sampling"}
	case (len(p.Tools) > 0 || p.ToolChoice != nil) && caps.Tools == nil:
		return &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "the client of the call does not offer tools in sampling"}
	}
	return nil
}

// holdInput counts an input request out to ss, within maxInputRequests;
// release counts it back.
func (g *Gateway) holdInput(ss *mcp.ServerSession, method string) (release func(), err error) {
	cs := g.find(ss)
	if cs == nil {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: fmt.Sprintf("the client session of the call has ended: %s was not relayed", method)}
	}
	cs.mu.Lock()
	defer cs.mu.Unlock()
	if cs.inputs >= maxInputRequests {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: fmt.Sprintf("the client session of the call has %d input requests out, the gateway's cap: %s was not relayed", maxInputRequests, method)}
	}
	cs.inputs++
	return func() {
		cs.mu.Lock()
		cs.inputs--
		cs.mu.Unlock()
	}, nil
}

// relayError is the error the upstream is answered when its relayed
// request failed: the client's own JSON-RPC error, its message cleaned;
// else what gate saw.
func relayError(ctx context.Context, method string, err error) error {
	if ctx.Err() != nil {
		return &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: fmt.Sprintf("the call ended before its client answered %s", method)}
	}
	var je *jsonrpc.Error
	if errors.As(err, &je) {
		return &jsonrpc.Error{Code: je.Code, Message: cleanMessage(je.Message)}
	}
	return &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: fmt.Sprintf("%s to the client of the call failed: %s", method, cleanMessage(err.Error()))}
}
