//lint:file-ignore SA1019 MCP deprecates sampling and roots as of 2026-07-28 (SEP-2577); the older upstreams gate fronts use them

package mcpgw

import (
	"context"
	"fmt"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// A 2026-07-28 client cannot be sent a request: it is asked for input by
// a tools/call result of resultType "input_required" (its inputRequests
// and an opaque requestState), and retries the call with its
// inputResponses and that state. An upstream older than 2026-07-28 asks
// in the old form instead, a request on its session during the call. So
// that such an upstream's request reaches a 2026-07-28 client, gate runs
// that client's call to it on past the POST that made it (a parked call):
// the upstream's request waits, the client's tools/call is answered
// input_required with it and a requestState naming the parked call in this
// process, and the retry's answers go to the waiting request, the retry
// then waiting, as the first call did, for the call's result or the
// upstream's next request.
//
// Whether a call parks is bound to the two versions, not to what the
// requestState looks like: the client's speaks 2026-07-28 and the
// upstream's session an older one. An older upstream makes no
// requestState, so every requestState of a call to one is gate's; a
// 2026-07-28 upstream's goes through as it came (call.go).

// parkedCall is one forwarded call of a 2026-07-28 client to an older
// upstream, run on its own goroutine so that it may outlive its POST.
type parkedCall struct {
	calls  *parkedCalls
	state  string // its requestState
	tool   string // the offered name it was called by
	up     *upstream
	ss     *mcp.ServerSession // the session of the first POST, which the upstream's requests are tied to
	caps   *mcp.ClientCapabilities
	ctx    context.Context // ends when the call does
	cancel context.CancelCauseFunc
	// asks are the upstream's requests for input not yet sent to the
	// client; done is closed once res and err are the call's answer.
	asks chan *parkedAsk
	done chan struct{}
	res  *mcp.CallToolResult
	err  error

	mu      sync.Mutex
	out     map[string]*parkedAsk // sent to the client, not yet answered
	rounds  int
	nextID  int
	slot    bool // holds a parked slot
	waiting bool // a POST of its client waits on it
}

// parkedAsk is one of the upstream's requests for input, waiting.
type parkedAsk struct {
	method string
	req    mcp.InputRequest
	answer chan parkedAnswer // buffered: the answer never waits for its reader
}

type parkedAnswer struct {
	res mcp.Result
	err error
}

// parks reports whether req, a call of o, is run as a parked call: its
// client speaks 2026-07-28 (it can be sent no request) and o's upstream
// an older version (it asks in the old form).
func parks(req *mcp.CallToolRequest, u *upstream) bool {
	if req == nil || req.Session == nil || req.Params == nil {
		return false
	}
	if p := req.Session.InitializeParams(); p == nil || p.ProtocolVersion < noServerRequests {
		return false
	}
	u.mu.Lock()
	cs := u.session
	u.mu.Unlock()
	if cs == nil {
		return false
	}
	r := cs.InitializeResult()
	return r != nil && r.ProtocolVersion < noServerRequests
}

// callParked answers a 2026-07-28 client's call of o to an older upstream:
// a first call starts the parked call (now sends it upstream); a retry
// names one by its requestState and gives its answers.
func (g *Gateway) callParked(ctx context.Context, req *mcp.CallToolRequest, o *offer, now mcp.ToolHandler) (*mcp.CallToolResult, error) {
	if req.Params.RequestState != "" {
		return g.resumeParked(ctx, req, o)
	}
	state, err := newRequestState()
	if err != nil {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "gate could not make a requestState: " + err.Error()}
	}
	var caps *mcp.ClientCapabilities
	if p := req.Session.InitializeParams(); p != nil && p.Capabilities != nil {
		caps = p.Capabilities
	} else {
		caps = &mcp.ClientCapabilities{}
	}
	pc := &parkedCall{calls: &g.parked, state: state, tool: o.tool.Name, up: o.up, ss: req.Session, caps: caps,
		asks: make(chan *parkedAsk, maxInputRequests), done: make(chan struct{}), out: map[string]*parkedAsk{}}
	pc.ctx, pc.cancel = context.WithCancelCause(context.WithValue(context.WithoutCancel(ctx), parkedKey{}, pc))
	pctx := pc.ctx
	g.parked.add(pc)
	// Its progress goes to the first POST, while that is open: a call
	// that asks for nothing has all of it.
	go pc.run(func() (*mcp.CallToolResult, error) { return now(pctx, req) })
	return pc.wait(ctx, nil)
}

// run sends the call and keeps its answer; the call's state ends with it.
func (pc *parkedCall) run(send func() (*mcp.CallToolResult, error)) {
	defer func() {
		if v := recover(); v != nil {
			// The upstream's data made gate fail this call alone.
			pc.res, pc.err = nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: fmt.Sprintf("gate failed handling the call to server %s", pc.up.name)}
		}
		pc.calls.forget(pc)
		pc.cancel(nil)
		close(pc.done)
	}()
	pc.res, pc.err = send()
}

// resumeParked gives the answers of a retry to the parked call its
// requestState names, and waits as the first call did.
func (g *Gateway) resumeParked(ctx context.Context, req *mcp.CallToolRequest, o *offer) (*mcp.CallToolResult, error) {
	pc := g.parked.find(req.Params.RequestState)
	if pc == nil {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: fmt.Sprintf("the requestState of this call of %s names no call this gate process holds: the call ended, or another gate process holds it (a server older than 2026-07-28 asks for input during a call that process keeps; call again to start over)", quote(o.tool.Name))}
	}
	if pc.tool != o.tool.Name || pc.up != o.up {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: fmt.Sprintf("the requestState of this call of %s names a call of another tool", quote(o.tool.Name))}
	}
	return pc.wait(ctx, req.Params.InputResponses)
}

// wait answers one POST of the call: with answers (a retry's) given to
// the requests they answer first, it waits for the call's result or the
// upstream's next requests for input, whichever comes first. The POST's
// end (its client gone, or cancelling) ends the call.
func (pc *parkedCall) wait(ctx context.Context, answers mcp.InputResponseMap) (*mcp.CallToolResult, error) {
	pc.mu.Lock()
	if pc.waiting {
		pc.mu.Unlock()
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "another request already retries the call this requestState names"}
	}
	pc.waiting = true
	out := pc.out
	pc.out = map[string]*parkedAsk{}
	pc.mu.Unlock()
	defer func() {
		pc.mu.Lock()
		pc.waiting = false
		pc.mu.Unlock()
	}()
	for id, a := range out {
		a.answer <- answerOf(a, answers[id])
	}
	select {
	case <-pc.done:
		return pc.res, pc.err
	case a := <-pc.asks:
		return pc.ask(a)
	case <-ctx.Done():
		pc.cancel(context.Cause(ctx))
		<-pc.done
		return nil, ctx.Err()
	}
}

// ask answers the POST waiting with an input_required result: a, and the
// upstream's other requests already waiting.
func (pc *parkedCall) ask(a *parkedAsk) (*mcp.CallToolResult, error) {
	pc.mu.Lock()
	defer pc.mu.Unlock()
	pc.rounds++
	if pc.rounds > maxInputRounds {
		pc.cancel(nil)
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: fmt.Sprintf("server %s asked for input %d times in one call, the gateway's cap", pc.up.name, maxInputRounds)}
	}
	reqs := mcp.InputRequestMap{}
	for a != nil {
		pc.nextID++
		id := fmt.Sprintf("%d", pc.nextID)
		reqs[id], pc.out[id] = a.req, a
		a = nil
		select {
		case a = <-pc.asks:
		default:
		}
	}
	out := inputRequiredMarker()
	out.Content, out.InputRequests, out.RequestState = nil, reqs, pc.state
	return &out, nil
}

// inputRequiredMarker is a result whose (unexported) resultType is
// "input_required", made as completeMarker is (resulttype.go).
var inputRequiredMarker = sync.OnceValue(func() mcp.CallToolResult {
	var r mcp.CallToolResult
	if err := r.UnmarshalJSON([]byte(`{"content":[],"resultType":"input_required"}`)); err != nil {
		panic("mcpgw: the SDK reads no resultType: " + err.Error())
	}
	return r
})

// answerOf is what the upstream's request a is answered with the client's
// answer r: an answer of its kind, within what gate passes on (a url-mode
// elicitation's action alone; roots within the caps of a client's); an
// error when the client gave none.
func answerOf(a *parkedAsk, r mcp.InputResponse) parkedAnswer {
	switch p := a.req.(type) {
	case *mcp.ElicitParams:
		if res, ok := r.(*mcp.ElicitResult); ok && res != nil {
			if p.Mode == "url" {
				return parkedAnswer{res: &mcp.ElicitResult{Action: res.Action}}
			}
			return parkedAnswer{res: &mcp.ElicitResult{Action: res.Action, Content: res.Content}}
		}
	case *mcp.CreateMessageWithToolsParams:
		if res, ok := r.(*mcp.CreateMessageWithToolsResult); ok && res != nil {
			return parkedAnswer{res: res}
		}
	case *mcp.ListRootsParams:
		if res, ok := r.(*mcp.ListRootsResult); ok && res != nil {
			return parkedAnswer{res: &mcp.ListRootsResult{Roots: capRoots(res.Roots)}}
		}
	}
	return parkedAnswer{err: &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: fmt.Sprintf("the client of the call gave no answer to %s", a.method)}}
}

// capRoots is a client's roots within the caps gate takes of one client
// (roots.go).
func capRoots(roots []*mcp.Root) []*mcp.Root {
	out := []*mcp.Root{}
	size := 0
	for _, r := range roots {
		if r == nil || r.URI == "" {
			continue
		}
		size += len(r.URI) + len(r.Name)
		if len(out) == maxClientRoots || size > maxClientRootBytes {
			break
		}
		out = append(out, &mcp.Root{URI: r.URI, Name: r.Name})
	}
	return out
}

// request is the upstream's request for input (method, ir) put to the
// parked call's client: checked against the client's capabilities as a
// relayed one is (relay.go), it waits for the client's answer within rctx
// (the call's deadline, or the upstream cancelling it).
func (pc *parkedCall) request(rctx context.Context, method string, ir mcp.InputRequest) (mcp.Result, error) {
	pc.up.hookData("input")
	out, err := pc.inputRequest(method, ir)
	if err != nil {
		return nil, err
	}
	if err := pc.calls.hold(pc); err != nil {
		return nil, err
	}
	a := &parkedAsk{method: method, req: out, answer: make(chan parkedAnswer, 1)}
	pc.mu.Lock()
	full := len(pc.out)+len(pc.asks) >= maxInputRequests
	if !full {
		pc.asks <- a // within its buffer: the count above is under the lock every sender takes
	}
	pc.mu.Unlock()
	if full {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: fmt.Sprintf("the call has %d input requests out, the gateway's cap: %s was not relayed", maxInputRequests, method)}
	}
	select {
	case ans := <-a.answer:
		return ans.res, ans.err
	case <-rctx.Done():
	case <-pc.ctx.Done():
	}
	return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: fmt.Sprintf("the call ended before its client answered %s", method)}
}

// inputRequest is what the client is asked for the upstream's request, or
// the error the upstream is answered when the client cannot serve it.
func (pc *parkedCall) inputRequest(method string, ir mcp.InputRequest) (mcp.InputRequest, error) {
	switch p := ir.(type) {
	case *mcp.ElicitParams:
		mode, err := elicitMode(pc.caps, p)
		if err != nil {
			return nil, err
		}
		return &mcp.ElicitParams{Mode: mode, Message: p.Message, RequestedSchema: p.RequestedSchema, URL: p.URL, ElicitationID: p.ElicitationID}, nil
	case *mcp.CreateMessageWithToolsParams:
		if err := samplingRefusal(pc.caps, p); err != nil {
			return nil, err
		}
		out := *p
		out.Meta = nil // the upstream's progress token means nothing to the client
		return &out, nil
	case *mcp.ListRootsParams:
		return &mcp.ListRootsParams{}, nil
	}
	return nil, &jsonrpc.Error{Code: jsonrpc.CodeMethodNotFound, Message: fmt.Sprintf("gate relays no %s", method)}
}

// parkedRoots is a receiving middleware of gate's client to an upstream:
// its roots/list during a 2026-07-28 client's parked call, when that
// client declared roots, asks that client, and answers this upstream
// alone with its roots (they join no union: gate cannot ask that client
// again). Any other roots/list is answered as before (answerRoots).
func (u *upstream) parkedRoots(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		p, ok := req.GetParams().(*mcp.ListRootsParams)
		if method != "roots/list" || !ok {
			return next(ctx, method, req)
		}
		if p != nil {
			ctx = u.tiedTo(ctx, p.Meta)
		}
		ss, rctx, done, sessions := u.callers.relayFor(ctx)
		if sessions != oneCaller {
			return next(ctx, method, req)
		}
		defer done()
		pc, err := u.parkedFor(ctx, ss, method)
		if err != nil || pc == nil || pc.caps.RootsV2 == nil {
			return next(ctx, method, req)
		}
		return pc.request(rctx, method, &mcp.ListRootsParams{})
	}
}
