package mcpgw

import (
	"context"
	"slices"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// noteProtocol logs, at debug level (Config.WithDebug), the protocol
// version each client session speaks, once, after its first request is
// served (an initialize sets it; a 2026-07-28 request carries it): how an
// operator sees which version a client chose, and that /mcp served a
// 2026-07-28 POST without a session. A 2026-07-28 POST is a session of
// its own, so each logs a line. Only a version the SDK speaks is named:
// the rest is a client's text.
func (g *Gateway) noteProtocol(next mcp.MethodHandler) mcp.MethodHandler {
	if !g.cfg.debug {
		return next
	}
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		res, err := next(ctx, method, req)
		ss, ok := req.GetSession().(*mcp.ServerSession)
		if !ok {
			return res, err
		}
		p := ss.InitializeParams()
		if p == nil || g.client(ss).protocolNoted.Swap(true) {
			return res, err
		}
		g.debugf("%s: protocol %s", sessionKind(ss.ID(), p.ProtocolVersion), knownVersion(p.ProtocolVersion))
		return res, err
	}
}

// sessionKind names a session for noteProtocol's line: by its ID, or, with
// none, as a 2026-07-28 client's (no session) or an older one's over a
// transport without IDs (stdio).
func sessionKind(id, version string) string {
	switch {
	case id != "":
		return "MCP session " + shortID(id)
	case version >= firstStatelessVersion:
		return "MCP client without a session (stateless)"
	default:
		return "MCP session without an ID"
	}
}

// knownVersion is v when the SDK speaks it, else words that say it is not.
func knownVersion(v string) string {
	if slices.Contains(mcp.SupportedProtocolVersions(), v) {
		return v
	}
	return "(a version gate does not speak)"
}
