package mcpgw

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/gate-dev/gate/internal/statusview"
	"net"
	"time"

	"github.com/gate-dev/gate/internal/tracing"
	"github.com/gate-dev/gate/internal/uplink"
	"github.com/gate-dev/gate/runtime"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Outcomes of a call, as gate_mcp_calls_total counts them.
const (
	OutcomeOK          = "ok"          // the upstream answered a result
	OutcomeToolError   = "tool_error"  // a result with isError set
	OutcomeError       = "error"       // the upstream answered a JSON-RPC error, or the session broke
	OutcomeTimeout     = "timeout"     // no answer within the call timeout
	OutcomeCancelled   = "cancelled"   // the client cancelled it
	OutcomeUnavailable = "unavailable" // the tool is not offered now
	OutcomeTooLarge    = "too_large"   // the result was over the cap
	OutcomeBusy        = "busy"        // its session had the cap of requests being handled
)

// refuseHidden answers a tools/call for a tool that is not offered with
// an error that says why, before the SDK would answer "unknown tool".
func (g *Gateway) refuseHidden(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		if method != "tools/call" {
			return next(ctx, method, req)
		}
		p, ok := req.GetParams().(*mcp.CallToolParamsRaw)
		if !ok || p == nil {
			return next(ctx, method, req)
		}
		g.mu.Lock()
		_, on := g.offered[p.Name]
		why, known := g.hidden[p.Name]
		g.mu.Unlock()
		if on {
			return next(ctx, method, req)
		}
		g.clients.mu.Lock()
		closing := g.clients.closing
		g.clients.mu.Unlock()
		if closing {
			// Its tool may be hidden only because its upstream is
			// being closed: the answer is why, as for a call in flight.
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "gate is shutting down: the call was not made"}
		}
		tool := p.Name
		if !known {
			why = hiddenTool{runtime.CodeNoSuchTool, "gate offers no tool of that name (tools/list gives those that can run now)"}
			tool = ""
		}
		g.metrics.call("", tool, OutcomeUnavailable, 0)
		return nil, notOfferedError(p.Name, why)
	}
}

// notOfferedError is the -32602 error of a call to a tool that is not
// offered: the reason in its message, and the code, whether it is
// retryable and what to do in its data, for a client program to act on.
func notOfferedError(tool string, why hiddenTool) *jsonrpc.Error {
	code := why.code
	if code == "" {
		code = runtime.CodeUnavailable
	}
	data, _ := json.Marshal(statusview.Code(code)) // three strings and a bool
	return &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: fmt.Sprintf("tool %s is not available now: %s", quote(tool), why.reason), Data: data}
}

// forward returns the handler of an offered tool: the call goes to its
// upstream under the upstream's name for it; a 2026-07-28 client's call to
// an older upstream as a parked call (parked.go).
func (g *Gateway) forward(o *offer) mcp.ToolHandler {
	now := g.forwardNow(o)
	return func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		if req.Params != nil && parks(req.Session, o.up) {
			at := parkedFor{method: "tools/call", name: o.tool.Name, up: o.up}
			return parkRequest(g, ctx, req.Session, at, req.Params.RequestState, req.Params.InputResponses, func(pctx context.Context) (*mcp.CallToolResult, error) { return now(pctx, req) })
		}
		return now(ctx, req)
	}
}

// forwardNow returns the handler that sends a call of o to its upstream.
func (g *Gateway) forwardNow(o *offer) mcp.ToolHandler {
	return func(ctx context.Context, req *mcp.CallToolRequest) (res *mcp.CallToolResult, err error) {
		start := time.Now()
		ctx, span := g.traceCall(ctx, req, o)
		outcome := OutcomeError // a panic's
		defer func() { span.End(outcome) }()
		// A panic while gate handles the upstream's answer (its result,
		// its error, the SDK's decoding of either, what the breaker makes
		// of it) is the upstream's failure: its session ends, and the
		// call is answered with an error (panics.go).
		defer func() {
			if v := recover(); v != nil {
				res, err = nil, o.up.failForPanic("the answer to the call of "+o.tool.Name, v)
				g.metrics.call(o.up.name, o.tool.Name, OutcomeError, time.Since(start))
			}
		}()
		var h health
		res, outcome, h, err = o.up.call(ctx, req, o)
		// Once more after the message was cleaned and cut (call redacts
		// the upstream's error whole first).
		err = o.up.secrets.err(err)
		g.metrics.call(o.up.name, o.tool.Name, outcome, time.Since(start))
		g.recordHealth(o.up, o.breaker, h, err, req.Session)
		return res, err
	}
}

// call forwards one tools/call. Its errors are JSON-RPC errors the client
// can show: the upstream's own are passed through as they came. It
// returns the call's outcome (gate_mcp_calls_total's label) and what the
// call says of the upstream's health (for its breaker).
func (u *upstream) call(ctx context.Context, req *mcp.CallToolRequest, o *offer) (*mcp.CallToolResult, string, health, error) {
	prefixed, timeout := o.tool.Name, o.timeout
	u.mu.Lock()
	cs, session, g, state, lastErr := u.session, u.sessionCtx, u.guard, u.state, u.lastErr
	u.mu.Unlock()
	if cs == nil || state != StateReady {
		why := fmt.Sprintf("server %s is %s", u.name, state)
		if lastErr != "" {
			why += ": " + lastErr
		}
		return nil, OutcomeUnavailable, healthNone, notOfferedError(prefixed, hiddenTool{runtime.CodeUpstreamDown, why})
	}
	// The call ends when the client cancels it, at its timeout, when gate
	// shuts down or drops the client's session (track), and when the
	// upstream's session ends: each of these answers the client at once,
	// with what happened.
	ctx, untrack := u.gw.track(ctx, req.Session)
	defer untrack()
	sctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	defer context.AfterFunc(session, func() { cancel(context.Cause(session)) })()
	cctx, cancelTimeout := context.WithTimeout(sctx, timeout)
	defer cancelTimeout()
	params := &mcp.CallToolParams{Name: o.upstream, Meta: tracing.Meta(ctx, nil)}
	if len(req.Params.Arguments) > 0 {
		params.Arguments = req.Params.Arguments
	}
	// A 2026-07-28 client's retry of an input_required result: its
	// answers and the upstream's state go to the upstream (relay.go), a
	// url-mode elicitation's answer as its action alone (urlanswers.go).
	params.InputResponses, params.RequestState = unwrapURLAnswers(req.Params.InputResponses, req.Params.RequestState)
	var progress *callProgress
	if tok := req.Params.GetProgressToken(); tok != nil && req.Session != nil {
		up, p, done := u.route(ctx, req.Session, tok)
		defer done()
		progress = p
		params.SetProgressToken(up)
	}
	// The call waits for one of the upstream's call slots, within its own
	// bounds: a flood of calls holds no more of the upstream's
	// connections than the cap.
	var res *mcp.CallToolResult
	var raw, err error // raw: before it was redacted, to judge it by
	sent := false
	select {
	case u.callSlots <- struct{}{}:
		sent = true
		// A call in flight owes the upstream a cancellation until it is
		// answered: one that ends for gate's reasons has the SDK send one.
		g.Cancels.Owe()
		// The upstream's requests for input during it go to this
		// call's client (relay.go).
		callCtx, left := u.callers.enter(cctx, req.Session)
		defer left()
		res, err = sendInSlot(u, func() (*mcp.CallToolResult, error) { return u.callWithInputs(callCtx, cs, params, req.Session) })
		raw = err
		err = u.secrets.err(err)
		if err == nil || cctx.Err() == nil {
			g.Cancels.Settle()
		}
	case <-cctx.Done():
		err = cctx.Err()
	}
	if progress != nil && sctx.Err() == nil {
		// The call's progress goes out before its result.
		progress.catchUp(ctx, progressCatchUp)
		u.gw.flush(ctx, req.Session, progressCatchUp)
	}
	switch {
	case err == nil:
		u.hookData("answer")
		b, merr := json.Marshal(res)
		if merr != nil {
			return nil, OutcomeError, healthNone, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: fmt.Sprintf("server %s answered a result gate cannot write: %v", u.name, merr)}
		}
		if len(b) > u.gw.cfg.maxResult {
			return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{
				Text: fmt.Sprintf("gate: the result of %s is %d bytes, over the gateway's cap of %d bytes; it was not passed on", prefixed, len(b), u.gw.cfg.maxResult),
			}}}, OutcomeTooLarge, healthOK, nil
		}
		if isTaskHandle(res) {
			return nil, OutcomeError, healthNone, taskRefused(u.name, prefixed)
		}
		if res.IsError {
			return res, OutcomeToolError, healthOK, nil
		}
		return res, OutcomeOK, healthOK, nil
	case errors.Is(context.Cause(ctx), errShuttingDown):
		return nil, OutcomeCancelled, healthNone, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: fmt.Sprintf("gate is shutting down: the call of %s to server %s was cancelled", prefixed, u.name)}
	case ctx.Err() != nil:
		return nil, OutcomeCancelled, healthNone, ctx.Err()
	case sctx.Err() != nil || g.Reason() != nil:
		return nil, OutcomeError, healthFault, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: fmt.Sprintf("server %s's session ended during the call of %s: %s", u.name, prefixed, cleanMessage(sessionEnd(sctx, g).Error()))}
	case cctx.Err() != nil && !sent:
		return nil, OutcomeTimeout, healthNone, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: fmt.Sprintf("the call of %s was not sent: server %s had %d calls in flight (the gateway's cap) for all of its call_timeout, %v", prefixed, u.name, u.gw.cfg.maxUpstreamCalls, timeout)}
	case cctx.Err() != nil:
		// The call's failure, not the server's: a server busy with it may
		// be answering others, and pings (keepalive.go).
		u.callTimedOut()
		return nil, OutcomeTimeout, healthNone, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: fmt.Sprintf("server %s did not answer the call of %s within %v (its call_timeout)", u.name, prefixed, timeout)}
	}
	u.hookData("error")
	outcome, h, jerr := u.judge(raw, err, "the call of "+prefixed)
	return nil, outcome, h, jerr
}

// sessionEnd is why the upstream's session ended under a request: its
// link's failure (the Guard), which may end the request before the
// session's end reaches its context (sctx), else that context's cause.
func sessionEnd(sctx context.Context, g *uplink.Guard) error {
	if why := g.Reason(); why != nil {
		return why
	}
	return context.Cause(sctx)
}

// sendInSlot sends one request in the call slot its caller took, and
// gives the slot back however the send ends: a panic while the SDK
// decodes the upstream's answer must not keep one of the upstream's slots
// for ever.
func sendInSlot[R any](u *upstream, send func() (R, error)) (R, error) {
	defer func() { <-u.callSlots }()
	return send()
}

// judge reads the error a forwarded request (what: "the call of x")
// ended with once sent, when neither its context nor its session ended
// it: the outcome, what it says of the server's health, and the error its
// client gets. raw is the error as it came, err the same redacted
// (redact.go), which keeps its text but not what it wraps.
func (u *upstream) judge(raw, err error, what string) (string, health, *jsonrpc.Error) {
	var status *callStatusError
	if errors.As(raw, &status) {
		// The request's answer, however the server gave it: its client is
		// told, the session goes on.
		outcome, h := OutcomeError, healthNone
		switch {
		case status.busy():
			outcome = OutcomeBusy
		case status.serverError():
			h = healthCallFault
		}
		return outcome, h, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: status.describe(u.name, what)}
	}
	var je *jsonrpc.Error
	if errors.As(err, &je) && !sdkTransportError(je) {
		return OutcomeError, healthOK, u.gw.upstreamError(je)
	}
	// A connection that could not be made is the server's failure, whoever
	// asked; one that broke during a request may be what that request
	// made of it (a body a proxy resets), which needs two clients.
	h := healthCallFault
	var op *net.OpError
	if errors.As(raw, &op) && op.Op == "dial" {
		h = healthFault
	}
	return OutcomeError, h, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: fmt.Sprintf("server %s: %s", u.name, cleanMessage(err.Error()))}
}

// sdkTransportErrors are the errors the MCP SDK's client makes itself, as
// JSON-RPC errors, when a request never reached the upstream or its
// connection is closing (v1.8.0's jsonrpc2.ErrRejected, ErrClientClosing,
// ErrServerClosing): a refused or reset connection. They are failures of
// the transport, not the upstream's answer: they count for its breaker,
// and the client is told the whole error (the cause comes after the
// sentinel's message). An HTTP status on a forwarded request never comes
// as one: the link makes it a callStatusError first (callstatus.go).
var sdkTransportErrors = map[int64]string{
	-32005: "rejected by transport",
	-32003: "client is closing",
	-32004: "server is closing",
}

func sdkTransportError(je *jsonrpc.Error) bool {
	msg, ok := sdkTransportErrors[je.Code]
	return ok && je.Message == msg
}

// recordHealth gives the verdict of a request sent to u (a call, a read,
// a get, a completion for the client whose session is who; gate's own
// ping, who nil) to its breaker, and publishes the change of state it
// makes, if any.
func (g *Gateway) recordHealth(u *upstream, p breakerPolicy, h health, err error, who *mcp.ServerSession) {
	fault := ""
	if err != nil {
		fault = err.Error()
		var je *jsonrpc.Error
		if errors.As(err, &je) {
			fault = je.Message
		}
	}
	var client any
	if who != nil {
		client = who
	}
	if change, ok := u.breaker.record(time.Now(), p, h, fault, client); ok {
		g.breakerChanged(u, change)
	}
}

// upstreamError is an upstream's JSON-RPC error as a client gets it: its
// code; its message, which a client shows and a model reads, cleaned by
// safetext's rule and cut (cleanMessage); its data, which is the
// upstream's as a result is, when it is within the result cap.
func (g *Gateway) upstreamError(je *jsonrpc.Error) *jsonrpc.Error {
	out := &jsonrpc.Error{Code: je.Code, Message: cleanMessage(je.Message)}
	if len(je.Data) <= g.cfg.maxResult {
		out.Data = je.Data
	}
	return out
}
