package tracing

import "context"

// Party is who a span is made for: one client session of the MCP
// gateway, the holders of the HTTP API's token, or the probe runner. Each
// party has its own share of the spans waiting to be exported (share.go),
// so one that makes spans faster than the collector takes them loses its
// own, not another's.
type Party struct {
	kind string // the drop metric's label: "client", "api", "probes", "other"
	id   string // which one of its kind; never exported
}

// The parties that are one of their kind.
var (
	// APIParty is every request to the HTTP API that passed the Host and
	// token checks: its holders share one token, so one party.
	APIParty = Party{kind: "api"}
	// ProbesParty is the probe runner: its runs are its spans.
	ProbesParty = Party{kind: "probes"}
	// otherParty is a span made with no party named.
	otherParty = Party{kind: "other"}
)

// ClientParty is the MCP client session whose Mcp-Session-Id is id. The
// requests that come with no session id (stdio's one client, MCP
// 2026-07-28's sessionless POSTs) are one party: nothing gate can trust
// tells their clients apart.
func ClientParty(id string) Party { return Party{kind: clientKind, id: id} }

// clientKind is the kind of every client session's party.
const clientKind = "client"

type partyKey struct{}

// WithParty returns ctx whose spans are made for p.
func WithParty(ctx context.Context, p Party) context.Context {
	return context.WithValue(ctx, partyKey{}, p)
}

// partyOf is the party ctx's spans are made for.
func partyOf(ctx context.Context) Party {
	if p, ok := ctx.Value(partyKey{}).(Party); ok {
		return p
	}
	return otherParty
}
