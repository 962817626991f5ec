package skills

import (
	"github.com/gate-dev/gate/internal/skillhost"

	"fmt"
	"log/slog"
	"strings"
	"sync"
)

// ManagerOptions configure a Manager.
type ManagerOptions struct {
	// Level is the enforcement level, fixed for the Manager's life as in
	// PraisonAI's SkillManager; the zero value is LevelWarn. LevelFromEnv
	// reads SKILL_CAPABILITY_ENFORCEMENT.
	Level Level
	// Host answers environment variables, binaries and the OS; nil means
	// the running process's (os.LookupEnv, exec.LookPath, runtime.GOOS).
	Host Host
	// Logger receives the validation log lines; nil logs nothing: a
	// library speaks only when asked, and slog.Default is the
	// application's, not gate's.
	Logger *slog.Logger
	// Toolsets maps a tool to the toolset it belongs to (a manifest
	// tool's toolset key), for Hermes' requires_toolsets and
	// fallback_for_toolsets: a toolset is present while at least one of
	// its tools is available. A tool not in the map is in the toolset of
	// its own name. The Manager keeps the map; do not modify it.
	Toolsets map[string]string
}

// Manager holds a catalog of skills and answers, at one enforcement level,
// which of them a model may be offered now. It caches each skill's Result
// and invalidates only what a change can affect:
//
//   - SetAvailable diffs the new tools, servers and the toolsets they make
//     present against the previous ones and drops the results of the
//     skills that require a name that flipped, through a reverse index
//     from names to skills; the prompt is recomputed only for the skills
//     that name a flipped tool, server or toolset (as a requirement or a
//     fallback target), and rebuilt only if one of them changed sides;
//   - Refresh (or RefreshContext, which a shutdown can abandon) re-reads
//     the skill files that changed, appeared or vanished, without holding
//     the lock the readers take;
//   - environment variables and the OS are read when a skill is
//     validated, binaries when the skills naming them arrive (NewManager,
//     Refresh), outside the lock: after changing those, call Clear.
//
// Until the first SetAvailable no tool and no server is available.
//
// All methods are safe for concurrent use. They serialise on one lock, and
// the Host's LookupEnv and OS are called with it held (they must be quick
// and must not call back into the Manager); its HasBinary, a walk of PATH,
// is called before the lock is taken. Prompt with nothing changed takes
// only a read lock, and Refresh reads files without holding it.
type Manager struct {
	validator skillValidator // its Host is bins, under mu
	host      Host           // the Host given, which bins asks
	toolsetOf map[string]string

	// refresh holds a token while a Refresh runs: one at a time, and a
	// channel rather than a mutex so that a RefreshContext waiting for
	// another can give up when its context ends. Nothing else waits on it.
	refresh chan struct{}

	mu      sync.RWMutex
	bins    *binCache // binary lookups made before mu is taken; replaced by Clear
	cat     *Catalog
	entries []*entry          // catalog order
	byName  map[string]*entry //
	avail   availability
	// toolDeps, serverDeps and toolsetDeps map a tool, server or toolset
	// name to the skills whose result (result: true) or offer depends on
	// it.
	toolDeps, serverDeps, toolsetDeps map[string][]dep
	stale                             []*entry // skills whose offer must be recomputed
	prompt                            string
	promptOK                          bool // prompt matches the offers
}

// entry is the Manager's state for one skill.
type entry struct {
	skill   *Skill
	result  *Result // nil until validated
	offered bool
	stale   bool   // in Manager.stale: offered is out of date
	xml     string // the skill's <skill> element, built once
}

type dep struct {
	e      *entry
	result bool // the result depends on the name, not just the offer
}

// NewManager makes a Manager over cat (from Discover).
func NewManager(cat *Catalog, opts ManagerOptions) *Manager {
	if opts.Host == nil {
		opts.Host = skillhost.System{}
	}
	if cat == nil {
		cat = newCatalog()
	}
	bins := newBinCache(opts.Host)
	bins.prefetch(cat.Skills)
	m := &Manager{validator: skillValidator{Level: opts.Level, Host: bins, Logger: opts.Logger}, host: opts.Host, toolsetOf: opts.Toolsets, bins: bins, refresh: make(chan struct{}, 1)}
	m.install(cat, nil)
	return m
}

// install makes cat the Manager's catalog, keeping the entries (and so the
// cached results) of skills that did not change. It holds m.mu or runs
// before the Manager is shared.
func (m *Manager) install(cat *Catalog, old map[string]*entry) {
	m.cat = cat
	m.entries = make([]*entry, 0, len(cat.Skills))
	m.byName = make(map[string]*entry, len(cat.Skills))
	m.stale = m.stale[:0]
	for _, s := range cat.Skills {
		e := old[s.Name]
		if e == nil || e.skill != s {
			e = &entry{skill: s, xml: entryXML(s.entry())}
		}
		e.stale = false
		m.entries = append(m.entries, e)
		m.byName[s.Name] = e
	}
	m.toolDeps, m.serverDeps, m.toolsetDeps = map[string][]dep{}, map[string][]dep{}, map[string][]dep{}
	for _, e := range m.entries {
		r := &e.skill.Requirements
		for i := range kinds {
			m.watch(kinds[i].from, *kinds[i].field(r), dep{e, true})
		}
		for _, f := range fallbackLists {
			m.watch(f.from, *f.field(r), dep{e, false})
		}
	}
	m.staleAll()
}

// watch records d as depending on names, looked for in from, wherever a
// change of available tools, servers or toolsets can change the answer.
// It holds m.mu or runs before the Manager is shared.
func (m *Manager) watch(from source, names []string, d dep) {
	deps := m.depsOf(from)
	if deps == nil {
		return
	}
	for _, n := range names {
		deps[n] = append(deps[n], d)
	}
}

// depsOf is the reverse index of the names looked for in from, or nil
// when from is not one of availability's sets: variables and binaries change
// behind the Manager's back (Clear).
func (m *Manager) depsOf(from source) map[string][]dep {
	switch from {
	case fromTools:
		return m.toolDeps
	case fromServers:
		return m.serverDeps
	case fromToolsets:
		return m.toolsetDeps
	}
	return nil
}

// staleAll marks every offer out of date. It holds m.mu.
func (m *Manager) staleAll() {
	m.stale = m.stale[:0]
	for _, e := range m.entries {
		e.stale = true
		m.stale = append(m.stale, e)
	}
	m.promptOK = false
}

func (m *Manager) markStale(e *entry) {
	if !e.stale {
		e.stale = true
		m.stale = append(m.stale, e)
	}
}

// Level returns the enforcement level.
func (m *Manager) Level() Level { return m.validator.Level }

// Catalog returns the current catalog (replaced, never changed, by
// Refresh).
func (m *Manager) Catalog() *Catalog {
	m.mu.RLock()
	defer m.mu.RUnlock()
	return m.cat
}

// Reports returns the current catalog's reports: the files skipped or read
// leniently, overrides, duplicates and unsearchable paths.
func (m *Manager) Reports() []Report { return m.Catalog().Reports }

// Warnings returns the current catalog's skill warnings
// (Catalog.Warnings): the problems in skills that loaded, which no state
// or report shows otherwise.
func (m *Manager) Warnings() []Report { return m.Catalog().Warnings() }

// Skill returns the skill of the given name.
func (m *Manager) Skill(name string) (*Skill, bool) { return m.Catalog().Skill(name) }

// availability returns the tools and servers last given to SetAvailable, and
// the toolsets they make present. Do not modify the sets.
func (m *Manager) availability() availability {
	m.mu.RLock()
	defer m.mu.RUnlock()
	return m.avail
}

// SetAvailable replaces the tools and servers available now; the toolsets
// present are those of the tools (ManagerOptions.Toolsets). Only the
// skills naming a tool, server or toolset that appeared or disappeared are
// affected: their cached results are dropped (where the name is a
// requirement) and their offers recomputed at the next Prompt or Offered.
func (m *Manager) SetAvailable(tools, servers []string) {
	next := availability{Tools: newNameSet(tools...), Servers: newNameSet(servers...), Toolsets: toolsetsOf(tools, m.toolsetOf)}
	m.mu.Lock()
	defer m.mu.Unlock()
	m.flip(m.avail.Tools, next.Tools, m.toolDeps)
	m.flip(m.avail.Servers, next.Servers, m.serverDeps)
	m.flip(m.avail.Toolsets, next.Toolsets, m.toolsetDeps)
	m.avail = next
}

// flip invalidates the dependents of every name in exactly one of old and
// next. It holds m.mu.
func (m *Manager) flip(old, next nameSet, deps map[string][]dep) {
	touch := func(name string) {
		for _, d := range deps[name] {
			if d.result {
				d.e.result = nil
			}
			m.markStale(d.e)
		}
	}
	for n := range old {
		if !next.Has(n) {
			touch(n)
		}
	}
	for n := range next {
		if !old.Has(n) {
			touch(n)
		}
	}
}

// Clear drops every cached result, so that the next use validates again
// (reading environment variables and binaries anew). The skills stay
// (PraisonAI's SkillManager.clear() drops them too).
func (m *Manager) Clear() {
	// Binaries are looked up again before the lock is taken (see
	// binCache); a Refresh meanwhile prefetches into the old cache, and
	// the next validation of one of its skills looks up what this one
	// missed.
	bins := newBinCache(m.host)
	bins.prefetch(m.Catalog().Skills)
	m.mu.Lock()
	defer m.mu.Unlock()
	m.bins, m.validator.Host = bins, bins
	for _, e := range m.entries {
		e.result = nil
	}
	m.staleAll()
}

// result returns e's result, validating it if it is not cached. It holds
// m.mu.
func (m *Manager) result(e *entry) *Result {
	if e.result == nil {
		r := m.validator.Validate(e.skill.Name, &e.skill.Requirements, m.avail)
		e.result = &r
	}
	return e.result
}

// Result returns the validation of the named skill: the cached one, or a
// new one when there is none or forceRefresh is set (which then replaces
// the cached one). An unknown name is an error, as in PraisonAI's
// validate_skill_capabilities.
func (m *Manager) Result(name string, forceRefresh bool) (Result, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	e, ok := m.byName[name]
	if !ok {
		return Result{}, fmt.Errorf("skill %q not found", name)
	}
	if forceRefresh {
		e.result = nil
		m.markStale(e)
	}
	return *m.result(e), nil
}

// Diagnostics validates every skill (cached results are reused) and
// returns the results in catalog order: PraisonAI's
// get_skills_diagnostics.
func (m *Manager) Diagnostics() []Result {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := make([]Result, len(m.entries))
	for i, e := range m.entries {
		out[i] = *m.result(e)
	}
	return out
}

// Cached returns, in catalog order, each skill's cached result, or a result
// in StateUnknown (with nothing listed) for a skill not validated yet. It
// validates nothing.
func (m *Manager) Cached() []Result {
	m.mu.RLock()
	defer m.mu.RUnlock()
	out := make([]Result, len(m.entries))
	for i, e := range m.entries {
		if e.result != nil {
			out[i] = *e.result
		} else {
			out[i] = newResult(e.skill.Name, StateUnknown)
		}
	}
	return out
}

// SkillsByState validates every skill and returns those in state, in
// catalog order: PraisonAI's get_available_skills_by_state.
func (m *Manager) SkillsByState(state State) []*Skill {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []*Skill
	for _, e := range m.entries {
		if m.result(e).State == state {
			out = append(out, e.skill)
		}
	}
	return out
}

// update recomputes the out-of-date offers and reports whether any changed.
// It holds m.mu.
func (m *Manager) update() bool {
	changed := false
	for _, e := range m.stale {
		was := e.offered
		e.offered = offered(e.skill, m.validator.Level, m.avail, func() *Result { return m.result(e) })
		e.stale = false
		changed = changed || was != e.offered
	}
	m.stale = m.stale[:0]
	return changed
}

// Offered returns the skills the model may be offered now, in catalog
// order. A skill is left out when it has disable-model-invocation; when it
// does not support this OS (at every level); under LevelStrict, when it is
// UNAVAILABLE; and, for a fallback skill at every level, when one of its
// own required tools, servers or toolsets is missing or one of the tools,
// servers or toolsets it stands in for is available. Outside strict mode
// every other skill is offered, whatever its state.
func (m *Manager) Offered() []*Skill {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.update() {
		m.promptOK = false
	}
	var out []*Skill
	for _, e := range m.entries {
		if e.offered {
			out = append(out, e.skill)
		}
	}
	return out
}

// Prompt returns the <available_skills> block of the skills offered now
// (the agentskills spec's block, escaped and cut as PraisonAI does), or ""
// when there are none. It is cached: with nothing
// changed it costs a read lock; after SetAvailable it recomputes only the
// affected skills' offers, and rebuilds the text from each skill's cached
// element only if an offer changed.
func (m *Manager) Prompt() string {
	m.mu.RLock()
	if m.promptOK && len(m.stale) == 0 {
		p := m.prompt
		m.mu.RUnlock()
		return p
	}
	m.mu.RUnlock()

	m.mu.Lock()
	defer m.mu.Unlock()
	if m.update() || !m.promptOK {
		m.prompt = m.build()
		m.promptOK = true
	}
	return m.prompt
}

// build writes the prompt of the offered skills from their cached
// elements, in one allocation. It holds m.mu.
func (m *Manager) build() string {
	const head, tail = "<available_skills>", "\n</available_skills>"
	size := 0
	for _, e := range m.entries {
		if e.offered {
			size += len(e.xml)
		}
	}
	if size == 0 {
		return ""
	}
	var sb strings.Builder
	sb.Grow(len(head) + size + len(tail))
	sb.WriteString(head)
	for _, e := range m.entries {
		if e.offered {
			sb.WriteString(e.xml)
		}
	}
	sb.WriteString(tail)
	return sb.String()
}
