package mcpgw

import (
	"context"
	"fmt"
	"sync/atomic"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gate-dev/gate/internal/uplink"
)

// A panic while gate handles what one upstream sent (a listing and the
// compile of its schemas, a notification or request of its, the answer
// to a forwarded request or to gate's own, the bytes its link reads, the
// folding of its listing into the offered sets: offerpanics.go) is
// that upstream's failure, never the process's: it is recovered where the
// upstream's data is handled, logged with the server's name, and ends the
// upstream's session, which is then down and retried like any other that
// failed. Every client and every other upstream go on.

// testHookUpstreamData, when set, is called with the server's name and
// what gate is about to handle of its: "listing", "answer" (a forwarded
// request's result), "error" (its error), "offer" (its tools, into the
// offered set), "features" (its resources, templates and prompts, into
// theirs), "shadow" (a resource of its, matched against the templates of
// the servers before it), "ping" (its answer to gate's ping), "read" (a
// message its link reads, but over streamable HTTP), or the method of a
// message it sent.
var testHookUpstreamData atomic.Pointer[func(server, what string)]

func (u *upstream) hookData(what string) {
	if h := testHookUpstreamData.Load(); h != nil {
		(*h)(u.name, what)
	}
}

// panicked logs a panic recovered while handling what of the upstream's,
// and is the error that ends its session.
func (u *upstream) panicked(what string, v any) error {
	msg := cleanMessage(fmt.Sprint(v))
	u.gw.logf("upstream %s: gate panicked handling %s of its: %s; its session is ended", u.name, what, msg)
	return fmt.Errorf("gate panicked handling %s of its (a bug in gate, logged); the session was ended", what)
}

// recoverPanics is the receiving middleware of an upstream's session: a
// panic while handling a message it sent fails its session (gd).
func (u *upstream) recoverPanics(gd *uplink.Guard) mcp.Middleware {
	return func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (res mcp.Result, err error) {
			defer func() {
				if v := recover(); v != nil {
					err = u.panicked(fmt.Sprintf("a %s message", method), v)
					gd.Fail(err)
					res = nil
				}
			}()
			u.hookData(method)
			return next(ctx, method, req)
		}
	}
}

// failForPanic ends the upstream's session for a panic recovered while
// handling what of its, a client's request forwarded to it, and is the
// error that client is answered with: it says gate failed, and quotes
// nothing the upstream sent, nor what the panic held (that is logged).
func (u *upstream) failForPanic(what string, v any) *jsonrpc.Error {
	perr := u.panicked(what, v)
	u.mu.Lock()
	gd := u.guard
	u.mu.Unlock()
	if gd != nil {
		gd.Fail(perr)
	}
	return &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: fmt.Sprintf("server %s: %v", u.name, perr)}
}

// failOnPanic, deferred by a goroutine of one session of the upstream's
// that handles what it answers (gate's pings, log level,
// resubscriptions), makes a panic there the failure of that session (gd),
// not the process's.
func (u *upstream) failOnPanic(gd *uplink.Guard, what string) {
	if v := recover(); v != nil {
		gd.Fail(u.panicked(what, v))
	}
}

// recoverReads returns t with a panic while its connection reads or
// writes one of the session's messages (the link's own code, on the
// SDK's goroutines: a stdio line, an HTTP+SSE event) made that session's
// failure (gd): the read or write returns the error, which ends the
// SDK's connection. The SDK's streamable-HTTP connection is not wrapped
// (countingTransport says why): the link watches its bodies instead
// (link, uplink.HTTPLink.WatchBodies).
func (u *upstream) recoverReads(t mcp.Transport, gd *uplink.Guard) mcp.Transport {
	return &recoveringTransport{Transport: t, u: u, g: gd}
}

type recoveringTransport struct {
	mcp.Transport
	u *upstream
	g *uplink.Guard
}

func (t *recoveringTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	c, err := t.Transport.Connect(ctx)
	if err != nil || fmt.Sprintf("%T", c) == streamableClientConn {
		return c, err
	}
	return &recoveringConn{Connection: c, u: t.u, g: t.g}, nil
}

type recoveringConn struct {
	mcp.Connection
	u *upstream
	g *uplink.Guard
}

func (c *recoveringConn) Read(ctx context.Context) (msg jsonrpc.Message, err error) {
	defer func() {
		if v := recover(); v != nil {
			msg, err = nil, c.u.panicked("the bytes of a message", v)
			c.g.Fail(err)
		}
	}()
	msg, err = c.Connection.Read(ctx)
	if err == nil {
		c.u.hookData("read")
	}
	return msg, err
}

func (c *recoveringConn) Write(ctx context.Context, msg jsonrpc.Message) (err error) {
	defer func() {
		if v := recover(); v != nil {
			err = c.u.panicked("the writing of a message to it", v)
			c.g.Fail(err)
		}
	}()
	return c.Connection.Write(ctx, msg)
}
