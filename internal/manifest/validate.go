package manifest

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/gate-dev/gate/internal/limits"
)

// The keys each table knows, in the order the documentation gives them
// (and messages list them).
var (
	topKeys     = []string{"runtime", "skills", "tools", "servers"}
	runtimeKeys = []string{"ttl", "grace", "budget", "memory", "cache_dir", "python", "concurrency", "max_runs"}
	skillsKeys  = []string{"paths", "enforcement", "allowed_tools_required", "follow_outside_links"}
	toolKeys    = []string{"name", "description", "parameters", "probe", "toolset"}
	serverKeys  = append([]string{"name", "description", "probe"}, upstreamKeys...)
)

// What [runtime], [[tools]] and [[servers]] accept: their own keys, then
// the availability policy's.
var (
	runtimeAccepts = withPolicy(runtimeKeys)
	toolAccepts    = withPolicy(toolKeys)
	serverAccepts  = withPolicy(serverKeys)
)

func withPolicy(keys []string) []string {
	return append(slices.Clip(keys), policyKeys...)
}

// document checks the whole manifest. Runtime goes first whatever the
// file order, because a probe's budget is checked against runtime.budget.
func (c *checker) document(doc map[string]any) *Manifest {
	m := &Manifest{}
	c.unknownKeys(root, doc, topKeys)
	if v, ok := doc["runtime"]; ok {
		c.runtime(&m.Runtime, v)
	}
	if v, ok := doc["skills"]; ok {
		c.skills(&m.Skills, v)
	}
	if v, ok := doc["tools"]; ok {
		m.Tools = c.tools(v)
	}
	if v, ok := doc["servers"]; ok {
		m.Servers = c.servers(v)
	}
	return m
}

func (c *checker) runtime(r *Runtime, v any) {
	at := c.key(root, "runtime")
	t, ok := c.table(at, v, "a table ([runtime])")
	if !ok {
		return
	}
	c.unknownKeys(at, t, runtimeAccepts)
	if d, p, ok := c.duration(at, t, "ttl"); ok {
		if d < 0 {
			c.valueErr(p, "ttl %v: want 0 or more (0 re-probes every time)", d)
		} else {
			r.TTL = &d
		}
	}
	if d, p, ok := c.duration(at, t, "grace"); ok {
		if d < 0 {
			c.valueErr(p, "grace %v: want 0 or more (0 drops a failing tool as soon as its TTL runs out)", d)
		} else {
			r.Grace = &d
		}
	}
	if d, p, ok := c.duration(at, t, "budget"); ok {
		if err := checkBudget(d); err != nil {
			c.valueErr(p, "%v", err)
		} else {
			r.Budget = &d
			c.runtimeBudget = &d
		}
	}
	if v, p, ok := c.field(at, t, "memory"); ok {
		if n, ok := c.memory(p, v); ok {
			r.Memory = &n
		}
	}
	if s, _, ok := c.strField(at, t, "cache_dir", `a directory (a string; "" for no cache)`); ok {
		if s != "" {
			s = c.resolve(s)
		}
		r.CacheDir = &s
	}
	if s, p, ok := c.strField(at, t, "python", `a command or path (a string), like "python3"`); ok {
		switch {
		case strings.TrimSpace(s) == "":
			c.valueErr(p, `empty: want a command like "python3" or a path; leave python out for the default`)
		case strings.ContainsRune(s, '/') || strings.ContainsRune(s, '\\'):
			// A path, like a shell's: relative to the manifest, so the
			// manifest can name a virtualenv next to it.
			r.Python = c.resolve(s)
		default:
			r.Python = s
		}
	}
	r.Concurrency = c.count(at, t, "concurrency")
	r.MaxRuns = c.count(at, t, "max_runs")
	r.Policy = c.policy(at, t)
}

// count reads the runtime's key, a count of at least 1; 0 when it is not
// set or is refused.
func (c *checker) count(runtime place, t map[string]any, key string) int {
	v, ok := t[key]
	if !ok {
		return 0
	}
	p := c.key(runtime, key)
	n, isInt := v.(int64)
	switch {
	case !isInt:
		c.valueErr(p, "want an integer, got %s", describe(v))
	case n < 1:
		c.valueErr(p, "%s %d: want at least 1", key, n)
	case n > math.MaxInt32:
		// An int everywhere, and far more than any host can run.
		c.valueErr(p, "%s %d: want at most %d", key, n, math.MaxInt32)
	default:
		return int(n)
	}
	return 0
}

// duration reads an optional duration string key of the table t at
// parent, returning it with its place.
func (c *checker) duration(parent place, t map[string]any, key string) (time.Duration, place, bool) {
	s, p, ok := c.strField(parent, t, key, `a duration string like "30s"`)
	if !ok {
		return 0, p, false
	}
	d, err := parseDuration(s)
	if err != nil {
		c.valueErr(p, "%v", err)
		return 0, p, false
	}
	return d, p, true
}

// memory reads runtime.memory: a size string or a plain byte count.
func (c *checker) memory(at place, v any) (uint64, bool) {
	var n uint64
	switch v := v.(type) {
	case string:
		var err error
		if n, err = ParseSize(v); err != nil {
			c.valueErr(at, "%v", err)
			return 0, false
		}
	case int64:
		if v < 0 {
			c.valueErr(at, "memory %d: want a size from 64KiB to 4GiB", v)
			return 0, false
		}
		n = uint64(v)
	default:
		c.valueErr(at, `want a size like "32MiB" or a number of bytes, got %s`, describe(v))
		return 0, false
	}
	switch {
	case n < limits.MinMemory:
		c.valueErr(at, "memory %s: want at least 64KiB (one WebAssembly page)", formatSize(n))
	case n > limits.MaxMemory:
		c.valueErr(at, "memory %s: want at most 4GiB (all that a 32-bit module can address)", formatSize(n))
	default:
		return n, true
	}
	return 0, false
}

func (c *checker) skills(s *Skills, v any) {
	at := c.key(root, "skills")
	t, ok := c.table(at, v, "a table ([skills])")
	if !ok {
		return
	}
	s.Pos = c.pos(c.tableSpan(at))
	c.unknownKeys(at, t, skillsKeys)
	if v, ok := t["paths"]; ok {
		if paths, ok := c.stringList(c.key(at, "paths"), v, "directory", "directories"); ok {
			s.Paths = make([]string, len(paths))
			for i, p := range paths {
				s.Paths[i] = c.resolve(p)
			}
		}
	}
	if w, p, ok := c.strField(at, t, "enforcement", `an enforcement level (a string), like "warn"`); ok {
		if level, err := ParseEnforcement(w); err != nil {
			c.valueErr(p, "%v", err)
		} else {
			s.Enforcement = level
		}
	}
	if b, ok := c.boolField(at, t, "allowed_tools_required"); ok {
		s.AllowedToolsRequired = &b
	}
	s.FollowOutsideLinks, _ = c.boolField(at, t, "follow_outside_links")
}

// toolset checks a tool's toolset s, at p: a name a skill's
// requires_toolsets can hold, "" when it is bad (and reported).
func (c *checker) toolset(p place, s string) string {
	if !validToolset(s) {
		c.valueErr(p, `bad toolset %q: want 1 to 64 letters, digits, _ - or . (a Hermes toolset such as "web" or "terminal"); leave toolset out for the tool's own name`, s)
		return ""
	}
	return s
}

// validToolset reports whether s can be a toolset's name: what Hermes
// calls its toolsets ("web", "image_gen", "mcp-github") fits.
func validToolset(s string) bool { return nameOf(s, 64, "_-.") }

// entryKind is what differs between tools and servers.
type entryKind struct {
	array     string   // "tools"
	noun      string   // "tool"
	keys      []string // known keys
	checkName func(string) error
}

var (
	toolKind   = entryKind{"tools", "tool", toolAccepts, checkToolName}
	serverKind = entryKind{"servers", "server", serverAccepts, checkServerName}
)

func (c *checker) tools(v any) []Tool {
	var out []Tool
	if arr, ok := v.([]any); ok && len(arr) > 0 {
		out = make([]Tool, 0, len(arr))
	}
	c.entries(toolKind, v, func(e *checkedEntry) { out = append(out, c.toolOf(e)) })
	return out
}

// toolOf is the Tool of a checked [[tools]] entry, with the keys only a
// tool has read and checked.
func (c *checker) toolOf(e *checkedEntry) Tool {
	tool := Tool{Name: e.name, Description: e.desc, Probe: e.probe, Policy: e.policy, Pos: e.pos}
	if v, p, ok := c.field(e.at, e.t, "parameters"); ok {
		tool.Parameters = c.parameters(p, v)
	}
	if s, p, ok := c.strField(e.at, e.t, "toolset", `a toolset name (a string) like "web"`); ok {
		tool.Toolset = c.toolset(p, s)
	}
	return tool
}

func (c *checker) servers(v any) []Server {
	var out []Server
	c.entries(serverKind, v, func(e *checkedEntry) {
		out = append(out, Server{Name: e.name, Description: e.desc, Probe: e.probe, Policy: e.policy, Upstream: c.upstream(e.at, e.t), Pos: e.pos})
	})
	return out
}

// entries checks an array of tools or servers: the keys they share, and
// that names are unique. add is called for each, with what was read.
func (c *checker) entries(k entryKind, v any, add func(e *checkedEntry)) {
	at := c.key(root, k.array)
	arr, ok := c.tableArray(at, v, k.array, k.noun)
	if !ok {
		return
	}
	// The first entry with each name, by index: its position is only
	// needed for a duplicate.
	first := make(map[string]int, len(arr))
	for i, el := range arr {
		e, ok := c.entryHead(k, c.elem(at, i), el)
		if !ok {
			continue
		}
		if e.name != "" {
			if j, dup := first[e.name]; dup {
				p := c.pos(c.valueSpan(c.key(c.elem(at, j), "name")))
				c.valueErr(c.key(e.at, "name"), "duplicate %s name %q: already used at line %d", k.noun, e.name, p.Line)
				e.name = ""
			} else {
				first[e.name] = i
			}
		}
		c.entryTail(&e)
		add(&e)
	}
}

// tableArray returns v, the array of tables at the place at, or reports
// that it is not one, with a hint when it is a table written as [name]
// instead of [[name]] (one per noun).
func (c *checker) tableArray(at place, v any, name, noun string) ([]any, bool) {
	arr, ok := v.([]any)
	if !ok {
		hint := ""
		if _, isTable := v.(map[string]any); isTable {
			hint = fmt.Sprintf(" (write [[%s]], with two brackets, once per %s)", name, noun)
		}
		c.valueErr(at, "want an array of tables, got %s%s", describe(v), hint)
	}
	return arr, ok
}

// checkedEntry is what entryHead and entryTail read of one tool or
// server.
type checkedEntry struct {
	at         place
	t          map[string]any
	pos        Position
	name, desc string
	probe      *Probe
	policy     *Policy
}

// entryHead checks the element at of an array of tools or servers up to
// its name, which it returns only when good (its uniqueness is the
// caller's to check); ok is false when the element is not a table.
func (c *checker) entryHead(k entryKind, at place, el any) (e checkedEntry, ok bool) {
	e.at = at
	e.t, ok = c.table(at, el, "a table")
	if !ok {
		return e, false
	}
	v, ok := e.t["name"]
	e.pos = c.pos(c.tableSpan(at))
	c.unknownKeys(at, e.t, k.keys)
	if !ok {
		c.missing(at, "name", "missing name: every %s needs one", k.noun)
		return e, true
	}
	p := c.key(at, "name")
	if s, ok := c.str(p, v, "a name (a string)"); ok {
		if err := k.checkName(s); err != nil {
			c.valueErr(p, "%v", err)
		} else {
			e.name = s
		}
	}
	return e, true
}

// entryTail checks the rest of what tools and servers share: the
// description and the probe.
func (c *checker) entryTail(e *checkedEntry) {
	if s, p, ok := c.strField(e.at, e.t, "description", "a string"); ok {
		if len(s) > c.lim.MaxDescription {
			c.valueErr(p, "description of %d bytes: want at most %s; a description goes to the model with every request (manifest.Limits.MaxDescription)",
				len(s), formatSize(uint64(c.lim.MaxDescription)))
		} else {
			e.desc = s
		}
	}
	if v, p, ok := c.field(e.at, e.t, "probe"); ok {
		e.probe = c.probe(p, v)
	}
	e.policy = c.policy(e.at, e.t)
}
