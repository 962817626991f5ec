package mcpgw

import "time"

// Defaults of the /mcp request-body budget (docs/MCP.md, "Limits");
// gateway's Default consts document each and why.
const (
	DefaultRequestBodyTimeout  = 10 * time.Second
	DefaultRequestBodiesPerCap = 16
)

// bodyLimits are the request-body budget's settings; 0 selects the
// default, resolved against the request cap when the Gateway is made.
type bodyLimits struct {
	total, share int
	timeout      time.Duration
}

// WithRequestBodyBudget is gateway.Config.WithRequestBodyBudget, documented there.
func (c Config) WithRequestBodyBudget(total, perPeer int) Config {
	c.bodies.total = max(total, 0)
	c.bodies.share = max(perPeer, 0)
	return c
}

// WithRequestBodyTimeout is gateway.Config.WithRequestBodyTimeout, documented there.
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
