package mcpgw

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"github.com/gate-dev/gate/internal/statusview"
	"math"
	"slices"
	"strings"
	"sync/atomic"

	"github.com/gate-dev/gate/internal/tracing"
	"github.com/gate-dev/gate/runtime"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// serveFeatures answers the list methods of resources, resource templates
// and prompts from the set computeFeatures made last, whole, and sends
// resources/read, prompts/get and completion/complete to the owner of
// what they name: gate's skills, or an upstream. The SDK's own sets hold
// only the sentinels that make it send list_changed. A read's or a get's
// result to a 2026-07-28 client says resultType "complete", as the SDK's
// own handlers would have it (markComplete).
func (g *Gateway) serveFeatures(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		switch req.(type) {
		case *mcp.ListResourcesRequest, *mcp.ListResourceTemplatesRequest, *mcp.ListPromptsRequest:
			g.awaitFirstLook(ctx, method) // firstlook.go
		}
		switch r := req.(type) {
		case *mcp.ListResourcesRequest:
			g.mu.Lock()
			list := g.feats.resList
			g.mu.Unlock()
			page, next, err := pageOf(list, func(r *mcp.Resource) string { return r.URI }, cursor(r.Params), method)
			if err != nil {
				return nil, err
			}
			res := &mcp.ListResourcesResult{Resources: page, NextCursor: next}
			setCacheable(r, &res.Cacheable, g.featuresTTL())
			return res, nil
		case *mcp.ListResourceTemplatesRequest:
			g.mu.Lock()
			list := g.feats.tmplList
			g.mu.Unlock()
			page, next, err := pageOf(list, func(t *mcp.ResourceTemplate) string { return t.URITemplate }, cursor(r.Params), method)
			if err != nil {
				return nil, err
			}
			res := &mcp.ListResourceTemplatesResult{ResourceTemplates: page, NextCursor: next}
			setCacheable(r, &res.Cacheable, g.featuresTTL())
			return res, nil
		case *mcp.ListPromptsRequest:
			g.mu.Lock()
			list := g.feats.promptLst
			g.mu.Unlock()
			page, next, err := pageOf(list, func(p *mcp.Prompt) string { return p.Name }, cursor(r.Params), method)
			if err != nil {
				return nil, err
			}
			res := &mcp.ListPromptsResult{Prompts: page, NextCursor: next}
			setCacheable(r, &res.Cacheable, g.featuresTTL())
			return res, nil
		case *mcp.ReadResourceRequest:
			if r.Params != nil {
				return g.readResource(ctx, r)
			}
		case *mcp.GetPromptRequest:
			if r.Params != nil {
				return g.getPromptOf(ctx, r)
			}
		case *mcp.CompleteRequest:
			if r.Params != nil && r.Params.Ref != nil {
				return g.complete(ctx, r)
			}
		}
		return next(ctx, method, req)
	}
}

// cursor is the cursor of a list request's params, "" for none.
func cursor(p mcp.Params) string {
	switch p := p.(type) {
	case *mcp.ListResourcesParams:
		if p != nil {
			return p.Cursor
		}
	case *mcp.ListResourceTemplatesParams:
		if p != nil {
			return p.Cursor
		}
	case *mcp.ListPromptsParams:
		if p != nil {
			return p.Cursor
		}
	}
	return ""
}

// pageOf is one page of list, sorted by key, as the SDK pages (its page
// size); a cursor is the last key of the page before, encoded, and the
// next page starts after it in the list of the time it is asked for.
func pageOf[T any](list []T, key func(T) string, cursor, method string) ([]T, string, error) {
	start := 0
	if cursor != "" {
		after, err := base64.RawURLEncoding.DecodeString(cursor)
		if err != nil {
			return nil, "", &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: method + ": the cursor is not one gate gave"}
		}
		start, _ = slices.BinarySearchFunc(list, string(after), func(v T, k string) int { return strings.Compare(key(v), k) })
		if start < len(list) && key(list[start]) == string(after) {
			start++
		}
	}
	end := min(start+mcp.DefaultPageSize, len(list))
	page := append([]T{}, list[start:end]...)
	next := ""
	if end < len(list) {
		next = base64.RawURLEncoding.EncodeToString([]byte(key(list[end-1])))
	}
	return page, next, nil
}

// routeURI finds who answers for uri (featureSet.route), from the set
// of now, taken under the gateway's lock and matched outside it: a long
// URI, or many templates, hold up no other request.
func (g *Gateway) routeURI(uri string) (rt featureRoute, read mcp.ResourceHandler, hidden *hiddenTool, found bool, err error) {
	g.mu.Lock()
	f := g.feats // a set is never changed once made: computeFeatures replaces it whole
	g.mu.Unlock()
	// A panic while matching the URI against a server's template is that
	// server's failure: its session is ended, and the request answered
	// with an error (panics.go). Its templates are matched no more once
	// the set is computed again without it (offerpanics.go).
	var sc routeScratch
	defer func() {
		if sc.current == nil {
			return
		}
		if v := recover(); v != nil {
			rt, read, hidden, found = featureRoute{}, nil, nil, false
			err = sc.current.up.failForPanic("a match against its resource templates", v)
		}
	}()
	return f.route(g, uri, &sc)
}

// routeScratch is the scratch of matching one URI against the templates,
// and the template being matched while it is (nil between), for a
// panic's recover to name its server.
type routeScratch struct {
	matchScratch
	current *templateOffer
}

// Matching one URI against the templates is bounded in steps (urimatch.go),
// each server's templates to a share, all of them together to a whole.
const (
	matchStepsPerServer = 1 << 22
	matchStepsPerURI    = 1 << 24
)

// maxMatchedURI bounds a URI gate matches against the templates, or
// answers "not found" of (an error that carries the URI back): a
// resource's URI is far shorter, and a longer one would cost every
// server's templates their bound in steps on each request. A listed
// resource with a longer URI is still read, while no earlier server has
// templates.
const maxMatchedURI = 8 << 10

// testHookMatching, when set, is called before a URI is matched against
// the templates.
var testHookMatching atomic.Pointer[func()]

// route finds who answers for uri: servers in manifest order (gate's
// skills first), the first that lists the URI or has a resource template
// that matches it (RFC 6570, as the SDK matches them); a server's own
// resource before its templates. So a later server's resource whose URI
// is in an earlier server's template is read from the earlier server, as
// a name taken by an earlier server is its; the log says so. hidden is why
// it is not offered when a hidden entry has it; neither found is MCP's
// "resource not found". err is a match past its bound.
func (f *featureSet) route(g *Gateway, uri string, sc *routeScratch) (rt featureRoute, read mcp.ResourceHandler, hidden *hiddenTool, found bool, err error) {
	exactOrder := math.MaxInt
	o, offered := f.resources[uri]
	why, isHidden := f.hiddenResources[uri]
	switch {
	case offered:
		exactOrder = o.order
	case isHidden:
		exactOrder = f.hiddenResOrder[uri]
	}
	if len(uri) > maxMatchedURI && (exactOrder == math.MaxInt || len(f.routes) > 0 && f.routes[0].order < exactOrder) {
		// Neither listed by a server before every template, nor to be
		// matched.
		return featureRoute{}, nil, nil, false, (&matchOverrun{long: true}).err(uri)
	}
	if len(f.routes) > 0 && f.routes[0].order < exactOrder {
		if h := testHookMatching.Load(); h != nil {
			(*h)()
		}
		t, _, tooCostly := f.firstTemplate(uri, exactOrder, sc)
		if tooCostly != nil {
			return featureRoute{}, nil, nil, false, tooCostly.err(uri)
		}
		if t != nil {
			if (offered || isHidden) && f.collisions != nil {
				// Once per template of a set: a client reading such URIs
				// again and again does not fill the log. (A resource of
				// a later server listed in the space is not offered:
				// hideShadowed.)
				if _, seen := f.collisions.LoadOrStore(t, true); !seen {
					later := "a later server"
					if offered && o.up != nil {
						later = "server " + o.up.name
					}
					g.logf("resources/read: a URI %s lists is in resource template %s of server %s, which comes first in the manifest: server %s answers it", later, quote(t.uriTemplate), t.up.name, t.up.name)
				}
			}
			if t.why.reason != "" {
				why := t.why
				return featureRoute{}, nil, &why, true, nil
			}
			return t.featureRoute, nil, nil, true, nil
		}
	}
	switch {
	case offered:
		return o.featureRoute, o.read, nil, true, nil
	case isHidden:
		return featureRoute{}, nil, &why, true, nil
	}
	return featureRoute{}, nil, nil, false, nil
}

// firstTemplate is the first template, in manifest order, of the
// servers before the one at place before, whose space has uri: the
// template that answers for it. Matching is bounded in steps, each
// server's templates to matchStepsPerServer, all of them together to
// matchStepsPerURI; past a bound it returns why, and no template. steps
// is what the match spent.
func (f *featureSet) firstTemplate(uri string, before int, sc *routeScratch) (found *templateOffer, steps int, tooCostly *matchOverrun) {
	if len(uri) > maxMatchedURI {
		if len(f.routes) > 0 && f.routes[0].order < before {
			return nil, 0, &matchOverrun{long: true}
		}
		return nil, 0, nil
	}
	var budget matchBudget
	server, share, used := -2, 0, 0
	spent := func() int { return used + share - max(budget.left, 0) }
	for _, t := range f.routes {
		if t.order >= before {
			break
		}
		if t.order != server {
			used = spent()
			server, share = t.order, min(matchStepsPerServer, matchStepsPerURI-used)
			budget.left = share
		}
		sc.current = t
		t.up.hookData("match")
		matched, ok := t.match.match(uri, &sc.matchScratch, &budget)
		sc.current = nil
		if !ok {
			return nil, spent(), &matchOverrun{server: t.up.name, whole: share < matchStepsPerServer}
		}
		if matched {
			return t, spent(), nil
		}
	}
	return nil, spent(), nil
}

// matchOverrun is a URI's match that ran past its bound: the share of
// one server's templates, or the whole.
type matchOverrun struct {
	server string
	whole  bool
	long   bool // the URI is longer than maxMatchedURI: never matched
}

// bound says which bound, naming the server; never the URI.
func (m *matchOverrun) bound() string {
	if m.long {
		return fmt.Sprintf("gate matches URIs of at most %d bytes against the servers' resource templates", maxMatchedURI)
	}
	if m.whole {
		return fmt.Sprintf("the servers' resource templates take more than gate's bound of %d steps to match it", matchStepsPerURI)
	}
	return fmt.Sprintf("server %s's resource templates take more than gate's bound of %d steps to match it", m.server, matchStepsPerServer)
}

// err is the error of a read of uri whose match ran past its bound. It
// says the URI's length, not the URI.
func (m *matchOverrun) err(uri string) *jsonrpc.Error {
	return &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: fmt.Sprintf("the resource URI of %d bytes is not available now: %s", len(uri), m.bound()), Data: codeData(runtime.CodeNotOffered)}
}

// resourceNotFound is MCP's "resource not found" of uri, whose data
// carries the URI back to its client; of a URI longer than gate matches,
// an error that says its length instead, so that what a client sent is
// not sent back to it at any size.
func resourceNotFound(uri string) error {
	if len(uri) > maxMatchedURI {
		return (&matchOverrun{long: true}).err(uri)
	}
	return mcp.ResourceNotFoundError(uri)
}

// readResource answers resources/read of uri from its owner.
func (g *Gateway) readResource(ctx context.Context, r *mcp.ReadResourceRequest) (mcp.Result, error) {
	uri := r.Params.URI
	rt, read, hidden, found, err := g.routeURI(uri)
	if err == nil && (!found || hidden != nil) {
		// An upstream making its first connection may be about to offer it.
		g.awaitFirstLook(ctx, "resources/read")
		rt, read, hidden, found, err = g.routeURI(uri)
	}
	switch {
	case err != nil:
		return nil, err
	case !found:
		return nil, resourceNotFound(uri)
	case hidden != nil:
		return nil, featureNotOffered("resource", uri, *hidden)
	case read != nil:
		res, err := read(ctx, r)
		if err == nil && res != nil {
			// Gate's own (a skill's), the same for every client; kept
			// no longer than the list says: 0 while there are skills.
			setCacheable(r, &res.Cacheable, 0)
		}
		return result(markComplete(r, res), err)
	}
	// A retry of an input_required result carries its answers and state
	// to the upstream (withInputs), a url-mode elicitation's answer as its
	// action alone (urlanswers.go).
	params := &mcp.ReadResourceParams{URI: uri}
	params.InputResponses, params.RequestState = unwrapURLAnswers(r.Params.InputResponses, r.Params.RequestState)
	send := func(ctx context.Context) (*mcp.ReadResourceResult, error) {
		res, err := tracedForward(g, ctx, r, tracing.Forwarded{Method: "resources/read"}, rt, "the read of resource "+quote(uri), func(ctx context.Context, cs *mcp.ClientSession) (*mcp.ReadResourceResult, error) {
			params.Meta = tracing.Meta(ctx, nil)
			return withInputs(rt.up, ctx, r.Session, "read", params, func(p *mcp.ReadResourceParams) (*mcp.ReadResourceResult, error) { return cs.ReadResource(ctx, p) })
		})
		if err != nil {
			return nil, err
		}
		forwardedCacheable(r, &res.Cacheable, g.featuresTTL())
		return res, nil
	}
	var res *mcp.ReadResourceResult
	if parks(r.Session, rt.up) {
		// An older upstream's request for input during it reaches a
		// 2026-07-28 client as input_required (parked.go).
		res, err = parkRequest(g, ctx, r.Session, parkedFor{method: "resources/read", name: uri, up: rt.up}, r.Params.RequestState, r.Params.InputResponses, send)
	} else {
		res, err = send(ctx)
	}
	return result(markComplete(r, res), err)
}

// getPromptOf answers prompts/get of a prompt from its owner, under the
// upstream's name for it.
func (g *Gateway) getPromptOf(ctx context.Context, r *mcp.GetPromptRequest) (mcp.Result, error) {
	name := r.Params.Name
	o, why, hidden := g.promptOf(name)
	if o == nil {
		// An upstream making its first connection may be about to offer it.
		g.awaitFirstLook(ctx, "prompts/get")
		o, why, hidden = g.promptOf(name)
	}
	switch {
	case o == nil && hidden:
		return nil, featureNotOffered("prompt", name, why)
	case o == nil:
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: fmt.Sprintf("prompt %s is not available now: gate offers no prompt of that name (prompts/list gives those offered now)", quote(name))}
	case o.get != nil:
		res, err := o.get(ctx, r)
		return result(markComplete(r, res), err)
	}
	params := &mcp.GetPromptParams{Name: o.upstream, Arguments: r.Params.Arguments}
	params.InputResponses, params.RequestState = unwrapURLAnswers(r.Params.InputResponses, r.Params.RequestState)
	send := func(ctx context.Context) (*mcp.GetPromptResult, error) {
		return tracedForward(g, ctx, r, tracing.Forwarded{Method: "prompts/get", Prompt: name}, o.featureRoute, "prompts/get of "+quote(name), func(ctx context.Context, cs *mcp.ClientSession) (*mcp.GetPromptResult, error) {
			params.Meta = tracing.Meta(ctx, nil)
			return withInputs(o.up, ctx, r.Session, "get", params, func(p *mcp.GetPromptParams) (*mcp.GetPromptResult, error) { return cs.GetPrompt(ctx, p) })
		})
	}
	var res *mcp.GetPromptResult
	var err error
	if parks(r.Session, o.up) {
		// As a read's (readResource).
		res, err = parkRequest(g, ctx, r.Session, parkedFor{method: "prompts/get", name: name, up: o.up}, r.Params.RequestState, r.Params.InputResponses, send)
	} else {
		res, err = send(ctx)
	}
	return result(markComplete(r, res), err)
}

// promptOf is the offered prompt of that name, or why it is hidden.
func (g *Gateway) promptOf(name string) (o *promptOffer, why hiddenTool, hidden bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	why, hidden = g.feats.hiddenPrompts[name]
	return g.feats.prompts[name], why, hidden
}

// noCompletion is the answer to a completion of a prompt or resource
// that offers none: gate's own, one whose upstream declares no
// completions, or one gate does not know. It is not an error: a client
// asks as a person types, and has nothing to show either way.
func noCompletion() *mcp.CompleteResult {
	return &mcp.CompleteResult{Completion: mcp.CompletionResultDetails{Values: []string{}}}
}

// complete answers completion/complete from the owner of its ref: a
// prompt by its prefixed name, a resource template by its URI template
// (or a resource by its URI).
func (g *Gateway) complete(ctx context.Context, r *mcp.CompleteRequest) (mcp.Result, error) {
	ref := *r.Params.Ref
	var rt featureRoute
	g.mu.Lock()
	f := &g.feats
	var hidden *hiddenTool
	what := ""
	switch ref.Type {
	case "ref/prompt":
		what = "prompt " + quote(ref.Name)
		if o := f.prompts[ref.Name]; o != nil {
			rt, ref.Name = o.featureRoute, o.upstream
		} else if why, ok := f.hiddenPrompts[ref.Name]; ok {
			hidden = &why
		}
	case "ref/resource":
		what = "resource " + quote(ref.URI)
		for _, t := range f.templates {
			if t.tmpl.URITemplate == ref.URI {
				rt = t.featureRoute
				break
			}
		}
		if rt.up == nil {
			if o := f.resources[ref.URI]; o != nil {
				rt = o.featureRoute
			}
		}
		if rt.up == nil {
			if why, ok := f.hiddenResources[ref.URI]; ok {
				hidden = &why
			}
			for _, t := range f.hiddenTemplates {
				if hidden == nil && t.uriTemplate == ref.URI {
					why := t.why
					hidden = &why
				}
			}
		}
	}
	g.mu.Unlock()
	if hidden != nil {
		return nil, featureNotOffered(strings.TrimPrefix(ref.Type, "ref/"), cmpOr(ref.Name, ref.URI), *hidden)
	}
	if rt.up == nil {
		return noCompletion(), nil
	}
	rt.up.mu.Lock()
	completes := rt.up.feats.completions
	rt.up.mu.Unlock()
	if !completes {
		return noCompletion(), nil
	}
	params := *r.Params
	params.Ref = &ref
	params.Meta = nil
	return result(tracedForward(g, ctx, r, tracing.Forwarded{Method: "completion/complete"}, rt, "completion/complete of "+what, func(ctx context.Context, cs *mcp.ClientSession) (*mcp.CompleteResult, error) {
		params.Meta = tracing.Meta(ctx, nil)
		return cs.Complete(ctx, &params)
	}))
}

// result is a forwarded request's answer as a handler returns it: a nil
// Result with an error, never a typed nil.
func result[R mcp.Result](res R, err error) (mcp.Result, error) {
	if err != nil {
		return nil, err
	}
	return res, nil
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// featureNotOffered is the -32602 error of a request about a resource,
// template or prompt that is not offered, shaped as a hidden tool's
// (notOfferedError): the reason in its message, and its code's data.
func featureNotOffered(kind, name string, why hiddenTool) *jsonrpc.Error {
	code := why.code
	if code == "" {
		code = runtime.CodeUnavailable
	}
	data, _ := json.Marshal(statusview.Code(code))
	return &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: fmt.Sprintf("%s %s is not available now: %s", kind, quote(name), why.reason), Data: data}
}
