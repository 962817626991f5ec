package mcpgw

import (
	"context"
	"fmt"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gate-dev/gate/internal/uplink"
)

// Subscriptions to upstream resources. gate subscribes at the upstream
// once per URI while at least one client session is subscribed, and
// unsubscribes when the last one unsubscribes or closes; a new session of
// the upstream is subscribed again to every URI that still has
// subscribers. The upstream's notifications/resources/updated of a URI
// gate subscribed to there go, through the SDK's record of who
// subscribed (which it keeps on the handlers' word), to the subscribed
// sessions' outboxes, where an update not yet written is not queued
// again: a session holds at most one per URI it subscribed to, and it
// subscribes to at most Config.WithMaxSubscriptions. An update of any
// other URI, or from another upstream, is dropped.

// maxSubscriptionURI bounds the URI of a subscription: a session holds
// WithMaxSubscriptions of them, gate and the SDK each keep them while it is
// open, and a resource's URI is far shorter.
const maxSubscriptionURI = 8 << 10

// subscriptions is every client session's subscriptions to upstream
// resources.
type subscriptions struct {
	mu        sync.Mutex
	byURI     map[string]*subEntry
	bySession map[*mcp.ServerSession]map[string]bool
}

// subEntry is the subscribers of one URI, and gate's subscription to it
// at its owner.
type subEntry struct {
	server   string                      // the owner's server name
	sessions map[*mcp.ServerSession]bool // guarded by subscriptions.mu
	// op is held across the owner's subscribe and unsubscribe of the
	// URI, so that they reach it in the order gate decides them.
	op sync.Mutex
	at *mcp.ClientSession // the upstream session it is subscribed on; nil: none
}

// subscribeUpstream subscribes a client session to an upstream's
// resource: the URI's owner (routeURI) must be an upstream that is
// offered now and declares resources.subscribe.
func (g *Gateway) subscribeUpstream(ctx context.Context, req *mcp.SubscribeRequest) error {
	uri, ss := req.Params.URI, req.Session
	// Before the URI is matched against the templates, its largest cost.
	if len(uri) > maxSubscriptionURI {
		return &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: fmt.Sprintf("gate: a subscription's URI is at most %d bytes; this one has %d", maxSubscriptionURI, len(uri))}
	}
	rt, _, hidden, found, err := g.routeURI(uri)
	if err == nil && (!found || hidden != nil) {
		// An upstream making its first connection may be about to offer it.
		g.awaitFirstLook(ctx, "resources/subscribe")
		rt, _, hidden, found, err = g.routeURI(uri)
	}
	switch {
	case err != nil:
		return err
	case !found:
		return resourceNotFound(uri)
	case hidden != nil:
		return featureNotOffered("resource", uri, *hidden)
	case rt.up == nil:
		return resourceNotFound(uri)
	}
	u := rt.up
	u.mu.Lock()
	can := u.feats.subscribe
	u.mu.Unlock()
	if !can {
		return &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: fmt.Sprintf("resource %s: server %s does not support subscriptions (its capabilities have no resources.subscribe)", quote(uri), u.name)}
	}
	s := &g.subs
	s.mu.Lock()
	mine := s.bySession[ss]
	if !mine[uri] && len(mine) >= g.cfg.maxSubscriptions {
		s.mu.Unlock()
		return &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: fmt.Sprintf("gate: this session has %d subscriptions, the gateway's cap; unsubscribe from one first", g.cfg.maxSubscriptions)}
	}
	if s.byURI == nil {
		s.byURI, s.bySession = map[string]*subEntry{}, map[*mcp.ServerSession]map[string]bool{}
	}
	if mine == nil {
		mine = map[string]bool{}
		s.bySession[ss] = mine
		// A session that closes leaves every subscription it has.
		go func() {
			_ = ss.Wait()
			g.leaveAll(ss)
		}()
	}
	e := s.byURI[uri]
	if e == nil {
		e = &subEntry{server: u.name, sessions: map[*mcp.ServerSession]bool{}}
		s.byURI[uri] = e
	}
	e.sessions[ss], mine[uri] = true, true
	s.mu.Unlock()

	e.op.Lock()
	defer e.op.Unlock()
	u.mu.Lock()
	cur := u.session
	u.mu.Unlock()
	if e.at != nil && e.at == cur {
		return nil
	}
	_, err = forwardTo(g, ctx, ss, rt, "resources/subscribe of "+quote(uri), func(ctx context.Context, cs *mcp.ClientSession) (struct{}, error) {
		return struct{}{}, cs.Subscribe(ctx, &mcp.SubscribeParams{URI: uri})
	})
	if err != nil {
		s.mu.Lock()
		s.forget(ss, uri)
		s.mu.Unlock()
		return err
	}
	e.at = cur
	return nil
}

// forget removes ss's subscription to uri from the table, and says
// whether it was the entry's last subscriber; the entry stays until its
// unsubscribe is sent (leaveLast).
func (s *subscriptions) forget(ss *mcp.ServerSession, uri string) (e *subEntry, last bool) {
	if mine := s.bySession[ss]; mine != nil {
		delete(mine, uri)
	}
	e = s.byURI[uri]
	if e == nil || !e.sessions[ss] {
		return nil, false
	}
	delete(e.sessions, ss)
	return e, len(e.sessions) == 0
}

// unsubscribe ends a client session's subscription; gate's own resources
// need nothing more than the SDK's record. The upstream's unsubscribe is
// sent whatever becomes of the request that ended it, within the
// server's call timeout: a subscriptions/listen ends by its cancellation,
// and its unsubscribes run with its context done.
func (g *Gateway) unsubscribe(ctx context.Context, req *mcp.UnsubscribeRequest) error {
	g.leave(context.WithoutCancel(ctx), req.Session, req.Params.URI)
	return nil
}

// leave takes ss off uri's subscribers and, when it was the last,
// unsubscribes at the upstream.
func (g *Gateway) leave(ctx context.Context, ss *mcp.ServerSession, uri string) {
	s := &g.subs
	s.mu.Lock()
	e, last := s.forget(ss, uri)
	s.mu.Unlock()
	if last {
		g.leaveLast(ctx, e, uri)
	}
}

// upstreamUnsubscribe unsubscribes at server's upstream, if the session
// the subscription was made on is still its session.
func (g *Gateway) upstreamUnsubscribe(ctx context.Context, server string, at *mcp.ClientSession, uri string) {
	g.upsMu.Lock()
	u := g.ups[server]
	g.upsMu.Unlock()
	if u == nil {
		return
	}
	u.mu.Lock()
	cur := u.session
	u.mu.Unlock()
	if cur != at {
		return // that session is gone, and its subscription with it
	}
	rt := featureRoute{up: u, timeout: g.cfg.callTimeout, policy: g.cfg.policyFor(nil)}
	g.mu.Lock()
	for _, sv := range g.served {
		if sv.u == u {
			if sv.s.Upstream.CallTimeout != nil {
				rt.timeout = *sv.s.Upstream.CallTimeout
			}
			rt.policy = g.cfg.policyFor(sv.s.Upstream.Breaker)
		}
	}
	g.mu.Unlock()
	_, err := forwardTo(g, ctx, nil, rt, "resources/unsubscribe of "+quote(uri), func(ctx context.Context, cs *mcp.ClientSession) (struct{}, error) {
		return struct{}{}, cs.Unsubscribe(ctx, &mcp.UnsubscribeParams{URI: uri})
	})
	u.mu.Lock()
	same := u.session == at
	u.mu.Unlock()
	if err != nil && same && g.background.Err() == nil {
		// Not when the session or gate is ending: the subscription
		// ends with them.
		g.logf("upstream %s: %v", server, err)
	}
}

// leaveAll takes a closed session off every URI it subscribed to.
func (g *Gateway) leaveAll(ss *mcp.ServerSession) {
	s := &g.subs
	s.mu.Lock()
	var uris []string
	for uri := range s.bySession[ss] {
		uris = append(uris, uri)
	}
	type left struct {
		e   *subEntry
		uri string
	}
	var lasts []left
	for _, uri := range uris {
		if e, last := s.forget(ss, uri); last {
			lasts = append(lasts, left{e, uri})
		}
	}
	delete(s.bySession, ss)
	s.mu.Unlock()
	for _, l := range lasts {
		g.leaveLast(g.background, l.e, l.uri)
	}
	for _, uri := range uris {
		g.sdkForget(ss, uri)
	}
}

// sdkForget has the SDK's server forget ss's subscription to uri, as an
// unsubscribe of ss's would: it forgets a closed session's subscriptions
// but keeps each URI it held, with no session, for the server's life, so
// that sessions that subscribe and close would grow it without bound.
func (g *Gateway) sdkForget(ss *mcp.ServerSession, uri string) {
	req := &mcp.UnsubscribeRequest{Session: ss, Params: &mcp.UnsubscribeParams{URI: uri}}
	if _, err := g.sdkMethods(g.background, "resources/unsubscribe", req); err != nil {
		g.logf("MCP session %s: forgetting its subscription: %v", shortID(ss.ID()), err)
	}
}

// leaveLast unsubscribes at the upstream once the last subscriber of uri
// has left, unless one came back meanwhile, and then forgets the entry.
func (g *Gateway) leaveLast(ctx context.Context, e *subEntry, uri string) {
	s := &g.subs
	e.op.Lock()
	defer e.op.Unlock()
	s.mu.Lock()
	still := len(e.sessions) == 0
	s.mu.Unlock()
	if still && e.at != nil {
		at := e.at
		e.at = nil
		g.upstreamUnsubscribe(ctx, e.server, at, uri)
	}
	s.mu.Lock()
	if len(e.sessions) == 0 && s.byURI[uri] == e {
		delete(s.byURI, uri)
	}
	s.mu.Unlock()
}

// resubscribe subscribes a new session of u to every URI of u's that
// still has subscribers: the upstream forgot them with its last session.
func (g *Gateway) resubscribe(ctx context.Context, u *upstream, cs *mcp.ClientSession) {
	s := &g.subs
	s.mu.Lock()
	var uris []string
	for uri, e := range s.byURI {
		if e.server == u.name && len(e.sessions) > 0 {
			uris = append(uris, uri)
		}
	}
	s.mu.Unlock()
	for _, uri := range uris {
		s.mu.Lock()
		e := s.byURI[uri]
		s.mu.Unlock()
		if e == nil {
			continue
		}
		e.op.Lock()
		s.mu.Lock()
		want := len(e.sessions) > 0
		s.mu.Unlock()
		if want && e.at != cs {
			rt := featureRoute{up: u, timeout: g.cfg.callTimeout, policy: g.cfg.policyFor(nil)}
			_, err := forwardTo(g, ctx, nil, rt, "resources/subscribe of "+quote(uri), func(ctx context.Context, c *mcp.ClientSession) (struct{}, error) {
				if c != cs {
					return struct{}{}, uplink.ErrSessionOver
				}
				return struct{}{}, c.Subscribe(ctx, &mcp.SubscribeParams{URI: uri})
			})
			if err == nil {
				e.at = cs
			} else if ctx.Err() == nil {
				g.logf("upstream %s: subscribing again: %v", u.name, err)
			}
		}
		e.op.Unlock()
	}
}

// resourceUpdated passes an upstream's notifications/resources/updated
// on to the sessions subscribed to the URI, if gate subscribed to it at
// this upstream.
func (u *upstream) resourceUpdated(_ context.Context, req *mcp.ResourceUpdatedNotificationRequest) {
	if req == nil || req.Params == nil {
		return
	}
	uri := req.Params.URI
	s := &u.gw.subs
	s.mu.Lock()
	e := s.byURI[uri]
	ok := e != nil && e.server == u.name && len(e.sessions) > 0
	s.mu.Unlock()
	if !ok {
		return
	}
	_ = u.gw.server.ResourceUpdated(context.Background(), &mcp.ResourceUpdatedNotificationParams{URI: uri})
}
