package mcpgw

import (
	"context"
	"maps"
	"slices"
)

// Props is props, for the tests of package mcpgw_test.
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

// What follows is the gateway's state as the tests look at it: no program
// that embeds the gateway calls it, so it is no part of the API.

// Offered returns the names of the tools offered now, sorted.
func (g *Gateway) Offered() []string {
	g.mu.Lock()
	defer g.mu.Unlock()
	return slices.Sorted(maps.Keys(g.offered))
}

// Hidden returns the tools known but not offered now, each with why.
func (g *Gateway) Hidden() map[string]string {
	g.mu.Lock()
	defer g.mu.Unlock()
	out := make(map[string]string, len(g.hidden))
	for name, h := range g.hidden {
		out[name] = h.reason
	}
	return out
}

// Changes returns how many times the offered set has changed; each change
// sent one notifications/tools/list_changed to the sessions open then.
func (g *Gateway) Changes() uint64 {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.changes
}

// Upstream is one upstream's state, as Upstreams reports it.
type Upstream struct {
	Server string `json:"server"`
	State  string `json:"state"`
	Error  string `json:"error,omitempty"`
	Tools  int    `json:"tools"`
	// Truncated says the upstream lists more tools than the gateway
	// keeps of one server (Config.WithMaxTools, WithMaxListingBytes):
	// those past it are not offered, and gate stops reading its list
	// there.
	Truncated bool `json:"truncated,omitempty"`
	// Listings counts the tool listings made of the upstream: one per
	// session, and one per burst of its list_changed notifications.
	Listings uint64 `json:"listings"`
	// Breaker is the state of its breaker: BreakerClosed, BreakerOpen
	// (its tools are hidden: its calls kept failing) or BreakerHalfOpen.
	Breaker string `json:"breaker"`
}

// Upstreams returns every upstream's state, sorted by server.
func (g *Gateway) Upstreams() []Upstream {
	g.upsMu.Lock()
	ups := slices.Collect(maps.Values(g.ups))
	g.upsMu.Unlock()
	out := make([]Upstream, 0, len(ups))
	for _, u := range ups {
		state, lastErr, tools, over := u.snapshot()
		u.mu.Lock()
		lists := u.lists
		u.mu.Unlock()
		out = append(out, Upstream{Server: u.name, State: state, Error: lastErr, Tools: len(tools), Truncated: over, Listings: lists, Breaker: u.breaker.current()})
	}
	slices.SortFunc(out, func(a, b Upstream) int {
		if a.Server < b.Server {
			return -1
		}
		if a.Server > b.Server {
			return 1
		}
		return 0
	})
	return out
}

// ResourceChanges and PromptChanges return how many times the offered
// resources (with templates) and prompts have changed; each change sent
// one list_changed of its kind to the sessions open then.
func (g *Gateway) ResourceChanges() uint64 {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.feats.resChanges
}

// PromptChanges: see ResourceChanges.
func (g *Gateway) PromptChanges() uint64 {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.feats.promptChanges
}

// HiddenFeatures returns the resources (by URI) and prompts (by prefixed
// name) known but not offered now, each with why.
func (g *Gateway) HiddenFeatures() (resources, prompts map[string]string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	resources, prompts = map[string]string{}, map[string]string{}
	for k, h := range g.feats.hiddenResources {
		resources[k] = h.reason
	}
	for _, t := range g.feats.hiddenTemplates {
		if _, had := resources[t.uriTemplate]; !had {
			resources[t.uriTemplate] = t.why.reason
		}
	}
	for k, h := range g.feats.hiddenPrompts {
		prompts[k] = h.reason
	}
	return resources, prompts
}

// Subscribed returns, for each upstream resource URI with subscribers
// (or whose unsubscribe is being sent), its server and how many client
// sessions are subscribed to it.
func (g *Gateway) Subscribed() map[string]Subscription {
	s := &g.subs
	s.mu.Lock()
	out := make(map[string]Subscription, len(s.byURI))
	for uri, e := range s.byURI {
		out[uri] = Subscription{Server: e.server, Sessions: len(e.sessions)}
	}
	s.mu.Unlock()
	return out
}

// Subscription is the client sessions subscribed to one upstream
// resource, as Subscribed reports them.
type Subscription struct {
	Server   string `json:"server"`
	Sessions int    `json:"sessions"`
}

// InFlight returns how many forwarded calls are being served now.
func (g *Gateway) InFlight() int {
	g.clients.mu.Lock()
	defer g.clients.mu.Unlock()
	n := 0
	for _, cs := range g.clients.sessions {
		cs.mu.Lock()
		n += len(cs.calls)
		cs.mu.Unlock()
	}
	return n
}

// CloseSessions is CloseSessionsContext bounded by the write timeout, for
// http.Server.RegisterOnShutdown.
func (g *Gateway) CloseSessions() {
	ctx, cancel := context.WithTimeout(context.Background(), g.cfg.writeTimeout)
	defer cancel()
	_ = g.CloseSessionsContext(ctx)
}

// TiedStreams counts the event streams of server name's calls whose
// requests are tied to their call (uplink.Ties).
func (g *Gateway) TiedStreams(name string) int {
	g.upsMu.Lock()
	u := g.ups[name]
	g.upsMu.Unlock()
	if u == nil {
		return 0
	}
	return u.ties.Open()
}
