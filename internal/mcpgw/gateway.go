package mcpgw

import (
	"context"
	"fmt"
	"github.com/gate-dev/gate/internal/hooks"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gate-dev/gate/internal/logq"
	"github.com/gate-dev/gate/internal/manifest"
	"github.com/gate-dev/gate/runtime"
)

// statusTimeout bounds the registry reads of one computation of the
// offered set. They serve cached answers once the service has probed; the
// bound matters only before its first round.
const statusTimeout = 2 * time.Second

// Gateway is gate's MCP server over a runtime.Service (see the package
// documentation). Make one with New, start Run, and serve Server() over
// any MCP transport, or Handler() over streamable HTTP.
type Gateway struct {
	// sdkMethods is the SDK server's handling of a method, beneath every
	// middleware of gate's.
	sdkMethods mcp.MethodHandler
	svc        *runtime.Service
	cfg        Config
	server     *mcp.Server
	metrics    *metrics
	logq       *logq.Queue // nil: no log

	// parked is the calls of 2026-07-28 clients waiting for their input
	// (parked.go).
	parked parkedCalls

	// clients is the state of the client sessions (sessions.go).
	clients        clientTable
	sessionMetrics *sessionMetrics
	// bodies are the /mcp request bodies being read (body.go).
	bodies *requestBodies
	// logs is the log level asked of the upstreams (logging.go).
	logs logLevelState
	// roots is the union of the client sessions' roots (roots.go).
	roots rootsState

	// kick asks Run to compute the offered set again; a send never
	// blocks, and many sends before Run looks make one computation.
	kick chan struct{}

	// bursting counts the changes of the SDK's tool set under way, and
	// heldListChanged is set when the SDK's debounce timer fired in the
	// middle of one (see applyToSDK).
	bursting        atomic.Int32
	heldListChanged atomic.Bool
	// listChanged holds the tools list_changed notifications back while
	// Config.WithListChangedInterval asks for it (listchanged.go).
	listChanged listChangedSpacer

	// background ends when Run does (stopBackground); refreshes counts
	// the probes of servers whose breaker opened, which Run waits for.
	background     context.Context
	stopBackground context.CancelFunc
	refreshes      sync.WaitGroup

	// upsMu guards ups, which Run alone changes.
	upsMu sync.Mutex
	ups   map[string]*upstream
	stops sync.WaitGroup // upstreams being stopped

	mu      sync.Mutex // guards what follows; never held across I/O
	offered map[string]*offer
	listed  []*mcp.Tool           // offered's tools, sorted by name: what tools/list answers
	hidden  map[string]hiddenTool // prefixed name -> why it is not offered
	// changes counts the computations that changed the offered set, each
	// of which sends one list_changed.
	changes uint64
	skills  skillState
	// served is the servers of the last computation, in manifest order,
	// each with why it is hidden whole, if it is; feats is what they and
	// the skills offer beside tools (featureoffer.go).
	served []servedServer
	feats  featureSet
	// subs is the client sessions' subscriptions to upstream resources
	// (subscriptions.go).
	subs subscriptions
	// whole is closed while no upstream is making its first connection
	// (firstlook.go); firstWake, Run's alone, is when Run looks again.
	whole     chan struct{}
	firstWake time.Time

	// pins is the lock file of the pinned servers' tools (pin.go).
	pins *pinState
	// fresh bounds how long the lists stay as they are (freshness.go).
	fresh freshness
}

// offer is one tool the gateway offers, and where calls to it go.
type offer struct {
	up       *upstream
	upstream string    // the tool's name at the upstream
	from     *mcp.Tool // the checked tool of the upstream's listing this was made of
	tool     *mcp.Tool
	def      string // what the client sees, to tell a change
	timeout  time.Duration
	breaker  breakerPolicy
}

// New returns a gateway over svc. It connects nothing until Run.
func New(svc *runtime.Service, cfg Config) *Gateway {
	g := &Gateway{
		svc: svc, cfg: cfg, kick: make(chan struct{}, 1),
		ups: map[string]*upstream{}, offered: map[string]*offer{}, hidden: map[string]hiddenTool{},
		whole: make(chan struct{}),
	}
	g.background, g.stopBackground = context.WithCancel(context.Background())
	g.metrics = newMetrics(cfg.metrics)
	g.pins = newPinState(cfg.metrics)
	if cfg.log != nil {
		g.logq = logq.New(cfg.log, strings.TrimSuffix(logPrefix, ": "))
	}
	g.server = mcp.NewServer(&mcp.Implementation{Name: "gate", Title: "gate MCP gateway", Version: cfg.version}, &mcp.ServerOptions{
		Instructions: "gate offers the tools of the MCP servers it fronts that can run now, and their resources and prompts; the lists change as they come and go (notifications/tools/list_changed, resources/list_changed, prompts/list_changed).",
		Capabilities: &mcp.ServerCapabilities{
			Tools:     &mcp.ToolCapabilities{ListChanged: true},
			Resources: &mcp.ResourceCapabilities{ListChanged: true, Subscribe: true},
			Prompts:   &mcp.PromptCapabilities{ListChanged: true},
			// Answered by serveFeatures, from the upstreams that own the
			// prompt or resource.
			Completions: &mcp.CompletionCapabilities{},
			//lint:ignore SA1019 MCP deprecates logging as of 2026-07-28 (SEP-2577); clients and servers of the earlier versions gate speaks use it
			Logging: &mcp.LoggingCapabilities{},
		},
		SubscribeHandler:   g.subscribe,
		UnsubscribeHandler: g.unsubscribe,
		InitializedHandler: g.clientInitialized,
		//lint:ignore SA1019 MCP deprecates roots as of 2026-07-28 (SEP-2577); clients and servers of the earlier versions gate speaks use it
		RootsListChangedHandler: g.clientRootsChanged,
	})
	g.addServerMiddleware()
	g.sessionMetrics = newSessionMetrics(cfg.metrics, g)
	g.bodies = newRequestBodies(cfg, cfg.metrics)
	return g
}

// Server returns the MCP server, to run over any transport
// (Server().Run(ctx, &mcp.StdioTransport{}) for stdio).
func (g *Gateway) Server() *mcp.Server { return g.server }

func (g *Gateway) poke() {
	select {
	case g.kick <- struct{}{}:
	default:
	}
}

// Run connects the manifest's upstreams and keeps the offered tools and
// skills current until ctx is done: on every event of the service (a flip,
// a reload) and every change of an upstream. It returns ctx's error once
// every upstream is closed, all at once: each forwarded call in flight is
// answered first (see Shutdown), then a stdio upstream gets its stdin
// closed, then SIGTERM to its process group after the stop grace (2 s),
// then SIGKILL after as long again; Run returns within twice the grace
// and a second, whatever the upstreams do.
func (g *Gateway) Run(ctx context.Context) error {
	defer g.svc.Subscribe(func(runtime.Event) { g.poke() })()
	go g.watchLock(ctx)
	for {
		g.syncUpstreams(ctx)
		pending, until := g.firstPending(time.Now())
		g.compute(ctx)
		g.syncSkills(ctx)
		g.settleFirstLook(pending, until)
		select {
		case <-ctx.Done():
			g.Shutdown()
			g.upsMu.Lock()
			for name, u := range g.ups {
				g.stopUpstream(u)
				delete(g.ups, name)
			}
			g.upsMu.Unlock()
			g.stops.Wait()
			g.stopBackground()
			g.refreshes.Wait()
			return ctx.Err()
		case <-g.kick:
		}
	}
}

// syncUpstreams starts the upstreams the serving manifest names and stops
// those it no longer names, or names with another command, environment or
// URL. Others keep their session through a reload.
func (g *Gateway) syncUpstreams(ctx context.Context) {
	m := hooks.Manifest(g.svc.Gate())
	want := map[string]manifest.Upstream{}
	dir := ""
	if m != nil {
		dir = filepath.Dir(m.Path)
		for _, s := range m.Servers {
			if s.Upstream != nil {
				want[s.Name] = *s.Upstream
			}
		}
	}
	g.upsMu.Lock()
	defer g.upsMu.Unlock()
	for name, u := range g.ups {
		if w, ok := want[name]; !ok || dir+"\x00"+connKey(&w) != u.key {
			g.stopUpstream(u)
			delete(g.ups, name)
		}
	}
	for name, w := range want {
		if _, ok := g.ups[name]; ok {
			continue
		}
		u := newUpstream(g, name, dir, w)
		uctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
		u.stop = cancel
		g.ups[name] = u
		g.upstreamState(u, StateConnecting, "")
		g.metrics.breakerState(name, BreakerClosed)
		g.holdFirstLook()
		go u.run(uctx)
	}
}

// stopUpstream ends u's session in the background (a stdio server may take
// seconds to exit); Run waits for it before it returns.
func (g *Gateway) stopUpstream(u *upstream) {
	g.stops.Add(1)
	u.stop()
	go func() {
		defer g.stops.Done()
		<-u.done
		g.metrics.forget(u.name)
	}()
}

// compute works out which tools are offered now and makes it the set
// tools/list and tools/call see, at once and whole (serveOffered), then
// applies the change to the SDK's server in one burst, which the SDK
// sends as one notifications/tools/list_changed to every session.
func (g *Gateway) compute(ctx context.Context) {
	gate := g.svc.Gate()
	m := hooks.Manifest(gate)
	sctx, cancel := context.WithTimeout(ctx, statusTimeout)
	sts, _ := gate.Servers().Status(sctx)
	cancel()
	status := make(map[string]runtime.Status, len(sts))
	for _, st := range sts {
		status[st.Name] = st
	}
	offered := map[string]*offer{}
	hidden := map[string]hiddenTool{}
	owner := map[string]string{} // prefixed name -> server that took it
	var served []servedServer
	var writes toolWrites
	g.mu.Lock()
	prev := g.offered // never changed, only replaced (below)
	g.mu.Unlock()
	g.pinBegin(m)
	if m != nil {
		for _, s := range m.Servers {
			if s.Upstream == nil {
				continue
			}
			g.upsMu.Lock()
			u := g.ups[s.Name]
			g.upsMu.Unlock()
			if u == nil {
				continue
			}
			down := g.offerServerRecovering(s, u, status, prev, offered, hidden, owner, &writes)
			served = append(served, servedServer{s: s, u: u, down: down})
		}
	}
	g.pinEnd(m)

	fresh := freshnessOf(served, status)
	g.mu.Lock()
	g.served = served
	fresh.seq = g.fresh.seq + 1
	g.fresh = fresh
	var removed []string
	var added []*offer
	for name := range g.offered {
		if _, ok := offered[name]; !ok {
			removed = append(removed, name)
		}
	}
	for name, o := range offered {
		if old, ok := g.offered[name]; !ok || old != o && (old.def != o.def || old.up != o.up || old.timeout != o.timeout) {
			added = append(added, o)
		}
	}
	changed := len(removed) > 0 || len(added) > 0
	g.offered, g.hidden = offered, hidden
	if changed {
		g.listed = sortedTools(offered)
		g.changes++
	}
	g.mu.Unlock()
	g.countServerTools(served, offered)
	if !changed {
		return
	}
	g.applyToSDK(removed, added)
	g.metrics.offered(len(offered), len(hidden))
}

// applyToSDK makes one change of the offered set in the SDK's tool set,
// from which the SDK sends list_changed 10 ms after its last call. The
// calls take microseconds each, so the change makes one notification;
// but a machine that keeps gate off the CPU for longer in the middle of
// them would have the SDK's timer fire there, and again after, and a
// client hear of one change two or three times (and list again each
// time). So a tools list_changed the SDK sends while a change is under
// way is held back (queueNotifications); once the change is made, if one
// was, one more call to the SDK (a tool no client ever sees, added and
// removed) makes sure a notification comes after it.
func (g *Gateway) applyToSDK(removed []string, added []*offer) {
	g.bursting.Add(1)
	slices.Sort(removed)
	if len(removed) > 0 {
		g.server.RemoveTools(removed...)
	}
	slices.SortFunc(added, func(a, b *offer) int { return strings.Compare(a.tool.Name, b.tool.Name) })
	for _, o := range added {
		g.server.AddTool(o.tool, g.forward(o))
	}
	if g.bursting.Add(-1) == 0 && g.heldListChanged.Swap(false) {
		g.server.AddTool(&mcp.Tool{Name: burstEnd, InputSchema: map[string]any{"type": "object"}}, nil)
		g.server.RemoveTools(burstEnd)
	}
}

// burstEnd is the name of the tool applyToSDK adds and removes at once to
// have the SDK send a held-back list_changed. Clients never see it: gate
// answers tools/list and tools/call itself, from its own set.
const burstEnd = "gate.internal.burst-end"

// sortedTools is the tools of offered, sorted by name.
func sortedTools(offered map[string]*offer) []*mcp.Tool {
	out := make([]*mcp.Tool, 0, len(offered))
	for _, o := range offered {
		out = append(out, o.tool)
	}
	slices.SortFunc(out, func(a, b *mcp.Tool) int { return strings.Compare(a.Name, b.Name) })
	return out
}

// offerServer decides each known tool of one upstream, and returns why the
// server is hidden whole, if it is. A tool offered before (in prev) from
// the same check of the same upstream's listing, on the same terms, keeps
// its offer: a computation allocates for the tools that changed, not for
// every tool of every upstream. w gets each name it adds to offered,
// hidden and owner (every one a name not there before), for
// offerServerRecovering to take them back.
func (g *Gateway) offerServer(s manifest.Server, u *upstream, status map[string]runtime.Status, prev, offered map[string]*offer, hidden map[string]hiddenTool, owner map[string]string, w *toolWrites) hiddenTool {
	state, lastErr, tools, _ := u.snapshot()
	prefix := prefixOf(s.Name, s.Upstream)
	timeout := g.cfg.callTimeout
	if s.Upstream.CallTimeout != nil {
		timeout = *s.Upstream.CallTimeout
	}
	policy := g.cfg.policyFor(s.Upstream.Breaker)
	st, known := status[s.Name]
	breakerWhy := g.breakerHides(u, policy, st, known, state == StateReady)
	var serverDown hiddenTool
	switch {
	case known && !st.Available():
		serverDown = hiddenTool{st.Code, fmt.Sprintf("server %s is unavailable: %s", s.Name, reasonOf(st))}
	case state != StateReady:
		why := fmt.Sprintf("server %s is %s", s.Name, state)
		if lastErr != "" {
			why += ": " + lastErr
		}
		serverDown = hiddenTool{runtime.CodeUpstreamDown, why}
	case breakerWhy != "":
		serverDown = hiddenTool{runtime.CodeBreakerOpen, breakerWhy}
	}
	// The first reason a name is hidden for is the one kept: the tool that
	// owns the name (manifest order) says why it is hidden, not a later
	// server's tool that wanted the same name.
	hide := func(name string, code runtime.Code, why string) {
		if _, on := offered[name]; !on {
			if _, had := hidden[name]; !had {
				hidden[name] = hiddenTool{code, why}
				w.hidden = append(w.hidden, name)
			}
		}
	}
	for _, lt := range tools {
		u.hookData("offer")
		if lt.name == "" {
			continue
		}
		name := prefix + lt.name
		if lt.invalid != "" {
			hide(name, runtime.CodeNotOffered, fmt.Sprintf("server %s's tool %s is malformed: %s", s.Name, lt.name, lt.invalid))
			continue
		}
		if len(name) > 128 {
			hide(name, runtime.CodeNotOffered, fmt.Sprintf("with the prefix %q its name has %d bytes, over MCP's 128", prefix, len(name)))
			continue
		}
		if other, taken := owner[name]; taken {
			hide(name, runtime.CodeNotOffered, fmt.Sprintf("the name is taken by a tool of server %s (set a prefix on one of them)", other))
			continue
		}
		owner[name] = s.Name
		w.owner = append(w.owner, name)
		why := serverDown
		if pinned := g.pinHides(s, lt, name); why.reason == "" {
			why = pinned
		}
		if why.reason == "" {
			if r := ruleFor(s.Upstream.Tools, lt.name); r != nil {
				rn := manifest.UpstreamRuleName(s.Name, r.Rule())
				if rst, ok := status[rn]; ok && !rst.Available() {
					why = hiddenTool{rst.Code, fmt.Sprintf("the probe of %s says unavailable: %s", rn, reasonOf(rst))}
				}
			}
		}
		if why.reason != "" {
			hide(name, why.code, why.reason)
			continue
		}
		if o := prev[name]; o != nil && o.from == lt.tool && o.up == u && o.upstream == lt.name && o.timeout == timeout && o.breaker == policy {
			offered[name] = o
			w.offered = append(w.offered, name)
			continue
		}
		t := *lt.tool
		t.Name = name
		offered[name] = &offer{up: u, upstream: lt.name, from: lt.tool, tool: &t, def: lt.def, timeout: timeout, breaker: policy}
		w.offered = append(w.offered, name)
	}
	return serverDown
}

func reasonOf(st runtime.Status) string {
	if st.Reason != "" {
		return st.Reason
	}
	return string(st.State)
}

// hiddenTool is why a tool is not offered: the stable code, and the
// reason in words.
type hiddenTool struct {
	code   runtime.Code
	reason string
}
