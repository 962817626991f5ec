package mcpgw

import (
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gate-dev/gate/internal/uplink"
)

// addServerMiddleware registers the middleware of the gateway's MCP
// server, the one place it is registered. A client's request passes the
// receiving middleware in this order, outermost first (the SDK runs the
// first of a list first):
//
//  1. noteOpening: a new session is tied to the POST that opened it (a
//     stateless POST's, whatever its request, so that its response is
//     tied to it before anything is written).
//  2. noteProtocol: at debug level, the session's protocol version is
//     logged once, after its first request is served.
//  3. limitRequests: a session over its cap of requests in progress is
//     answered at once, before any other work is done for it.
//  4. serveFeatures: resources, resource templates, prompts and
//     completions, from gate's own sets; other methods go on.
//  5. serveOffered: tools/list and tools/call from the offered set, whole
//     (a call of a tool not in it goes to refuseHidden, via callOffered).
//  6. refuseHidden: a tools/call that reaches it for a tool not offered is
//     refused with why, before the SDK would answer "unknown tool".
//  7. noteLogLevel: logging/setLevel is checked and recorded.
//  8. noteListen: a subscriptions/listen that asks for log messages is
//     recorded while it is open.
//  9. keepSDKMethods: the SDK's own handling, kept (sdkMethods) for what
//     gate asks of it itself.
//
// A program that embeds the gateway may add its own around these
// (gatectl mcp does). What the server sends goes through two sending
// middleware: queueNotifications (a notification waits in its session's
// outbox), and keepElicitAnswer (a client's answer to an elicitation gate
// relays is kept as the client gave it, relay.go).
func (g *Gateway) addServerMiddleware() {
	g.server.AddReceivingMiddleware(
		g.noteOpening,
		g.noteProtocol,
		g.limitRequests,
		g.serveFeatures,
		g.serveOffered,
		g.refuseHidden,
		g.noteLogLevel,
		g.noteListen,
		g.keepSDKMethods,
	)
	g.server.AddSendingMiddleware(g.queueNotifications, g.keepElicitAnswer)
}

// keepSDKMethods keeps the SDK server's handling of a method, beneath
// every middleware of gate's, which leaveAll unsubscribes a closed session
// through (see sdkForget).
func (g *Gateway) keepSDKMethods(next mcp.MethodHandler) mcp.MethodHandler {
	g.sdkMethods = next
	return next
}

// addClientMiddleware registers the receiving middleware of gate's client
// session with upstream u, whose guard is gd, the one place it is
// registered. A message the upstream sends passes them in this order,
// outermost first:
//
//  1. recoverPanics: a panic while gate handles the message (in what
//     follows, or in the client's handlers) fails the upstream's session,
//     never the process.
//  2. countHandled: a notification gate acts on is counted handled in the
//     guard's flow once it has been, so the link reads the upstream again.
//  3. parkedRoots, answerRoots: roots/list during a 2026-07-28 client's
//     parked call is that client's to answer (parked.go); else it is
//     answered with the clients' roots.
//  4. relayRequests: elicitation/create and sampling/createMessage go to
//     the client whose call they are for (relay.go).
func (u *upstream) addClientMiddleware(client *mcp.Client, gd *uplink.Guard) {
	client.AddReceivingMiddleware(
		u.recoverPanics(gd),
		countHandled(&gd.Flow),
		u.parkedRoots,
		u.gw.answerRoots,
		u.relayRequests,
	)
}
