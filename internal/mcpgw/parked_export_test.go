package mcpgw

// ParkedHeld is how many calls hold a parked slot now.
func (g *Gateway) ParkedHeld() int { return g.parked.Held() }

// SetParkedCaps lowers the caps on parked calls, in all and of one
// upstream, until the func returned restores them.
func SetParkedCaps(all, perUpstream int) (restore func()) {
	was, wasPer := maxParkedCalls, maxParkedPerUpstream
	maxParkedCalls, maxParkedPerUpstream = all, perUpstream
	return func() { maxParkedCalls, maxParkedPerUpstream = was, wasPer }
}
