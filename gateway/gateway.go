package gateway

import (
	"context"
	"net/http"

	"github.com/gate-dev/gate/internal/mcpgw"
	"github.com/gate-dev/gate/runtime"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Gateway is gate's MCP server over a runtime.Service (see the package
// documentation). Make one with New, start Run, and serve Server() over
// any MCP transport, or Handler() over streamable HTTP.
type Gateway struct{ g *mcpgw.Gateway }

// New returns a gateway over svc. It connects nothing until Run.
func New(svc *runtime.Service, cfg Config) *Gateway {
	return &Gateway{mcpgw.New(svc, cfg.c)}
}

// Server returns the MCP server, to run over any transport
// (Server().Run(ctx, &mcp.StdioTransport{}) for stdio).
func (g *Gateway) Server() *mcp.Server { return g.g.Server() }

// Handler returns the gateway as a streamable-HTTP MCP endpoint (gatectl
// serve mounts it at /mcp, behind its token and Host checks). It bounds
// what a client can make it hold: a request body over WithMaxRequestBytes
// is refused with 413, one that does not arrive within
// WithRequestBodyTimeout with 408, one that would take its peer's bodies
// past their share of WithRequestBodyBudget with 429 and all of them past
// the budget with 503, and a JSON-RPC batch of more messages than
// WithMaxSessionRequests with 400; a request that could open a session (a
// POST without Mcp-Session-Id, whatever its body) is refused with 503 while
// WithMaxSessions sessions are open or being opened; an idle session is
// closed after WithSessionIdle; every write to a client must complete
// within WithWriteTimeout, else its session is dropped; requests arriving
// on a loopback address must name a loopback Host (the SDK's DNS-rebinding
// check, unless WithAnyHost), and cross-origin browser requests are
// refused.
func (g *Gateway) Handler() http.Handler { return g.g.Handler() }

// Run connects the manifest's upstreams and keeps the offered tools and
// skills current until ctx is done: on every event of the service (a flip,
// a reload) and every change of an upstream. It returns ctx's error once
// every upstream is closed, all at once: each forwarded call in flight is
// answered first (see Shutdown), then a stdio upstream gets its stdin
// closed, then SIGTERM to its process group after the stop grace
// (WithStopGrace), then SIGKILL after as long again; Run returns within
// twice the grace and a second, whatever the upstreams do.
func (g *Gateway) Run(ctx context.Context) error { return g.g.Run(ctx) }

// Shutdown ends every forwarded call in flight now, each with a JSON-RPC
// error that says gate is shutting down, and answers every later call so:
// a client waiting on an upstream is answered rather than cut off. It
// leaves the sessions open, so that those answers can be written;
// CloseSessions does the same, then closes them once the answers are out.
// The end of Run's context does it too, before the upstreams are closed.
// It may be called more than once.
func (g *Gateway) Shutdown() { g.g.Shutdown() }

// CloseSessions ends the gateway's service to clients: new sessions and
// calls are refused, every forwarded call in flight is cancelled and
// answered with an error that says gate is shutting down, and once those
// answers are written every session is closed (its streams end). It
// returns when all are closed, or when ctx is done: then every write still
// open on /mcp fails at once, so that an HTTP server's Shutdown or Close
// is not kept waiting by a client that does not read. Call it before the
// HTTP server's Shutdown. Run keeps the upstreams until its own context
// ends.
func (g *Gateway) CloseSessions(ctx context.Context) error {
	return g.g.CloseSessionsContext(ctx)
}

// ProtectProcess, on Linux, makes the process undumpable, so that the
// stdio upstreams it starts, which run as its user, as its children,
// cannot read every variable it was started with from
// /proc/<pid>/environ (nor its mem, maps or fd, nor attach with ptrace),
// whatever env and pass_env give them; only a process with CAP_SYS_PTRACE
// still can. A Go program that embeds the gateway and runs stdio
// upstreams should call it early in main, before it holds secrets, as
// gatectl does. It also turns off core dumps, and a debugger can no
// longer attach without privileges. The commands it starts are dumpable
// again (execve resets the flag): it protects this process, not them.
// Elsewhere it does nothing, and that is left to the system.
func ProtectProcess() error { return mcpgw.ProtectProcess() }
