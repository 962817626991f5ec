package mcpgw

import (
	"cmp"
	"encoding/json"
	"fmt"
	"hash/maphash"
	"maps"
	"slices"
	"sync"
	"time"

	"github.com/gate-dev/gate/internal/manifest"
	"github.com/gate-dev/gate/runtime"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// servedServer is one upstream of the last computation of the offered
// set, and why it is hidden whole ("" reason when it is not): its
// resources, templates and prompts are offered exactly when its tools
// could be.
type servedServer struct {
	s    manifest.Server
	u    *upstream
	down hiddenTool
}

// featureRoute is where a request about an offered resource, template or
// prompt goes: an upstream (with its server's call timeout and breaker
// policy), or, with up nil, gate's own skills.
type featureRoute struct {
	up      *upstream
	timeout time.Duration
	policy  breakerPolicy
	order   int // the server's place in the manifest; -1 for gate's own
}

// The offers below keep def, the entry as the upstream listed it (as
// JSON, cleaned), to tell a change of one without writing it again.

type resourceOffer struct {
	featureRoute
	res  *mcp.Resource // as listed: the name prefixed, the URI as it is
	def  []byte
	read mcp.ResourceHandler // gate's own
}

type templateOffer struct {
	featureRoute
	uriTemplate string
	tmpl        *mcp.ResourceTemplate // nil for a malformed one
	match       *uriMatcher           // nil for a malformed one
	def         []byte
	why         hiddenTool // of a hidden one
}

type promptOffer struct {
	featureRoute
	upstream string // its name at the upstream
	prompt   *mcp.Prompt
	def      []byte
	get      mcp.PromptHandler // gate's own
}

// featureSet is what the gateway offers beside tools, each list whole
// and sorted as the list methods answer it, with the hidden ones' reasons.
type featureSet struct {
	resources map[string]*resourceOffer // by URI
	resList   []*mcp.Resource           // sorted by URI
	// templates is in manifest order (the first that matches a URI
	// owns it); tmplList is sorted by URI template.
	templates []*templateOffer
	tmplList  []*mcp.ResourceTemplate
	prompts   map[string]*promptOffer // by prefixed name
	promptLst []*mcp.Prompt           // sorted by name

	hiddenResources map[string]hiddenTool
	hiddenResOrder  map[string]int   // the place in the manifest of a hidden resource's owner
	hiddenTemplates []*templateOffer // in manifest order
	hiddenPrompts   map[string]hiddenTool
	// routes is every template with a matcher, offered or hidden, in
	// manifest order: what a URI is matched against (route).
	routes []*templateOffer
	// collisions is the templates whose space a later server's resource
	// was read in, logged once each.
	collisions *sync.Map
	// shadows is the verdicts of each server's resources against the
	// templates before it (featureshadow.go), for the next set.
	shadows map[*upstream]*shadowMemo

	// resSum and promptSum tell a change of what a client sees of the
	// resources and templates, and of the prompts.
	resSum, promptSum uint64
	// resChanges and promptChanges count the changes, each of which sent
	// one list_changed of its kind.
	resChanges, promptChanges uint64
	computed                  bool // the sums are of a computation
}

// sentinels toggled in the SDK's sets to have it send a list_changed: one
// change of the SDK's set per change of gate's, which the SDK sends to
// every session (after its 10 ms debounce) whatever protocol version it
// speaks. The SDK's sets answer nothing: serveFeatures does, from gate's.
const (
	resourcesChangedURI = "gate-internal:resources-changed"
	promptsChangedName  = "gate.internal.prompts-changed"
)

var featureSeed = maphash.MakeSeed()

// computeFeatures works out the resources, templates and prompts offered
// now, from gate's skills and the servers of the last computation of the
// offered tools, and makes them what the list methods and the requests
// see, at once and whole; each kind that changed sends one list_changed.
func (g *Gateway) computeFeatures() {
	g.mu.Lock()
	served, skills, prev := g.served, g.skills, g.feats
	g.mu.Unlock()

	// A server whose listing made addServer panic is dropped, and the set
	// made again without looking into its listing (offerpanics.go).
	failed := map[int]hiddenTool{}
	next, ok := g.featuresOf(served, skills, &prev, failed)
	for !ok {
		next, ok = g.featuresOf(served, skills, &prev, failed)
	}
	next.sortAndSum()
	if !prev.computed {
		empty := featureSet{}
		empty.sortAndSum()
		prev.resSum, prev.promptSum = empty.resSum, empty.promptSum
	}
	resChanged, promptChanged := next.resSum != prev.resSum, next.promptSum != prev.promptSum
	if resChanged {
		next.resChanges++
	}
	if promptChanged {
		next.promptChanges++
	}

	g.mu.Lock()
	g.feats = next
	g.mu.Unlock()
	if resChanged {
		toggle(resChangedOn(next.resChanges), func() {
			g.server.AddResource(&mcp.Resource{URI: resourcesChangedURI, Name: resourcesChangedURI}, nil)
		}, func() { g.server.RemoveResources(resourcesChangedURI) })
	}
	if promptChanged {
		toggle(resChangedOn(next.promptChanges), func() {
			g.server.AddPrompt(&mcp.Prompt{Name: promptsChangedName}, nil)
		}, func() { g.server.RemovePrompts(promptsChangedName) })
	}
}

// featuresOf makes the set of served and skills, each server in failed
// hidden whole for its reason; it returns false when addServer panicked
// on a server's listing, which it adds to failed.
func (g *Gateway) featuresOf(served []servedServer, skills skillState, prev *featureSet, failed map[int]hiddenTool) (featureSet, bool) {
	next := featureSet{
		resources: map[string]*resourceOffer{}, prompts: map[string]*promptOffer{},
		hiddenResources: map[string]hiddenTool{}, hiddenResOrder: map[string]int{}, hiddenPrompts: map[string]hiddenTool{},
		resChanges: prev.resChanges, promptChanges: prev.promptChanges,
		collisions: &sync.Map{},
	}
	// gate's own skills come first: they win any conflict.
	for _, r := range g.skillResources(skills) {
		r.order = -1
		next.resources[r.res.URI] = r
	}
	if skills.on {
		next.prompts[SkillsPromptName] = &promptOffer{prompt: skillsPrompt, def: mustJSON(skillsPrompt), get: g.getPrompt}
	}
	promptOwner := map[string]string{}
	tmplOwner := map[string]string{}
	resOwner := map[string]string{}
	for i, sv := range served {
		if why, dropped := failed[i]; dropped {
			next.hideServer(i, sv, why, resOwner, tmplOwner, promptOwner)
			continue
		}
		if why, ok := next.addServerRecovering(g, i, sv, resOwner, tmplOwner, promptOwner); !ok {
			failed[i] = why
			return featureSet{}, false
		}
	}
	if i, why, ok := next.hideShadowed(prev.shadows); !ok {
		failed[i] = why
		return featureSet{}, false
	}
	return next, true
}

// resChangedOn says whether the sentinel is in the SDK's set after the
// nth change: it is added by odd ones and removed by even ones.
func resChangedOn(n uint64) bool { return n%2 == 1 }

func toggle(on bool, add, remove func()) {
	if on {
		add()
	} else {
		remove()
	}
}

// sortAndSum makes the sorted lists the list methods answer, and the
// digests of what a client sees of them: each entry's prefixed name and
// its definition at the upstream.
func (f *featureSet) sortAndSum() {
	f.computed = true
	var h maphash.Hash
	h.SetSeed(featureSeed)
	entry := func(key, name string, def []byte) {
		_, _ = h.WriteString(key)
		_, _ = h.WriteString("\x00")
		_, _ = h.WriteString(name)
		_, _ = h.WriteString("\x00")
		_, _ = h.Write(def)
		_, _ = h.WriteString("\x01")
	}
	uris := slices.Sorted(maps.Keys(f.resources))
	f.resList = make([]*mcp.Resource, 0, len(uris))
	for _, uri := range uris {
		o := f.resources[uri]
		f.resList = append(f.resList, o.res)
		entry(uri, o.res.Name, o.def)
	}
	_, _ = h.WriteString("\x02templates")
	tmpls := slices.Clone(f.templates)
	slices.SortFunc(tmpls, func(a, b *templateOffer) int { return cmp.Compare(a.uriTemplate, b.uriTemplate) })
	f.tmplList = make([]*mcp.ResourceTemplate, 0, len(tmpls))
	for _, t := range tmpls {
		f.tmplList = append(f.tmplList, t.tmpl)
		entry(t.uriTemplate, t.tmpl.Name, t.def)
	}
	f.resSum = h.Sum64()
	h.Reset()
	names := slices.Sorted(maps.Keys(f.prompts))
	f.promptLst = make([]*mcp.Prompt, 0, len(names))
	for _, n := range names {
		o := f.prompts[n]
		f.promptLst = append(f.promptLst, o.prompt)
		entry(n, "", o.def)
	}
	f.promptSum = h.Sum64()
}

// mustJSON is v, one of gate's own entries, as JSON.
func mustJSON(v any) []byte {
	b, _ := json.Marshal(v)
	return b
}

// addServer decides each resource, template and prompt of one server.
// The first server (manifest order) that lists a URI, URI template or
// prefixed prompt name owns it; a later one's is hidden with the owner's
// name, as a tool name taken is.
func (f *featureSet) addServer(g *Gateway, order int, sv servedServer, resOwner, tmplOwner, promptOwner map[string]string) {
	u, name := sv.u, sv.s.Name
	u.mu.Lock()
	feats := u.feats
	u.mu.Unlock()
	prefix := prefixOf(name, sv.s.Upstream)
	rt := featureRoute{up: u, timeout: g.cfg.callTimeout, policy: g.cfg.policyFor(sv.s.Upstream.Breaker), order: order}
	if sv.s.Upstream.CallTimeout != nil {
		rt.timeout = *sv.s.Upstream.CallTimeout
	}
	malformed := func(kind, what, why string) hiddenTool {
		return hiddenTool{runtime.CodeNotOffered, fmt.Sprintf("server %s's %s %s is malformed: %s", name, kind, quote(what), why)}
	}
	for _, lr := range feats.resources {
		u.hookData("features")
		hide := func(why hiddenTool) {
			if _, on := f.resources[lr.uri]; !on {
				if _, had := f.hiddenResources[lr.uri]; !had {
					f.hiddenResources[lr.uri] = why
					f.hiddenResOrder[lr.uri] = order
				}
			}
		}
		switch {
		case lr.uri == "":
			continue
		case lr.invalid != "":
			hide(malformed("resource", lr.uri, lr.invalid))
			continue
		case gateURI(lr.uri):
			hide(hiddenTool{runtime.CodeNotOffered, fmt.Sprintf("server %s lists it, but gate: URIs are gate's own", name)})
			continue
		}
		if other, taken := resOwner[lr.uri]; taken {
			hide(hiddenTool{runtime.CodeNotOffered, fmt.Sprintf("the URI is listed by server %s too, which comes first in the manifest", other)})
			continue
		}
		resOwner[lr.uri] = name
		if sv.down.reason != "" {
			hide(sv.down)
			continue
		}
		r := *lr.res
		r.Name = prefix + r.Name
		f.resources[lr.uri] = &resourceOffer{featureRoute: rt, res: &r, def: lr.def}
	}
	for _, lt := range feats.templates {
		t := &templateOffer{featureRoute: rt, uriTemplate: lt.template, tmpl: lt.tmpl, match: lt.match, def: lt.def}
		if lt.template != "" && lt.match != nil {
			f.routes = append(f.routes, t)
		}
		switch {
		case lt.template == "":
			continue
		case lt.invalid != "":
			t.why = malformed("resource template", lt.template, lt.invalid)
		case gateURI(lt.template):
			t.why = hiddenTool{runtime.CodeNotOffered, fmt.Sprintf("server %s lists it, but gate: URIs are gate's own", name)}
		case tmplOwner[lt.template] != "":
			t.why = hiddenTool{runtime.CodeNotOffered, fmt.Sprintf("the URI template is listed by server %s too, which comes first in the manifest", tmplOwner[lt.template])}
		case sv.down.reason != "":
			tmplOwner[lt.template] = name
			t.why = sv.down
		default:
			tmplOwner[lt.template] = name
			c := *lt.tmpl
			c.Name = prefix + c.Name
			t.tmpl = &c
			f.templates = append(f.templates, t)
			continue
		}
		f.hiddenTemplates = append(f.hiddenTemplates, t)
	}
	for _, lp := range feats.prompts {
		if lp.name == "" {
			continue
		}
		pname := prefix + lp.name
		hide := func(why hiddenTool) {
			if _, on := f.prompts[pname]; !on {
				if _, had := f.hiddenPrompts[pname]; !had {
					f.hiddenPrompts[pname] = why
				}
			}
		}
		if lp.invalid != "" {
			hide(malformed("prompt", lp.name, lp.invalid))
			continue
		}
		if p, ok := f.prompts[pname]; ok && p.up == nil {
			hide(hiddenTool{runtime.CodeNotOffered, "the name is gate's skills prompt (set a prefix on the server)"})
			continue
		}
		if other, taken := promptOwner[pname]; taken {
			hide(hiddenTool{runtime.CodeNotOffered, fmt.Sprintf("the name is taken by a prompt of server %s (set a prefix on one of them)", other)})
			continue
		}
		promptOwner[pname] = name
		if sv.down.reason != "" {
			hide(sv.down)
			continue
		}
		p := *lp.prompt
		p.Name = pname
		f.prompts[pname] = &promptOffer{featureRoute: rt, upstream: lp.name, prompt: &p, def: lp.def}
	}
}

// skillsPrompt is the MCP prompt of gate's skills.
var skillsPrompt = &mcp.Prompt{
	Name: SkillsPromptName, Title: "Available skills",
	Description: "The skills the model may use now, to add to the conversation.",
}

// skillResources is the resources of gate's skills: the prompt resource,
// and each offered skill's SKILL.md.
func (g *Gateway) skillResources(st skillState) []*resourceOffer {
	if !st.on {
		return nil
	}
	prompt := &mcp.Resource{
		URI: SkillsPromptURI, Name: "skills-prompt", Title: "Skills the model may use now",
		Description: "The <available_skills> block to put in the model's system prompt: the skills whose requirements are met now.",
		MIMEType:    "text/plain",
	}
	out := []*resourceOffer{{res: prompt, def: mustJSON(prompt), read: g.readPrompt}}
	for n, sk := range st.skills {
		r := &mcp.Resource{URI: SkillURI(n), Name: n, MIMEType: "text/markdown", Description: sk.description}
		out = append(out, &resourceOffer{res: r, def: mustJSON(r), read: g.readSkill})
	}
	return out
}
