package mcpgw

// UpstreamCheck is what the gateway knows of one upstream now, as
// gatectl mcp check reports it.
type UpstreamCheck struct {
	// State is StateConnecting, StateReady or StateDown; "" when the
	// gateway runs no upstream of that name.
	State string
	// Reason is why its latest session failed, as the gateway logs it
	// (its credentials taken out) but without the retry the gateway
	// schedules; kept while it connects again, "" once it is ready.
	Reason string
	// Tools counts the tools of its latest listing that the gateway can
	// offer; Invalid those it never can (a definition it refuses), which
	// its log names.
	Tools, Invalid int
	// Over: it lists more tools than the gateway keeps of one server.
	Over bool
}

// CheckUpstream is what the gateway knows of the upstream called server.
func (g *Gateway) CheckUpstream(server string) UpstreamCheck {
	g.upsMu.Lock()
	u := g.ups[server]
	g.upsMu.Unlock()
	if u == nil {
		return UpstreamCheck{}
	}
	u.mu.Lock()
	state, cause, tools, over := u.state, u.cause, u.tools, u.over
	u.mu.Unlock()
	c := UpstreamCheck{State: state, Reason: cause, Over: over}
	if state != StateReady {
		return c
	}
	for _, lt := range tools {
		if lt.tool == nil {
			c.Invalid++
		} else {
			c.Tools++
		}
	}
	return c
}
