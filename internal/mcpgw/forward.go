package mcpgw

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/gate-dev/gate/internal/statusview"

	"github.com/gate-dev/gate/runtime"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// forwardTo sends one request other than tools/call (resources/read,
// prompts/get, completion/complete, resources/subscribe and unsubscribe)
// to the upstream rt names, as a tools/call is sent (upstream.call): on
// its session while it is ready, within its server's call timeout and
// one of its call slots, ended when the client cancels (the SDK then
// cancels it upstream) or its session is dropped, the result capped at
// Config.WithMaxResultBytes, the upstream's JSON-RPC errors passed on
// cleaned (upstreamError), and its verdict counted for its breaker as a
// call's is (upstream.judge). what names the request in
// errors.
//
// A panic while handling the upstream's answer is its failure: its
// session is ended, and the client is answered with an error (panics.go).
func forwardTo[R any](g *Gateway, ctx context.Context, ss *mcp.ServerSession, rt featureRoute, what string, send func(context.Context, *mcp.ClientSession) (R, error)) (res R, err error) {
	defer func() {
		if v := recover(); v != nil {
			var zero R
			res, err = zero, rt.up.failForPanic("the answer to "+what, v)
		}
	}()
	return forwardOnce(g, ctx, ss, rt, what, send)
}

func forwardOnce[R any](g *Gateway, ctx context.Context, ss *mcp.ServerSession, rt featureRoute, what string, send func(context.Context, *mcp.ClientSession) (R, error)) (R, error) {
	var zero R
	u := rt.up
	u.mu.Lock()
	cs, session, gd, state, lastErr := u.session, u.sessionCtx, u.guard, u.state, u.lastErr
	u.mu.Unlock()
	if cs == nil || state != StateReady {
		why := fmt.Sprintf("server %s is %s", u.name, state)
		if lastErr != "" {
			why += ": " + lastErr
		}
		return zero, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: fmt.Sprintf("%s is not available now: %s", what, why), Data: codeData(runtime.CodeUpstreamDown)}
	}
	ctx, untrack := g.track(ctx, ss)
	defer untrack()
	sctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	defer context.AfterFunc(session, func() { cancel(context.Cause(session)) })()
	cctx, cancelTimeout := context.WithTimeout(sctx, rt.timeout)
	defer cancelTimeout()
	var res R
	var raw, err error // raw: before it was redacted, to judge it by
	sent := false
	select {
	case u.callSlots <- struct{}{}:
		sent = true
		gd.Cancels.Owe()
		callCtx, left := u.callers.enter(cctx, ss) // its requests for input (relay.go)
		defer left()
		res, err = sendInSlot(u, func() (R, error) { return send(callCtx, cs) })
		raw = err
		err = u.secrets.err(err) // as a tool call's: redact.go
		if err == nil || cctx.Err() == nil {
			gd.Cancels.Settle()
		}
	case <-cctx.Done():
		err = cctx.Err()
	}
	h := healthNone
	defer func() { g.recordHealth(rt.up, rt.policy, h, err, ss) }()
	switch {
	case err == nil:
		h = healthOK
		u.hookData("answer")
		b, merr := json.Marshal(res)
		if merr != nil {
			return zero, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: fmt.Sprintf("server %s answered %s with a result gate cannot write: %v", u.name, what, merr)}
		}
		if len(b) > g.cfg.maxResult {
			return zero, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: fmt.Sprintf("gate: the result of %s is %d bytes, over the gateway's cap of %d bytes; it was not passed on", what, len(b), g.cfg.maxResult)}
		}
		return res, nil
	case errors.Is(context.Cause(ctx), errShuttingDown):
		return zero, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: fmt.Sprintf("gate is shutting down: %s to server %s was cancelled", what, u.name)}
	case ctx.Err() != nil:
		return zero, ctx.Err()
	case sctx.Err() != nil || gd.Reason() != nil:
		h = healthFault
		return zero, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: fmt.Sprintf("server %s's session ended during %s: %s", u.name, what, cleanMessage(sessionEnd(sctx, gd).Error()))}
	case cctx.Err() != nil && !sent:
		return zero, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: fmt.Sprintf("%s was not sent: server %s had %d calls in flight (the gateway's cap) for all of its call_timeout, %v", what, u.name, g.cfg.maxUpstreamCalls, rt.timeout)}
	case cctx.Err() != nil:
		// Its failure, not the server's (upstream.call).
		u.callTimedOut()
		return zero, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: fmt.Sprintf("server %s did not answer %s within %v (its call_timeout)", u.name, what, rt.timeout)}
	}
	u.hookData("error")
	_, verdict, jerr := u.judge(raw, err, what)
	h = verdict
	return zero, jerr
}

// codeData is the data of a not-offered error: the code, whether it is
// retryable and what to do, as notOfferedError gives them.
func codeData(code runtime.Code) json.RawMessage {
	data, _ := json.Marshal(statusview.Code(code))
	return data
}
