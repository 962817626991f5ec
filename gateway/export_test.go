package gateway

// Props is props, for the tests of package gateway_test.
var Props = props

// StandaloneStreams counts the standalone (GET) streams open on /mcp.
func (g *Gateway) StandaloneStreams() int {
	g.clients.mu.Lock()
	defer g.clients.mu.Unlock()
	n := 0
	for _, cs := range g.clients.sessions {
		cs.mu.Lock()
		for w := range cs.writers {
			if !w.request {
				n++
			}
		}
		cs.mu.Unlock()
	}
	return n
}

// OfferOf is the offer of a tool offered now (nil when it is not), as an
// identity: the same value from two looks is the same offer, not a copy.
func (g *Gateway) OfferOf(name string) any {
	g.mu.Lock()
	defer g.mu.Unlock()
	if o := g.offered[name]; o != nil {
		return o
	}
	return nil
}

// ReachesGate is reachesGate, for the flow cap's differential fuzz test.
var ReachesGate = reachesGate

// Handles reports whether gate acts on notifications of method.
func Handles(method string) bool {
	_, ok := handledNotifications[method]
	return ok
}

// SetUpstreamDataHook has hook called before gate handles what an
// upstream sent (panics.go), until the test ends.
func SetUpstreamDataHook(t interface{ Cleanup(func()) }, hook func(server, what string)) {
	testHookUpstreamData.Store(&hook)
	t.Cleanup(func() { testHookUpstreamData.Store(nil) })
}

// SetMatchingHook has hook called before a URI is matched against the
// resource templates, until the test ends.
func SetMatchingHook(t interface{ Cleanup(func()) }, hook func()) {
	testHookMatching.Store(&hook)
	t.Cleanup(func() { testHookMatching.Store(nil) })
}
