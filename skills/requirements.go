package skills

import (
	"fmt"

	"go.yaml.in/yaml/v3"
)

// Requirements is everything a skill needs to work, and what it stands in
// for, merged from every dialect a SKILL.md may use:
//
//	PraisonAI top level   requires_tools, requires_servers, requires_env,
//	                      fallback_for_tools, fallback_for_servers (each also
//	                      with hyphens), allowed-tools, openclaw
//	OpenClaw              metadata.openclaw (or a legacy clawdbot, clawdis,
//	                      moltbot): requires.bins, requires.anyBins,
//	                      requires.env, requires.config, os, always
//	Hermes                metadata.hermes: requires_tools, requires_toolsets,
//	                      fallback_for_tools, fallback_for_toolsets; and the
//	                      top-level platforms and
//	                      required_environment_variables
//
// Every list keeps the first-seen order (PraisonAI, then OpenClaw, then
// Hermes) and holds no duplicates (PraisonAI keeps duplicates, which only
// repeat names in its messages). The keys feeding each list are the
// listKeys table; the lists checked against what is available are the
// kinds table (kinds.go).
type Requirements struct {
	// Tools must all be available: requires_tools, the tool names of
	// allowed-tools (unless DiscoverOptions.AllowedToolsRequired is false) and
	// Hermes' requires_tools.
	Tools []string `json:"tools,omitempty"`
	// Servers must all be available (requires_servers), kept verbatim:
	// "mcp:filesystem".
	Servers []string `json:"servers,omitempty"`
	// Env must all be set and not empty: requires_env, OpenClaw's
	// requires.env and Hermes' required_environment_variables.
	Env []string `json:"env,omitempty"`
	// OpenClawEnv are the names in Env that only the OpenClaw block
	// declares (neither requires_env nor required_environment_variables
	// does): the ones Always lets through unchecked.
	OpenClawEnv []string `json:"openclaw_env,omitempty"`
	// Bins must all be found by the host's binary lookup (OpenClaw
	// requires.bins).
	Bins []string `json:"bins,omitempty"`
	// AnyBins needs at least one of its binaries (OpenClaw
	// requires.anyBins).
	AnyBins []string `json:"any_bins,omitempty"`
	// Config are OpenClaw requires.config paths into openclaw.json. gate
	// cannot check them: they become notes in the Result and never change
	// the state.
	Config []string `json:"config,omitempty"`
	// OS lists the operating systems the skill works on, as GOOS values
	// (OpenClaw's win32 and Hermes' macos are translated); empty means all.
	OS []string `json:"os,omitempty"`
	// Always is OpenClaw's always: true: Bins, AnyBins and OpenClawEnv are
	// not checked (OS still is, as in OpenClaw).
	Always bool `json:"always,omitempty"`
	// Toolsets must all be present (Hermes requires_toolsets). A toolset
	// is present while at least one of its tools is available
	// (see ManagerOptions.Toolsets).
	Toolsets []string `json:"toolsets,omitempty"`
	// FallbackForTools makes the skill a fallback: it is offered only when
	// none of these tools is available (fallback_for_tools, and Hermes').
	FallbackForTools []string `json:"fallback_for_tools,omitempty"`
	// FallbackForServers: offered only when none of these servers is
	// available.
	FallbackForServers []string `json:"fallback_for_servers,omitempty"`
	// FallbackForToolsets (Hermes): offered only when none of these
	// toolsets is present.
	FallbackForToolsets []string `json:"fallback_for_toolsets,omitempty"`
	// AllowedTools are the allowed-tools permission patterns as written
	// ("Bash(git add:*)"), whether or not their tools are required.
	AllowedTools []string `json:"allowed_tools,omitempty"`
	// OpenClawHints is the top-level openclaw mapping, passed through as
	// PraisonAI does (a value that is not a mapping gives nil), with
	// values JSON can carry: YAML timestamps and the like become strings.
	OpenClawHints map[string]any `json:"openclaw_hints,omitempty"`
}

// IsEmpty reports whether nothing at all was declared: PraisonAI's
// SkillRequirements.is_empty, extended to the fields it does not have.
// Empty requirements always validate as ACTIVE.
func (r *Requirements) IsEmpty() bool {
	if r == nil {
		return true
	}
	for i := range kinds {
		if len(*kinds[i].field(r)) > 0 {
			return false
		}
	}
	return len(r.Config) == 0 && len(r.OS) == 0 && !r.Always && !r.IsFallback() &&
		len(r.AllowedTools) == 0 && len(r.OpenClawHints) == 0
}

// IsFallback reports whether the skill stands in for a capability (any
// fallback_for_* list is set): it is offered only while all of them are
// absent.
func (r *Requirements) IsFallback() bool {
	if r == nil {
		return false
	}
	for _, f := range fallbackLists {
		if len(*f.field(r)) > 0 {
			return true
		}
	}
	return false
}

// parseOptions tune how a SKILL.md is read: DiscoverOptions'
// AllowedToolsRequired.
type parseOptions struct {
	AllowedToolsRequired *bool
}

func (o parseOptions) allowedToolsRequired() bool {
	return o.AllowedToolsRequired == nil || *o.AllowedToolsRequired
}

// reqReader collects requirements from a frontmatter, reporting values of
// the wrong shape.
type reqReader struct {
	fm   *fields
	opts parseOptions
	warn func(Issue)
	req  Requirements
}

// where is where in a frontmatter a listKey is looked for. The places are
// read in this order, which is the first-seen order of every list:
// PraisonAI, then OpenClaw, then Hermes.
type where uint8

const (
	// praisonAI: a top-level key, the first of keys present.
	praisonAI where = iota
	// openClawRequires: a key of the requires mapping of OpenClaw's block
	// (metadata.openclaw, or a legacy name: openClawKeys).
	openClawRequires
	// hermesBlock: a key of metadata.hermes.
	hermesBlock
	// hermesTop: a top-level key Hermes defines, read after its block.
	hermesTop
)

// listKey is a frontmatter key holding a list of names, and the
// Requirements list it feeds.
type listKey struct {
	at   where
	keys []string // the key, then aliases read only when it is absent
	// read turns the value into names; what names the key in warnings.
	read func(rr *reqReader, what string, n *yaml.Node) []string
	// add puts the names in the Requirements, keeping the first-seen
	// order and no duplicates.
	add func(r *Requirements, names []string)
}

// listKeys are the keys that feed the lists of Requirements, in the order
// they are read. allowed-tools (permission patterns), OpenClaw's os and
// always, Hermes' platforms and the openclaw hints need more than a list
// of names and are read in readRequirements.
var listKeys = []listKey{
	// PraisonAI's, exactly as it reads them: the underscore form first,
	// the first key present wins.
	{praisonAI, []string{"requires_tools", "requires-tools"}, readList, appendTo(reqTools)},
	{praisonAI, []string{"requires_servers", "requires-servers"}, readList, appendTo(reqServers)},
	{praisonAI, []string{"requires_env", "requires-env"}, readList, addEnv},
	{praisonAI, []string{"fallback_for_tools", "fallback-for-tools"}, readList, appendTo(reqFallbackTools)},
	{praisonAI, []string{"fallback_for_servers", "fallback-for-servers"}, readList, appendTo(reqFallbackServers)},

	// OpenClaw's requires (see readOpenClaw).
	{openClawRequires, []string{"bins"}, readCSV, appendTo(reqBins)},
	{openClawRequires, []string{"anyBins"}, readCSV, appendTo(reqAnyBins)},
	{openClawRequires, []string{"env"}, readCSV, addOpenClawEnv},
	{openClawRequires, []string{"config"}, readCSV, appendTo(reqConfig)},

	// Hermes' (see readHermes and readEnvEntries).
	{hermesBlock, []string{"requires_tools"}, readList, appendTo(reqTools)},
	{hermesBlock, []string{"requires_toolsets"}, readList, appendTo(reqToolsets)},
	{hermesBlock, []string{"fallback_for_tools"}, readList, appendTo(reqFallbackTools)},
	{hermesBlock, []string{"fallback_for_toolsets"}, readList, appendTo(reqFallbackToolsets)},
	{hermesTop, []string{"required_environment_variables"}, readEnvEntries, addEnv},
}

// readKeys reads the listKeys found at at; get looks a key up there and
// says how warnings name it.
func (rr *reqReader) readKeys(at where, get func(key string) (n *yaml.Node, what string)) {
	for _, k := range listKeys {
		if k.at != at {
			continue
		}
		for _, key := range k.keys {
			if n, what := get(key); n != nil {
				k.add(&rr.req, k.read(rr, what, n))
				break
			}
		}
	}
}

// topLevel looks a key up among the frontmatter's top-level keys, whose
// values are lists: every top-level list key is read through it. A key
// present with no value gives a null node, not nil: it is present, so
// its aliases are not read. So does a value the line parser could not
// parse as the list or mapping it starts as ("requires_tools: [terminal"),
// which is reported at its line rather than read as text, whose names
// ("[terminal") no tool could ever have.
func (rr *reqReader) topLevel(key string) (*yaml.Node, string) {
	n, _, ok := rr.fm.get(key)
	if !ok {
		return nil, ""
	}
	if bad := rr.fm.malformed(key); bad != nil {
		rr.warn(Issue{Code: CodeRequirement, Line: bad.Line, Message: fmt.Sprintf(
			"%s: malformed value %s: ignored", key, bad.Message)})
		n = nil
	}
	if n == nil {
		n = &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!null"}
	}
	return n, key
}

// readList reads a list as PraisonAI does (normalizeList); a mapping,
// which it would silently ignore, is also reported.
func readList(rr *reqReader, what string, n *yaml.Node) []string {
	r := resolve(n)
	if r != nil && r.Kind == yaml.MappingNode {
		rr.warn(Issue{Code: CodeRequirement, Line: r.Line,
			Message: fmt.Sprintf("%s is a mapping, not a list of names: ignored", what)})
		return nil
	}
	return normalizeNode(n)
}

// readCSV reads a list as OpenClaw's normalizeCsvOrLooseStringList does
// (normalizeCSVList): anything but a list or a string gives nothing,
// silently, as there.
func readCSV(_ *reqReader, _ string, n *yaml.Node) []string { return normalizeNode(n) }

// appendTo adds names to the list field returns.
func appendTo(field func(*Requirements) *[]string) func(*Requirements, []string) {
	return func(r *Requirements, names []string) {
		f := field(r)
		*f = appendUnique(*f, names...)
	}
}

// addEnv adds names to Env from a key other than OpenClaw's: they are no
// longer declared by the OpenClaw block alone, so always: true no longer
// skips them.
func addEnv(r *Requirements, names []string) {
	r.Env = appendUnique(r.Env, names...)
	r.OpenClawEnv = without(r.OpenClawEnv, names)
}

// addOpenClawEnv adds OpenClaw's requires.env to Env; the names no earlier
// key declared are OpenClawEnv too.
func addOpenClawEnv(r *Requirements, names []string) {
	declared := newNameSet(r.Env...)
	for _, e := range names {
		if !declared.Has(e) {
			declared[e] = struct{}{}
			r.Env = append(r.Env, e)
			r.OpenClawEnv = append(r.OpenClawEnv, e)
		}
	}
}

// readRequirements reads every requirement a frontmatter declares, and
// which OpenClaw metadata block (if any) it came from.
func readRequirements(fm *fields, opts parseOptions, warn func(Issue)) (Requirements, string) {
	rr := &reqReader{fm: fm, opts: opts, warn: warn}
	r := &rr.req

	rr.readKeys(praisonAI, rr.topLevel)

	// allowed-tools, hyphen only, as PraisonAI reads it (allowed_tools is
	// not read): permission patterns, each requiring its tool name.
	if n, _ := rr.topLevel("allowed-tools"); n != nil {
		patterns, tools := allowedTools(toPlain(n))
		r.AllowedTools = patterns
		if opts.allowedToolsRequired() {
			r.Tools = appendUnique(r.Tools, tools...)
		}
	}

	if n, _, ok := fm.get("openclaw"); ok {
		if m, isMap := newConverter().json(n).(map[string]any); isMap && len(m) > 0 {
			r.OpenClawHints = m
		}
	}

	var block string
	if meta := readMetadata(fm, warn); meta != nil {
		if key, ok := readOpenClaw(meta, rr); ok {
			block = "metadata." + key
		}
		readHermes(meta, rr)
	}
	if n, _ := rr.topLevel("platforms"); n != nil {
		r.OS = appendUnique(r.OS, readPlatforms(n, warn)...)
	}
	rr.readKeys(hermesTop, rr.topLevel)
	return rr.req, block
}
