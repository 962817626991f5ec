package mcpgw

import (
	"context"
	"time"

	"github.com/gate-dev/gate/internal/manifest"
	"github.com/gate-dev/gate/runtime"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// maxListTTL bounds the ttlMs of a list that nothing gate schedules will
// change (no probe, no breaker cool-down, no reconnect): such a list
// changes only on an event gate pushes (list_changed), and the bound
// limits how long a client that missed one keeps a stale list.
const maxListTTL = 5 * time.Minute

// cacheFieldsSince is the first protocol version that defines ttlMs and
// cacheScope (SEP-2549). The SDK writes both fields at every version;
// to a client of an earlier one gate writes them at their defaults (0,
// "public"), which mean what their absence means.
const cacheFieldsSince = "2026-07-28"

// freshness is what bounds how long the lists gate answers stay as they
// are: the soonest gate itself looks again at what they were computed
// from. The offered set changes only when a server's or a tool rule's
// probe answers differently (probed at its NextProbe at the earliest,
// which has the TTL, the retry interval and a hold-down in it), when a
// breaker's cool-down ends, when an upstream reconnects, and on events
// gate pushes (an upstream's list_changed, a reload, a call that trips a
// breaker), which a cached list learns of from notifications/*/list_changed.
type freshness struct {
	// names are the server registry's entries the set depends on: each
	// upstream server, and its tool rules that have a probe.
	names []string
	// probeDue is the soonest NextProbe of names, on the registry's
	// clock; zero when none has a probe. unknown is set when one has a
	// probe and no NextProbe (a probe under way, no answer yet).
	probeDue time.Time
	unknown  bool
	// wallDue is the soonest breaker cool-down end or upstream reconnect,
	// on the wall clock (their clock); zero when none.
	wallDue time.Time
	// connecting is set while an upstream is connecting: its tools may
	// come at any moment.
	connecting bool
	// seq tells one computation's freshness from another's.
	seq uint64
}

// freshnessOf is the freshness of the set computed from status and
// served (compute's).
func freshnessOf(served []servedServer, status map[string]runtime.Status) freshness {
	var f freshness
	for _, sv := range served {
		f.names = append(f.names, sv.s.Name)
		for _, r := range sv.s.Upstream.Tools {
			if rn := manifest.UpstreamRuleName(sv.s.Name, r.Rule()); hasStatus(status, rn) {
				f.names = append(f.names, rn)
			}
		}
		state, _, _, _ := sv.u.snapshot()
		switch state {
		case StateConnecting:
			f.connecting = true
		case StateDown:
			f.wallDue = soonest(f.wallDue, sv.u.retryTime())
		}
		f.wallDue = soonest(f.wallDue, sv.u.breaker.changesAt())
	}
	f.probeDue, f.unknown = probeDue(f.names, status)
	return f
}

func hasStatus(status map[string]runtime.Status, name string) bool {
	_, ok := status[name]
	return ok
}

// probeDue is the soonest NextProbe of names' statuses, and whether one
// with a probe has none.
func probeDue(names []string, status map[string]runtime.Status) (due time.Time, unknown bool) {
	for _, n := range names {
		st, ok := status[n]
		switch {
		case !ok || !st.HasProbe:
		case st.NextProbe.IsZero():
			unknown = true
		default:
			due = soonest(due, st.NextProbe)
		}
	}
	return due, unknown
}

// soonest is the earlier of a and b, a zero time being none.
func soonest(a, b time.Time) time.Time {
	if a.IsZero() || !b.IsZero() && b.Before(a) {
		return b
	}
	return a
}

// listTTL is the ttlMs of a list gate answers now: the time until the
// soonest look of the freshness of the last computation, rounded down
// to the millisecond; 0 when gate cannot say (an upstream connecting, a
// probe under way). Once that look has passed (a probe answered the same,
// which computes nothing), the probes' statuses are read again: a read of
// the servers' cached answers (no waiting, never a probe), as many as the
// manifest has servers and rules, not tools.
func (g *Gateway) listTTL() time.Duration {
	g.mu.Lock()
	f := g.fresh
	g.mu.Unlock()
	if f.connecting {
		return 0
	}
	ttl := maxListTTL
	if f.unknown || !f.probeDue.IsZero() {
		// Only a list that depends on probes needs the registry's clock.
		reg := g.svc.Gate().Servers()
		now := reg.Now()
		if f.unknown || !now.Before(f.probeDue) {
			f.probeDue, f.unknown = g.rereadProbes(reg, f.names)
			g.mu.Lock()
			if g.fresh.seq == f.seq {
				g.fresh = f
			}
			g.mu.Unlock()
		}
		if f.unknown {
			return 0
		}
		if !f.probeDue.IsZero() {
			ttl = min(ttl, f.probeDue.Sub(now))
		}
	}
	if !f.wallDue.IsZero() {
		ttl = min(ttl, time.Until(f.wallDue))
	}
	return max(ttl, 0).Truncate(time.Millisecond)
}

// rereadProbes is probeDue of names as the registry answers now, from its
// cache: the read's context is done before it starts, so that a probe the
// read would start (an entry with no answer yet) is not waited for and
// shows as unknown.
func (g *Gateway) rereadProbes(reg *runtime.Registry, names []string) (time.Time, bool) {
	if len(names) == 0 {
		return time.Time{}, false // Status of no names is of every entry
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	sts, err := reg.Status(ctx, names...)
	if err != nil {
		return time.Time{}, true // a reload under way: compute follows
	}
	status := make(map[string]runtime.Status, len(sts))
	for _, st := range sts {
		status[st.Name] = st
	}
	return probeDue(names, status)
}

// setCacheable writes the ttlMs and cacheScope of a list result to req's
// client: ttl, "public" (every list gate answers is the same for every
// client: computed once for all sessions, from upstreams gate reaches
// with its own credentials and the union of all sessions' roots), at the
// versions that define them; 0 and "public" before.
func setCacheable(req mcp.Request, c *mcp.Cacheable, ttl time.Duration) {
	c.CacheScope = "public"
	c.TTLMs = 0
	if definesCacheFields(req) {
		c.TTLMs = int(ttl / time.Millisecond)
	}
}

// definesCacheFields reports whether req's session speaks a protocol
// version that defines ttlMs and cacheScope.
func definesCacheFields(req mcp.Request) bool {
	ss, ok := req.GetSession().(*mcp.ServerSession)
	if !ok || ss == nil {
		return false
	}
	p := ss.InitializeParams()
	return p != nil && p.ProtocolVersion >= cacheFieldsSince
}

// featuresTTL is the ttlMs of the resources, templates and prompts lists:
// listTTL, as they come from the same servers; 0 while the manifest has
// skills, whose resources come and go with the tools registry's probes,
// which gate would have to walk (thousands of tools) to bound.
func (g *Gateway) featuresTTL() time.Duration {
	g.mu.Lock()
	skills := g.skills.on
	g.mu.Unlock()
	if skills {
		return 0
	}
	return g.listTTL()
}

// forwardedCacheable settles the ttlMs and cacheScope of an upstream's
// answer gate forwards (resources/read): the upstream's scope, "public"
// when it wrote none (absent means "public", and the field is required on
// the wire), "private" when it wrote one MCP does not define (the scope
// that lets only the requesting user's client keep it); its ttlMs, but no
// longer than the list it was read from stays as it is. Before the
// versions that define them, 0 and the scope.
func forwardedCacheable(req mcp.Request, c *mcp.Cacheable, ttl time.Duration) {
	switch c.CacheScope {
	case "public", "private":
	case "":
		c.CacheScope = "public"
	default:
		c.CacheScope = "private"
	}
	if !definesCacheFields(req) {
		c.TTLMs = 0
		return
	}
	c.TTLMs = max(min(c.TTLMs, int(ttl/time.Millisecond)), 0)
}
