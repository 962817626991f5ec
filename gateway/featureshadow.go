package gateway

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

// shadowStepsPerServer bounds the steps of matching all of one server's
// resources against the templates of the servers before it.
const shadowStepsPerServer = matchStepsPerURI

// shadowed is a resource the check hides: its URI, its server's place and
// name, and why.
type shadowed struct {
	uri   string
	order int
	why   hiddenTool
}

// hideShadowed hides each offered resource of a server whose URI is in
// the space of a template of a server before it, or is not provably
// outside them. It returns the server a panic was recovered on, if one
// was, with why (offerpanics.go); the set is then to be made again
// without that server.
func (f *featureSet) hideShadowed() (failed int, why hiddenTool, ok bool) {
	if len(f.routes) == 0 {
		return 0, hiddenTool{}, true
	}
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
	var sc matchScratch
	server, spent := -1, 0
	var hide []shadowed
	for _, r := range later {
		o := f.resources[r.uri]
		if r.order != server {
			server, spent = r.order, 0
		}
		h, steps, panicked := f.shadowOf(r.uri, o, &sc, spent)
		if panicked != nil {
			return r.order, *panicked, false
		}
		spent += steps
		if h.reason != "" {
			r.why = h
			hide = append(hide, r)
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
// resources took before it. A panic while matching is o's server's
// failure: its session is ended, and panicked is why all of it is hidden.
func (f *featureSet) shadowOf(uri string, o *resourceOffer, sc *matchScratch, spent int) (why hiddenTool, steps int, panicked *hiddenTool) {
	defer func() {
		if v := recover(); v != nil {
			h := o.up.dropForPanic("the resources of a listing", v)
			panicked = &h
		}
	}()
	o.up.hookData("shadow")
	notDistinct := func(bound string) hiddenTool {
		return hiddenTool{runtime.CodeNotOffered, fmt.Sprintf("server %s lists it, but it is not provably outside the resource templates of the servers before it in the manifest, which would answer its reads: %s", o.up.name, bound)}
	}
	if spent >= shadowStepsPerServer {
		return notDistinct(fmt.Sprintf("matching the server's resources against them took more than gate's bound of %d steps", shadowStepsPerServer)), 0, nil
	}
	t, steps, tooCostly := f.firstTemplate(uri, o.order, sc)
	switch {
	case tooCostly != nil:
		return notDistinct(tooCostly.bound()), steps, nil
	case t != nil:
		return hiddenTool{runtime.CodeNotOffered, fmt.Sprintf("server %s lists it, but its URI is in resource template %s of server %s, which comes first in the manifest: a read of it goes to server %s", o.up.name, quote(t.uriTemplate), t.up.name, t.up.name)}, steps, nil
	}
	return hiddenTool{}, steps, nil
}
