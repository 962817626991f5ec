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
// a result of resultType "input_required" to its tools/call,
// resources/read or prompts/get (its inputRequests and an opaque
// requestState), and retries the request with its inputResponses and that
// state. An upstream older than 2026-07-28 asks in the old form instead, a
// request on its session during the client's. So that such an upstream's
// request reaches a 2026-07-28 client, gate runs that client's request to
// it on past the POST that made it (a parked call): the upstream's request
// waits, the client's request is answered input_required with it and a
// requestState naming the parked call in this process, and the retry's
// answers go to the waiting request, the retry then waiting, as the first
// POST did, for the request's result or the upstream's next request.
//
// Whether a call parks is bound to the two versions, not to what the
// requestState looks like: the client's speaks 2026-07-28 and the
// upstream's session an older one. An older upstream makes no
// requestState, so every requestState of a call to one is gate's; a
// 2026-07-28 upstream's goes through as it came (call.go).

// parkedFor is what a parked call's requestState is bound to: its method,
// what it named and the upstream it went to. A retry of another method,
// tool, resource or prompt cannot resume it.
type parkedFor struct {
	method string // "tools/call", "resources/read" or "prompts/get"
	name   string // the offered tool or prompt name, or the resource URI
	up     *upstream
}

// word is the request's name in errors, as withInputs's "what".
func (at parkedFor) word() string {
	switch at.method {
	case "resources/read":
		return "read"
	case "prompts/get":
		return "get"
	}
	return "call"
}

// another says what a requestState of pc names, to a retry bound to at
// that it does not fit: gate's words, nothing the client sent.
func (at parkedFor) another(pc parkedFor) string {
	switch {
	case at.method != pc.method:
		return "a request of another method, " + pc.method
	case at.method == "resources/read":
		return "a read of another resource"
	case at.method == "prompts/get":
		return "a get of another prompt"
	}
	return "a call of another tool"
}

// parkedCall is one forwarded tools/call, resources/read or prompts/get of
// a 2026-07-28 client to an older upstream, run on its own goroutine so
// that it may outlive its POST.
type parkedCall struct {
	parkedFor
	calls  *parkedCalls
	state  string             // its requestState
	ss     *mcp.ServerSession // the session of the first POST, which the upstream's requests are tied to
	caps   *mcp.ClientCapabilities
	ctx    context.Context // ends when the call does
	cancel context.CancelCauseFunc
	// asks are the upstream's requests for input not yet sent to the
	// client; done is closed once res and err are the call's answer.
	asks chan *parkedAsk
	done chan struct{}
	res  mcp.Result
	err  error
	// inputRequired is the method's input_required result asking reqs.
	inputRequired func(reqs mcp.InputRequestMap, state string) mcp.Result

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

// parks reports whether a request of ss to u is run as a parked call:
// its client speaks 2026-07-28 (it can be sent no request) and u an older
// version (it asks in the old form).
func parks(ss *mcp.ServerSession, u *upstream) bool {
	if ss == nil {
		return false
	}
	if p := ss.InitializeParams(); p == nil || p.ProtocolVersion < noServerRequests {
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

// parkRequest answers a 2026-07-28 client's request (of session ss, bound
// to at) to an older upstream: a first one (state "") starts the parked
// call, which sends it upstream with send; a retry names one by its
// requestState and gives its answers.
func parkRequest[R inputResult](g *Gateway, ctx context.Context, ss *mcp.ServerSession, at parkedFor, state string, answers mcp.InputResponseMap, send func(context.Context) (R, error)) (R, error) {
	var pc *parkedCall
	var err error
	if state != "" {
		pc, err = g.parked.resume(at, state)
	} else {
		pc, err = g.parked.start(ctx, ss, at, inputRequiredOf[R])
		answers = nil
	}
	if err != nil {
		var zero R
		return zero, err
	}
	if state == "" {
		// Its progress goes to the first POST, while that is open: a
		// request that asks for nothing has all of it.
		go pc.run(func() (mcp.Result, error) {
			res, err := send(pc.ctx)
			return any(res).(mcp.Result), err
		})
	}
	res, err := pc.wait(ctx, answers)
	out, _ := res.(R)
	return out, err
}

// start registers a new parked call of ss bound to at.
func (p *parkedCalls) start(ctx context.Context, ss *mcp.ServerSession, at parkedFor, inputRequired func(mcp.InputRequestMap, string) mcp.Result) (*parkedCall, error) {
	state, err := newRequestState()
	if err != nil {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "gate could not make a requestState: " + err.Error()}
	}
	caps := &mcp.ClientCapabilities{}
	if ip := ss.InitializeParams(); ip != nil && ip.Capabilities != nil {
		caps = ip.Capabilities
	}
	pc := &parkedCall{parkedFor: at, calls: p, state: state, ss: ss, caps: caps,
		asks: make(chan *parkedAsk, maxInputRequests), done: make(chan struct{}), out: map[string]*parkedAsk{}, inputRequired: inputRequired}
	pc.ctx, pc.cancel = context.WithCancelCause(context.WithValue(context.WithoutCancel(ctx), parkedKey{}, pc))
	p.add(pc)
	return pc, nil
}

// run sends the request and keeps its answer; the call's state ends with
// it.
func (pc *parkedCall) run(send func() (mcp.Result, error)) {
	defer func() {
		if v := recover(); v != nil {
			// The upstream's data made gate fail this request alone.
			pc.res, pc.err = nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: fmt.Sprintf("gate failed handling the %s to server %s", pc.word(), pc.up.name)}
		}
		pc.calls.forget(pc)
		pc.cancel(nil)
		close(pc.done)
	}()
	pc.res, pc.err = send()
}

// resume is the parked call a retry bound to at names by its
// requestState, or the -32602 error that refuses the retry: one this
// process does not hold, or one of another method, tool, resource or
// prompt. The error echoes nothing the client sent.
func (p *parkedCalls) resume(at parkedFor, state string) (*parkedCall, error) {
	pc := p.find(state)
	if pc == nil {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: fmt.Sprintf("the requestState of this %s names no call this gate process holds: the call ended, or another gate process holds it (a server older than 2026-07-28 asks for input during a request that process keeps; send the %s again to start over)", at.word(), at.word())}
	}
	if pc.parkedFor != at {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: fmt.Sprintf("the requestState of this %s names %s", at.word(), at.another(pc.parkedFor))}
	}
	return pc, nil
}

// wait answers one POST of the call: with answers (a retry's) given to
// the requests they answer first, it waits for the call's result or the
// upstream's next requests for input, whichever comes first. The POST's
// end (its client gone, or cancelling) ends the call.
func (pc *parkedCall) wait(ctx context.Context, answers mcp.InputResponseMap) (mcp.Result, error) {
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
func (pc *parkedCall) ask(a *parkedAsk) (mcp.Result, error) {
	pc.mu.Lock()
	defer pc.mu.Unlock()
	pc.rounds++
	if pc.rounds > maxInputRounds {
		pc.cancel(nil)
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: fmt.Sprintf("server %s asked for input %d times in one %s, the gateway's cap", pc.up.name, maxInputRounds, pc.word())}
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
	return pc.inputRequired(reqs, pc.state), nil
}

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
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: fmt.Sprintf("the %s has %d input requests out, the gateway's cap: %s was not relayed", pc.word(), maxInputRequests, method)}
	}
	select {
	case ans := <-a.answer:
		return ans.res, ans.err
	case <-rctx.Done():
	case <-pc.ctx.Done():
	}
	return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: fmt.Sprintf("the %s ended before its client answered %s", pc.word(), method)}
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
