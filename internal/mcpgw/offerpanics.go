package mcpgw

import (
	"fmt"

	"github.com/gate-dev/gate/internal/manifest"
	"github.com/gate-dev/gate/runtime"
)

// A panic while gate folds one server's listing into the offered sets
// (its tools in compute, its resources, templates and prompts in
// computeFeatures) drops that server, never the computation: what it had
// added is taken back, everything of its is hidden with why, its session
// is ended and the panic logged (panics.go), and the other servers are
// offered as they would have been. The same bug on the same listing
// panics again at the next computation, so the server stays hidden, its
// session failing and retried with backoff, until its listing changes.

// toolWrites is the names offerServer added to the offered, hidden and
// owner maps for one server, to take back if it panics. One is kept for
// a whole computation, its slices reused from server to server.
type toolWrites struct{ offered, hidden, owner []string }

// offerServerRecovering is offerServer, with a panic made the server's
// failure: it returns the reason its tools are hidden for then.
func (g *Gateway) offerServerRecovering(s manifest.Server, u *upstream, status map[string]runtime.Status, prev, offered map[string]*offer, hidden map[string]hiddenTool, owner map[string]string, w *toolWrites) (down hiddenTool) {
	*w = toolWrites{w.offered[:0], w.hidden[:0], w.owner[:0]}
	defer func() {
		v := recover()
		if v == nil {
			return
		}
		for _, n := range w.offered {
			delete(offered, n)
		}
		for _, n := range w.hidden {
			delete(hidden, n)
		}
		for _, n := range w.owner {
			delete(owner, n)
		}
		// Its pins are judged again next time, from the verdicts of the
		// last computation that finished (pinEnd keeps those).
		delete(g.pins.next, s.Name)
		down = u.dropForPanic("the tools of a listing", v)
		hideTools(s, u, down, offered, hidden, owner)
	}()
	return g.offerServer(s, u, status, prev, offered, hidden, owner, w)
}

// hideTools hides every tool of the upstream's listing for why, each name
// it can own (as offerServer would, for a server that is down).
func hideTools(s manifest.Server, u *upstream, why hiddenTool, offered map[string]*offer, hidden map[string]hiddenTool, owner map[string]string) {
	_, _, tools, _ := u.snapshot()
	prefix := prefixOf(s.Name, s.Upstream)
	for _, lt := range tools {
		if lt.name == "" {
			continue
		}
		name := prefix + lt.name
		if _, taken := owner[name]; !taken {
			owner[name] = s.Name
		}
		if _, on := offered[name]; on {
			continue
		}
		if _, had := hidden[name]; !had {
			hidden[name] = why
		}
	}
}

// dropForPanic ends the upstream's session for a panic recovered while
// gate offered what of its, and is why all of it is hidden.
func (u *upstream) dropForPanic(what string, v any) hiddenTool {
	err := u.panicked(what, v)
	u.mu.Lock()
	gd := u.guard
	u.mu.Unlock()
	if gd != nil {
		gd.Fail(err)
	}
	return hiddenTool{runtime.CodeUpstreamDown, fmt.Sprintf("server %s: %v", u.name, err)}
}

// addServerRecovering is addServer, with a panic made the server's
// failure: it returns why all of the server is to be hidden, and false,
// and f is then part made, to be made again (computeFeatures).
func (f *featureSet) addServerRecovering(g *Gateway, order int, sv servedServer, resOwner, tmplOwner, promptOwner map[string]string) (why hiddenTool, ok bool) {
	defer func() {
		if v := recover(); v != nil {
			why, ok = sv.u.dropForPanic("the resources, templates and prompts of a listing", v), false
		}
	}()
	f.addServer(g, order, sv, resOwner, tmplOwner, promptOwner)
	return hiddenTool{}, true
}

// hideServer hides every resource, template and prompt of the server's
// listing for why, each URI, URI template and name it can own, as
// addServer does for a server that is down, but without looking into any
// of them: it is what gate offers of a server whose listing made addServer
// panic. Its templates are not matched against (routes): a URI in their
// space is read from the next server that has it, if any, as if it had
// no templates.
func (f *featureSet) hideServer(order int, sv servedServer, why hiddenTool, resOwner, tmplOwner, promptOwner map[string]string) {
	u, name := sv.u, sv.s.Name
	u.mu.Lock()
	feats := u.feats
	u.mu.Unlock()
	for _, lr := range feats.resources {
		if lr.uri == "" || resOwner[lr.uri] != "" {
			continue
		}
		resOwner[lr.uri] = name
		if _, on := f.resources[lr.uri]; on {
			continue
		}
		if _, had := f.hiddenResources[lr.uri]; !had {
			f.hiddenResources[lr.uri] = why
			f.hiddenResOrder[lr.uri] = order
		}
	}
	rt := featureRoute{up: u, order: order}
	for _, lt := range feats.templates {
		if lt.template == "" {
			continue
		}
		t := &templateOffer{featureRoute: rt, uriTemplate: lt.template, why: why}
		if tmplOwner[lt.template] == "" {
			tmplOwner[lt.template] = name
		}
		f.hiddenTemplates = append(f.hiddenTemplates, t)
	}
	prefix := prefixOf(name, sv.s.Upstream)
	for _, lp := range feats.prompts {
		if lp.name == "" {
			continue
		}
		pname := prefix + lp.name
		if promptOwner[pname] == "" {
			promptOwner[pname] = name
		}
		if _, on := f.prompts[pname]; on {
			continue
		}
		if _, had := f.hiddenPrompts[pname]; !had {
			f.hiddenPrompts[pname] = why
		}
	}
}
