package mcpgw

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/gate-dev/gate/runtime"
)

// A read of a URI goes to the first server, in manifest order, that lists
// it or has a resource template whose space has it (route). So a later
// server's resource whose URI is in an earlier server's template is never
// read from the server that lists it: offered, it would be a resource
// whose read answers something else. It is hidden, with why, when the
// set is computed; the same matching, under the same bounds, decides
// both.
//
// A resource whose match runs past a read's bound (matchStepsPerServer,
// matchStepsPerURI) cannot be read either, and is hidden as not provably
// outside the earlier templates. So are a server's resources once the
// matching of its resources has taken shadowStepsPerServer steps in all:
// what this check costs a computation is bounded per server, whatever
// the servers list. The computation runs on Run's goroutine, under no
// lock a client's request takes.

// The verdicts of each server's resources are kept with the set (its
// shadowMemo) and used again while neither its resources checked nor the
// templates before it change: a computation made for another reason (a
// probe's flip, another server's listing) matches nothing again.

// shadowStepsPerServer bounds the steps of matching all of one server's
// resources against the templates of the servers before it.
const shadowStepsPerServer = matchStepsPerURI

// shadowed is a resource the check hides: its URI, its server's place,
// and why.
type shadowed struct {
	uri   string
	order int
	why   hiddenTool
}

// shadowMemo is the verdicts of one server's resources: what they were
// matched against (the templates before it, in order) and which URIs, in
// order, and why each is hidden ("" when it is not).
type shadowMemo struct {
	earlier []shadowTemplate
	uris    []string
	why     []hiddenTool
}

// shadowTemplate is what a verdict depends on of one earlier template:
// its matcher (the same one while its server's listing keeps it), and
// what a reason names.
type shadowTemplate struct {
	match    *uriMatcher
	server   string
	template string
}

// hideShadowed hides each offered resource of a server whose URI is in
// the space of a template of a server before it, or is not provably
// outside them; prev is the memos of the set before. It returns the
// server a panic was recovered on, if one was, with why
// (offerpanics.go); the set is then to be made again without that
// server.
func (f *featureSet) hideShadowed(prev map[*upstream]*shadowMemo) (failed int, why hiddenTool, ok bool) {
	if len(f.routes) == 0 {
		return 0, hiddenTool{}, true
	}
	f.shadows = map[*upstream]*shadowMemo{}
	first := f.routes[0].order
	var later []shadowed
	for uri, o := range f.resources {
		if o.up != nil && o.order > first {
			later = append(later, shadowed{uri: uri, order: o.order})
		}
	}
	// Server by server, each one's URIs in order: what the bound leaves
	// unmatched does not depend on a map's order.
	slices.SortFunc(later, func(a, b shadowed) int {
		return cmp.Or(cmp.Compare(a.order, b.order), cmp.Compare(a.uri, b.uri))
	})
	var sc routeScratch
	var hide []shadowed
	for start := 0; start < len(later); {
		end := start + 1
		for end < len(later) && later[end].order == later[start].order {
			end++
		}
		group := later[start:end]
		start = end
		u := f.resources[group[0].uri].up
		memo := f.memoOf(group, prev[u])
		f.shadows[u] = memo
		if memo.why == nil {
			spent := 0
			for _, r := range group {
				h, steps, blamed, panicked := f.shadowOf(r.uri, f.resources[r.uri], &sc, spent)
				if panicked != nil {
					return blamed, *panicked, false
				}
				spent += steps
				memo.why = append(memo.why, h)
			}
		}
		for i, r := range group {
			if memo.why[i].reason != "" {
				r.why = memo.why[i]
				hide = append(hide, r)
			}
		}
	}
	for _, r := range hide {
		delete(f.resources, r.uri)
		f.hiddenResources[r.uri] = r.why
		f.hiddenResOrder[r.uri] = r.order
	}
	return 0, hiddenTool{}, true
}

// shadowOf is why the resource o, listed at uri, is hidden ("" when it is
// not), and the steps its match took; spent is what its server's
// resources took before it. A panic is the failure of the server whose
// template was being matched, or else of o's: its session is ended,
// blamed is its place, and panicked is why all of it is hidden.
func (f *featureSet) shadowOf(uri string, o *resourceOffer, sc *routeScratch, spent int) (why hiddenTool, steps, blamed int, panicked *hiddenTool) {
	defer func() {
		if v := recover(); v != nil {
			var h hiddenTool
			if t := sc.current; t != nil {
				h, blamed = t.up.dropForPanic("a match against its resource templates", v), t.order
				sc.current = nil
			} else {
				h, blamed = o.up.dropForPanic("the resources of a listing", v), o.order
			}
			panicked = &h
		}
	}()
	o.up.hookData("shadow")
	notDistinct := func(bound string) hiddenTool {
		return hiddenTool{runtime.CodeNotOffered, fmt.Sprintf("server %s lists it, but it is not provably outside the resource templates of the servers before it in the manifest, which would answer its reads: %s", o.up.name, bound)}
	}
	if spent >= shadowStepsPerServer {
		return notDistinct(fmt.Sprintf("matching the server's resources against them took more than gate's bound of %d steps", shadowStepsPerServer)), 0, 0, nil
	}
	t, steps, tooCostly := f.firstTemplate(uri, o.order, sc)
	switch {
	case tooCostly != nil:
		return notDistinct(tooCostly.bound()), steps, 0, nil
	case t != nil:
		return hiddenTool{runtime.CodeNotOffered, fmt.Sprintf("server %s lists it, but its URI is in resource template %s of server %s, which comes first in the manifest: a read of it goes to server %s", o.up.name, quote(t.uriTemplate), t.up.name, t.up.name)}, steps, 0, nil
	}
	return hiddenTool{}, steps, 0, nil
}

// memoOf is the memo of one server's resources (group, sorted by URI):
// old, when it was made of the same URIs against the same templates,
// else a new one without verdicts.
func (f *featureSet) memoOf(group []shadowed, old *shadowMemo) *shadowMemo {
	m := &shadowMemo{uris: make([]string, len(group))}
	for i, r := range group {
		m.uris[i] = r.uri
	}
	for _, t := range f.routes {
		if t.order >= group[0].order {
			break
		}
		m.earlier = append(m.earlier, shadowTemplate{t.match, t.up.name, t.uriTemplate})
	}
	if old != nil && old.why != nil && slices.Equal(old.uris, m.uris) && slices.Equal(old.earlier, m.earlier) {
		return old
	}
	return m
}
