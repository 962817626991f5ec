package mcpgw

// Shutdown ends every forwarded call in flight now, each with a JSON-RPC
// error that says gate is shutting down, and answers every later call so:
// a client waiting on an upstream is answered rather than cut off. It
// leaves the sessions open, so that those answers can be written;
// CloseSessionsContext does the same, then closes them once the answers
// are out. The end of Run's context does it too, before the upstreams are
// closed. It may be called more than once.
func (g *Gateway) Shutdown() {
	t := &g.clients
	t.mu.Lock()
	t.closing = true
	t.mu.Unlock()
	g.parked.endAll(errShuttingDown)
	for ss := range g.server.Sessions() {
		for _, cancel := range g.client(ss).cancels() {
			cancel(errShuttingDown)
		}
	}
}
