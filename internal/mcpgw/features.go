package mcpgw

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"strings"

	"github.com/gate-dev/gate/internal/safetext"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/yosida95/uritemplate/v3"
)

// An upstream's resources, resource templates and prompts ("features",
// beside its tools) are listed as its tools are: every page, each entry
// checked and cleaned once, within the gateway's caps of one server
// (Config.WithMaxTools entries and Config.WithMaxListingBytes bytes, per
// kind), and listed again on the upstream's list_changed of that kind.
// They are optional to the upstream's use: a listing of them that fails
// is logged and the last good list is kept, and the tools stay offered.

// listKinds is a set of an upstream's lists: which are to be listed
// (again).
type listKinds uint32

const (
	listTools listKinds = 1 << iota
	// listResources is resources and resource templates: MCP has one
	// list_changed for both.
	listResources
	listPrompts
	listAll = listTools | listResources | listPrompts
)

// upstreamFeatures is what gate keeps of an upstream's resources,
// templates and prompts, and of the capabilities it declared for them.
type upstreamFeatures struct {
	resources []listedResource
	templates []listedTemplate
	prompts   []listedPrompt
	over      listKinds // the kinds listed past the caps
	// subscribe and completions are the upstream's capabilities
	// resources.subscribe and completions.
	subscribe, completions bool
}

// listedResource is one resource of an upstream's listing; res is nil
// and invalid says why when it can never be offered.
type listedResource struct {
	uri, name string
	res       *mcp.Resource // cleaned, not yet prefixed
	invalid   string
	def       []byte
}

// listedTemplate is one resource template of an upstream's listing;
// match is its URI template's matcher (urimatch.go).
type listedTemplate struct {
	template, name string
	tmpl           *mcp.ResourceTemplate // cleaned, not yet prefixed
	match          *uriMatcher
	invalid        string
	def            []byte
}

// listedPrompt is one prompt of an upstream's listing.
type listedPrompt struct {
	name    string
	prompt  *mcp.Prompt // cleaned, not yet prefixed
	invalid string
	def     []byte
}

func (r listedResource) size() int { return len(r.uri) + len(r.name) + len(r.invalid) + len(r.def) }

// size counts a template's matcher too: what it holds, not only its
// bytes.
func (t listedTemplate) size() int {
	n := len(t.template) + len(t.name) + len(t.invalid) + len(t.def)
	if t.match != nil {
		n += t.match.cost()
	}
	return n
}
func (p listedPrompt) size() int { return len(p.name) + len(p.invalid) + len(p.def) }

// wantList asks the session's loop to list kinds again; many asks before
// it looks make one listing of each kind.
func (u *upstream) wantList(kinds listKinds) {
	for {
		old := u.pending.Load()
		if u.pending.CompareAndSwap(old, old|uint32(kinds)) {
			break
		}
	}
	select {
	case u.relist <- struct{}{}:
	default: // a listing is pending already; it will see this change
	}
}

// listPending lists what list_changed notifications (or a new session)
// asked for: the resources, templates and prompts first, then the tools,
// whose listing makes the upstream ready, so that a client's first look
// at a server that has just become ready sees all of it. Only a failure
// of the tools' listing ends the session (list).
// A panic while listing ends the session (panics.go).
func (u *upstream) listPending(session context.Context, cs *mcp.ClientSession) (err error) {
	defer func() {
		if v := recover(); v != nil {
			err = u.panicked("a listing", v)
		}
	}()
	u.hookData("listing")
	kinds := listKinds(u.pending.Swap(0))
	if kinds&(listResources|listPrompts) != 0 {
		if err := u.listFeatures(session, cs, kinds); err != nil {
			return err
		}
	}
	if kinds&listTools != 0 {
		return u.list(session, cs)
	}
	return nil
}

// listFeatures lists the kinds of kinds the upstream declared, and
// forgets those it did not, all within one listing timeout, so that an
// upstream that does not answer them delays its tools' listing (and its
// being ready) by no more than that. It returns an error only when the
// session ended; the failure of a listing is logged, and the last good list of
// that kind kept: a server whose tools answer is worth offering even when
// its optional lists do not, and a list that failed once (a timeout, one
// malformed page) is likelier to be as it was than empty.
func (u *upstream) listFeatures(session context.Context, cs *mcp.ClientSession, kinds listKinds) error {
	var caps mcp.ServerCapabilities
	if ir := cs.InitializeResult(); ir != nil && ir.Capabilities != nil {
		caps = *ir.Capabilities
	}
	ctx, cancel := context.WithTimeout(session, u.gw.cfg.listTimeout)
	defer cancel()
	u.mu.Lock()
	f := u.feats
	u.mu.Unlock()
	f.subscribe = caps.Resources != nil && caps.Resources.Subscribe
	f.completions = caps.Completions != nil
	// failed is what a listing's error does: the SDK's error names the
	// method (`calling "resources/list": ...`), as listEvery's own do.
	failed := func(err error) error {
		if session.Err() != nil {
			return context.Cause(session)
		}
		u.gw.logf("upstream %s: %s; its last good list is kept", u.name, cleanMessage(err.Error()))
		return nil
	}
	if kinds&listResources != 0 {
		if caps.Resources == nil {
			f.resources, f.templates, f.over = nil, nil, f.over&^listResources
		} else {
			res, over, err := listEvery(u, session, ctx, "resources/list", func(ctx context.Context, cursor string) ([]*mcp.Resource, string, error) {
				r, err := cs.ListResources(ctx, &mcp.ListResourcesParams{Cursor: cursor})
				if err != nil {
					return nil, "", err
				}
				return r.Resources, r.NextCursor, nil
			}, checkResource, listedResource.size)
			if err != nil {
				if err := failed(err); err != nil {
					return err
				}
			} else {
				sortListing(res, listedResource.sortKey, listedResource.sortDef)
				f.resources = res
				f.over = setKind(f.over, listResources, over)
			}
			// A template listed again unchanged keeps its matcher: it is
			// read once per change of the listing, not once per listing.
			known := make(map[string]*uriMatcher, len(f.templates))
			for _, lt := range f.templates {
				if lt.match != nil {
					known[lt.template] = lt.match
				}
			}
			tmpls, over, err := listEvery(u, session, ctx, "resources/templates/list", func(ctx context.Context, cursor string) ([]*mcp.ResourceTemplate, string, error) {
				r, err := cs.ListResourceTemplates(ctx, &mcp.ListResourceTemplatesParams{Cursor: cursor})
				if err != nil {
					return nil, "", err
				}
				return r.ResourceTemplates, r.NextCursor, nil
			}, func(t *mcp.ResourceTemplate) listedTemplate { return checkTemplate(t, known) }, listedTemplate.size)
			if err != nil {
				if err := failed(err); err != nil {
					return err
				}
			} else {
				f.templates = tmpls
				f.over |= setKind(0, listResources, over)
			}
		}
	}
	if kinds&listPrompts != 0 {
		if caps.Prompts == nil {
			f.prompts, f.over = nil, f.over&^listPrompts
		} else {
			ps, over, err := listEvery(u, session, ctx, "prompts/list", func(ctx context.Context, cursor string) ([]*mcp.Prompt, string, error) {
				r, err := cs.ListPrompts(ctx, &mcp.ListPromptsParams{Cursor: cursor})
				if err != nil {
					return nil, "", err
				}
				return r.Prompts, r.NextCursor, nil
			}, checkPrompt, listedPrompt.size)
			if err != nil {
				if err := failed(err); err != nil {
					return err
				}
			} else {
				sortListing(ps, listedPrompt.sortKey, listedPrompt.sortDef)
				f.prompts = ps
				f.over = setKind(f.over, listPrompts, over)
			}
		}
	}
	u.mu.Lock()
	u.feats = f
	u.mu.Unlock()
	u.gw.poke()
	return nil
}

func setKind(set, kind listKinds, on bool) listKinds {
	if on {
		return set | kind
	}
	return set &^ kind
}

// listEvery reads every page of one of the upstream's lists within ctx
// (the session's, bounded by the listing timeout) and maxPages, checking
// each entry, and stops at the gateway's caps of one server (over says it
// did).
func listEvery[T any, L any](u *upstream, session, ctx context.Context, method string, page func(context.Context, string) ([]T, string, error), check func(T) L, size func(L) int) (_ []L, over bool, _ error) {
	cfg := &u.gw.cfg
	var out []L
	cursor, bytes := "", 0
	for n := 0; ; n++ {
		if n == maxPages {
			return nil, false, fmt.Errorf("%s: more than %d pages", method, maxPages)
		}
		items, next, err := page(ctx, cursor)
		if err != nil {
			if ctx.Err() != nil && session.Err() == nil {
				return nil, false, fmt.Errorf("%s: no answer within %v", method, cfg.listTimeout)
			}
			return nil, false, err
		}
		for _, it := range items {
			if len(out) >= cfg.maxTools {
				over = true
				break
			}
			l := check(it)
			if bytes += size(l); bytes > cfg.maxListing {
				over = true
				break
			}
			out = append(out, l)
		}
		if next == "" || over {
			break
		}
		cursor = next
	}
	if over {
		u.gw.logf("upstream %s: %s lists more than the gateway keeps of one server (%d entries, or %d bytes of them): those past it are not offered", u.name, method, cfg.maxTools, cfg.maxListing)
	}
	return out, over, nil
}

// entryDef measures and writes an entry as the client will see it:
// refused over maxToolBytes, as a tool's definition is.
func entryDef(v any) ([]byte, string) {
	def, err := json.Marshal(v)
	if err := checkToolSize(def, err); err != nil {
		return nil, err.Error()
	}
	return def, ""
}

// checkURI applies what MCP asks of a resource's URI: an absolute URI.
func checkURI(uri string) string {
	if uri == "" {
		return "its uri is empty"
	}
	p, err := url.Parse(uri)
	if err != nil || p.Scheme == "" {
		return fmt.Sprintf("its uri %s is not an absolute URI", quote(uri))
	}
	return ""
}

// checkName refuses a name a person could not read as it is: empty, or
// with a character safetext's rule would clean.
func checkName(name string) string {
	if name == "" {
		return "its name is empty"
	}
	if safetext.Clean(name, false) != name {
		return fmt.Sprintf("its name %s has a control or invisible character", quote(name))
	}
	return ""
}

// checkResource checks and cleans an upstream's resource: its text a
// model reads is cleaned as a tool's is (checkTool).
func checkResource(r *mcp.Resource) listedResource {
	if r == nil {
		return listedResource{invalid: "the upstream listed a null resource"}
	}
	lr := listedResource{uri: r.URI, name: r.Name}
	if lr.invalid = checkURI(r.URI); lr.invalid != "" {
		return lr
	}
	if lr.invalid = checkName(r.Name); lr.invalid != "" {
		return lr
	}
	c := *r
	c.Title = safetext.Clean(c.Title, false)
	c.Description = safetext.Clean(c.Description, true)
	if lr.def, lr.invalid = entryDef(&c); lr.invalid == "" {
		lr.res = &c
	}
	return lr
}

// checkTemplate checks and cleans an upstream's resource template; its
// URI template must be one RFC 6570 reads (as the SDK's server requires),
// within the matcher's bound. known holds the matchers of the templates
// of the listing before, by URI template.
func checkTemplate(t *mcp.ResourceTemplate, known map[string]*uriMatcher) listedTemplate {
	if t == nil {
		return listedTemplate{invalid: "the upstream listed a null resource template"}
	}
	lt := listedTemplate{template: t.URITemplate, name: t.Name}
	if t.URITemplate == "" {
		lt.invalid = "its uriTemplate is empty"
		return lt
	}
	match := known[t.URITemplate]
	if match == nil {
		if _, err := uritemplate.New(t.URITemplate); err != nil {
			lt.invalid = fmt.Sprintf("its uriTemplate %s is not a URI template: %v", quote(t.URITemplate), err)
			return lt
		}
		var err error
		if match, err = newURIMatcher(t.URITemplate); err != nil {
			lt.invalid = fmt.Sprintf("its uriTemplate %s: %v", quote(t.URITemplate), err)
			return lt
		}
	}
	if lt.invalid = checkName(t.Name); lt.invalid != "" {
		return lt
	}
	c := *t
	c.Title = safetext.Clean(c.Title, false)
	c.Description = safetext.Clean(c.Description, true)
	if lt.def, lt.invalid = entryDef(&c); lt.invalid == "" {
		lt.tmpl, lt.match = &c, match
	}
	return lt
}

// checkPrompt checks and cleans an upstream's prompt, its arguments'
// text too.
func checkPrompt(p *mcp.Prompt) listedPrompt {
	if p == nil {
		return listedPrompt{invalid: "the upstream listed a null prompt"}
	}
	lp := listedPrompt{name: p.Name}
	if lp.invalid = checkName(p.Name); lp.invalid != "" {
		return lp
	}
	c := *p
	c.Title = safetext.Clean(c.Title, false)
	c.Description = safetext.Clean(c.Description, true)
	if len(c.Arguments) > 0 {
		args := make([]*mcp.PromptArgument, 0, len(c.Arguments))
		for _, a := range c.Arguments {
			if a == nil {
				lp.invalid = "it has a null argument"
				return lp
			}
			ca := *a
			ca.Title = safetext.Clean(ca.Title, false)
			ca.Description = safetext.Clean(ca.Description, true)
			args = append(args, &ca)
		}
		c.Arguments = args
	}
	if lp.def, lp.invalid = entryDef(&c); lp.invalid == "" {
		lp.prompt = &c
	}
	return lp
}

// gateURI says whether uri is in gate's own scheme, which only gate's
// skills may use.
func gateURI(uri string) bool {
	return len(uri) >= 5 && strings.EqualFold(uri[:5], "gate:")
}
