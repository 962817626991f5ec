//lint:file-ignore SA1019 MCP deprecates logging as of 2026-07-28 (SEP-2577); clients and servers of the earlier versions gate speaks use it

package mcpgw

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// An upstream's log messages (notifications/message) reach the clients
// that asked for them. gate's server declares the logging capability; a
// client's logging/setLevel is recorded on its session (by the SDK, which
// filters what is sent to the session by it, and by gate, in
// clientSession.logLevel). Each upstream that declares logging is asked
// for the most verbose level any open client session asked for: an
// upstream is shared, and one level must serve every session; each
// session then gets only what its own level admits. Nothing is sent to an
// upstream while no client has asked for a level. The level is sent again
// whenever it changes (a session asks for another, or the most verbose
// one ends) and when an upstream's session starts.
//
// Each message goes to every client session whose level admits it,
// through that session's outbox (outbox.go): a slow client loses log
// messages, counted by gate_mcp_log_messages_dropped_total, and nothing
// else; an upstream that floods messages is read no faster than gate
// hands them on (uplink.Inflow).

// methodLog is MCP's log message notification.
const methodLog = "notifications/message"

// logLevels are MCP's log levels, most verbose first (RFC 5424's
// severities, from debug to emergency).
var logLevels = []mcp.LoggingLevel{"debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"}

// quietest is the least verbose level, asked of an upstream once no
// session wants its messages.
var quietest = logLevels[len(logLevels)-1]

// levelRank is l's place in logLevels, or -1 for a level MCP does not
// define.
func levelRank(l mcp.LoggingLevel) int { return slices.Index(logLevels, l) }

// maxLoggerName bounds the logger name an upstream gives a message, as
// clients see it after the server's name.
const maxLoggerName = 128

// loggerName is the logger a client sees on an upstream's message: the
// server's name, then "/" and the upstream's own logger name when it
// gave one (cleaned of control characters, at most maxLoggerName bytes),
// so that a client can tell the servers behind gate apart.
func loggerName(server, logger string) string {
	if logger == "" {
		return server
	}
	if len(logger) > maxLoggerName {
		logger = logger[:maxLoggerName] + "…"
	}
	return server + "/" + cleanMessage(logger)
}

// noteLogLevel is a receiving middleware of the server: a client's
// logging/setLevel with a level MCP does not define is refused; one that
// succeeds is recorded on the client's session, and the level asked of
// the upstreams follows.
func (g *Gateway) noteLogLevel(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		r, ok := req.(*mcp.ServerRequest[*mcp.SetLoggingLevelParams])
		if method != "logging/setLevel" || !ok || r.Params == nil {
			return next(ctx, method, req)
		}
		if levelRank(r.Params.Level) < 0 {
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: fmt.Sprintf("gate: unknown log level %s: want one of %v", quote(string(r.Params.Level)), logLevels)}
		}
		res, err := next(ctx, method, req)
		if err != nil {
			return res, err
		}
		cs := g.client(r.Session)
		cs.mu.Lock()
		cs.logLevel = r.Params.Level
		cs.mu.Unlock()
		g.updateLogLevel()
		return res, nil
	}
}

// updateLogLevel works out the most verbose level the open client
// sessions asked for, and has every upstream told when it changed.
func (g *Gateway) updateLogLevel() {
	t := &g.clients
	t.mu.Lock()
	best := -1
	for _, cs := range t.sessions {
		cs.mu.Lock()
		if r := cs.wantedRank(); r >= 0 && (best < 0 || r < best) {
			best = r
		}
		cs.mu.Unlock()
	}
	t.mu.Unlock()
	var want mcp.LoggingLevel
	if best >= 0 {
		want = logLevels[best]
	}
	g.logs.mu.Lock()
	changed := want != g.logs.want
	g.logs.want = want
	g.logs.mu.Unlock()
	if !changed {
		return
	}
	// A change already pending reads the newest level.
	g.kickUpstreams(func(u *upstream) chan struct{} { return u.levelKick })
}

// logLevel is the level asked of the upstreams now; "" while no open
// client session asked for one.
func (g *Gateway) logLevel() mcp.LoggingLevel {
	g.logs.mu.Lock()
	defer g.logs.mu.Unlock()
	return g.logs.want
}

// logLevelState is the level asked of the upstreams.
type logLevelState struct {
	mu   sync.Mutex
	want mcp.LoggingLevel // "" while no open client session asked for one
}

// keepLogLevel tells the upstream of session cs the level gate wants,
// when the session starts and on each change, until ctx (the session's)
// ends (the quietest once no open session wants one, after one did);
// nothing when the upstream does not declare logging. A refused or
// unanswered logging/setLevel is logged and not retried until the level
// changes again: the session goes on without it.
func (u *upstream) keepLogLevel(ctx context.Context, cs *mcp.ClientSession) {
	if r := cs.InitializeResult(); r == nil || r.Capabilities == nil || r.Capabilities.Logging == nil {
		return
	}
	var sent mcp.LoggingLevel
	for {
		want := u.gw.logLevel()
		if want == "" && sent != "" {
			// The last session that asked for a level has closed:
			// no one reads the upstream's messages now, and the level
			// it was left at would have it send them on for ever.
			want = quietest
		}
		if want != "" && want != sent {
			sctx, cancel := context.WithTimeout(ctx, u.gw.cfg.listTimeout)
			err := cs.SetLoggingLevel(sctx, &mcp.SetLoggingLevelParams{Level: want})
			cancel()
			if ctx.Err() != nil {
				return
			}
			if err != nil {
				u.gw.logf("upstream %s: logging/setLevel %s: %v", u.name, want, err)
			}
			sent = want
		}
		select {
		case <-ctx.Done():
			return
		case <-u.levelKick:
		}
	}
}

// forwardLog hands an upstream's log message to every client session
// whose level admits it (the SDK's ServerSession.Log filters by it), with
// the server's name in the logger and the data as the upstream sent it.
// It runs on the upstream's one notification goroutine and only queues.
func (u *upstream) forwardLog(_ context.Context, req *mcp.LoggingMessageRequest) {
	p := req.Params
	if p == nil || levelRank(p.Level) < 0 {
		return
	}
	out := &mcp.LoggingMessageParams{Level: p.Level, Logger: loggerName(u.name, p.Logger), Data: logData(u.name, p.Data)}
	for ss := range u.gw.server.Sessions() {
		for _, ctx := range u.gw.logContexts(ss) {
			_ = ss.Log(ctx, out)
		}
	}
}

// maxLogData caps the data of a log message gate passes on, as JSON. A
// session's queue holds up to Config.WithSessionQueue notifications, and
// an upstream's message may be as large as its message cap (16 MiB):
// without this, a queue of log messages could hold gigabytes. A log line
// a person reads is far shorter.
const maxLogData = 64 << 10

// logData is the data of an upstream's log message as gate passes it on:
// as it came, or, past maxLogData, a string that says so.
func logData(server string, data any) any {
	b, err := json.Marshal(data)
	if err == nil && len(b) <= maxLogData {
		return data
	}
	return fmt.Sprintf("gate: server %s sent a log message whose data has %d bytes, over the %d gate passes on", server, len(b), maxLogData)
}
