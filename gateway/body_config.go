package gateway

import "time"

// Defaults of the /mcp request-body budget (docs/MCP.md, "Limits").
const (
	// DefaultRequestBodyTimeout bounds reading one /mcp request body, from
	// its first byte asked to its last: a client that trickles or stalls
	// one is answered 408 and its connection closed. The server's own
	// read timeout may end it sooner.
	DefaultRequestBodyTimeout = 10 * time.Second
	// DefaultRequestBodiesPerCap is how many request caps
	// (WithMaxRequestBytes) the bodies being read may hold together by
	// default: 64 MiB at the default 4 MiB cap.
	DefaultRequestBodiesPerCap = 16
)

// bodyLimits are the request-body budget's settings; 0 selects the
// default, resolved against the request cap when the Gateway is made.
type bodyLimits struct {
	total, share int
	timeout      time.Duration
}

// WithRequestBodyBudget sets how many bytes the /mcp request bodies being
// read may hold at once, all clients together (total), and one peer
// (perPeer: the client's IP address, its /64 for IPv6). The bytes are
// counted as they are read, in the buffers that hold them, and given back
// when the request has been handled. A body that would take its peer past
// perPeer is refused with 429, one that would take all past total with
// 503, both with Retry-After; the other peers' bodies go on. 0 or less
// selects the defaults: total DefaultRequestBodiesPerCap request caps
// (64 MiB), perPeer a quarter of total (16 MiB, four bodies of the largest
// size at once). A perPeer below the request cap refuses the bodies that
// would pass it.
func (c Config) WithRequestBodyBudget(total, perPeer int) Config {
	c.bodies.total = max(total, 0)
	c.bodies.share = max(perPeer, 0)
	return c
}

// WithRequestBodyTimeout sets how long reading one /mcp request body may
// take; 0 or less selects DefaultRequestBodyTimeout.
func (c Config) WithRequestBodyTimeout(d time.Duration) Config {
	c.bodies.timeout = orDefault(d, DefaultRequestBodyTimeout)
	return c
}

// resolved fills the defaults in, against the request cap.
func (b bodyLimits) resolved(maxRequest int) bodyLimits {
	if b.total <= 0 {
		b.total = DefaultRequestBodiesPerCap * maxRequest
	}
	if b.share <= 0 {
		b.share = b.total / 4
	}
	b.share = min(b.share, b.total)
	if b.timeout <= 0 {
		b.timeout = DefaultRequestBodyTimeout
	}
	return b
}
