//lint:file-ignore SA1019 MCP deprecates logging as of 2026-07-28 (SEP-2577); its clients may still ask for log messages in _meta, as the SDK serves them

package mcpgw

import (
	"context"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// A 2026-07-28 client hears of changes on a subscriptions/listen: one
// POST, served by the stateless handler on a session of its own, that
// stays open while the client keeps it. The SDK sends the list changes
// and resource updates it asked for on it, and gate's subscriptions to
// the upstreams' resources follow it (the SDK subscribes through
// SubscribeHandler and unsubscribes when it ends). Every one of them goes
// through queueNotifications into that session's outbox, bounded as an
// older session's is, and a listener that does not read is dropped alone.
//
// Log messages: MCP 2026-07-28 has no logging/setLevel; a request names
// the level it wants in its _meta. A listen that names one gets the
// upstreams' log messages at that level, on its stream, as a session
// that set the level does; its level counts in the level asked of the
// upstreams while it is open.

// listenLog is an open subscriptions/listen that asked for log messages:
// its level, and its request's context, which the SDK's ServerSession.Log
// reads the level and the stream from.
type listenLog struct {
	ctx   context.Context
	level mcp.LoggingLevel
}

// noteListen is a receiving middleware of the server: a subscriptions/listen
// whose _meta names a log level is recorded on its session while it is
// open; one that names a level MCP does not define is refused.
func (g *Gateway) noteListen(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		r, ok := req.(*mcp.SubscriptionsListenRequest)
		if method != methodListen || !ok || r.Params == nil {
			return next(ctx, method, req)
		}
		v, named := r.Params.GetMeta()[mcp.MetaKeyLogLevel]
		if !named {
			return next(ctx, method, req)
		}
		level, _ := v.(string)
		if levelRank(mcp.LoggingLevel(level)) < 0 {
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: fmt.Sprintf("gate: unknown log level in _meta %s: want one of %v", mcp.MetaKeyLogLevel, logLevels)}
		}
		cs := g.client(r.Session)
		l := &listenLog{ctx: ctx, level: mcp.LoggingLevel(level)}
		cs.mu.Lock()
		if cs.listens == nil {
			cs.listens = map[*listenLog]struct{}{}
		}
		cs.listens[l] = struct{}{}
		cs.mu.Unlock()
		g.updateLogLevel()
		defer func() {
			cs.mu.Lock()
			delete(cs.listens, l)
			cs.mu.Unlock()
			g.updateLogLevel()
		}()
		return next(ctx, method, req)
	}
}

// wantedRank is the rank of the most verbose level cs asked for, by
// logging/setLevel or an open listen; -1 for none. Under cs.mu.
func (cs *clientSession) wantedRank() int {
	best := levelRank(cs.logLevel)
	for l := range cs.listens {
		if r := levelRank(l.level); r >= 0 && (best < 0 || r < best) {
			best = r
		}
	}
	return best
}

// logContexts are the contexts a log message goes to ss with: one for each
// of its open listens that asked for log messages, or, for a session of an
// older version, one that has the session's own level read.
func (g *Gateway) logContexts(ss *mcp.ServerSession) []context.Context {
	cs := g.find(ss)
	if cs == nil {
		return []context.Context{context.Background()}
	}
	cs.mu.Lock()
	defer cs.mu.Unlock()
	if len(cs.listens) == 0 {
		return []context.Context{context.Background()}
	}
	out := make([]context.Context, 0, len(cs.listens))
	for l := range cs.listens {
		out = append(out, l.ctx)
	}
	return out
}
