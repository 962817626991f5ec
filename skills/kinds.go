package skills

// source is where the items of a requirement, or of a fallback list, are
// looked for.
type source uint8

const (
	// fromTools: an available tool of that name (availability.Tools).
	fromTools source = iota
	// fromServers: an available server of that name (availability.Servers).
	fromServers
	// fromToolsets: a toolset at least one of whose tools is available
	// (availability.HasToolset).
	fromToolsets
	// fromEnv: an environment variable that is set and not empty
	// (Host.LookupEnv): an empty API key is no key.
	fromEnv
	// fromPath: a binary the host's lookup finds (Host.HasBinary).
	fromPath
)

// has reports whether name is present in s, now.
func (s source) has(avail availability, h Host, name string) bool {
	switch s {
	case fromTools:
		return avail.Tools.Has(name)
	case fromServers:
		return avail.Servers.Has(name)
	case fromToolsets:
		return avail.HasToolset(name)
	case fromEnv:
		v, ok := h.LookupEnv(name)
		return ok && v != ""
	case fromPath:
		return h.HasBinary(name)
	}
	return false
}

// kind is one kind of requirement: a list of Requirements whose items are
// each looked for, split into satisfied and missing in the Result, and
// reported with one message when something is missing.
//
// The kinds table drives everything done kind by kind: Validate (the
// checks, the messages and their order, HasCriticalMissing,
// IsFullySatisfied, OpenClaw's always), newResult (every list non-nil),
// Requirements.IsEmpty, the Manager's invalidation and its binary
// prefetch. The frontmatter keys that feed each kind are the listKeys
// table (requirements.go). gatectl's doctor report (internal/skillsview)
// keeps a table of its own, in this one's order, checked against Result.
type kind struct {
	// name names the kind ("tools", "any_bins") in tests' messages, as
	// gatectl's doctor report keys it.
	name string
	// field is the Requirements list the kind reads.
	field func(*Requirements) *[]string
	// from is where each item is looked for.
	from source
	// anyOf: one item present satisfies the kind (OpenClaw's anyBins);
	// then nothing is missing, else every item is.
	anyOf bool
	// always returns the items OpenClaw's always: true lets through
	// unchecked: those only the OpenClaw block declares. nil: OpenClaw
	// cannot declare the kind, so always skips nothing of it.
	always func(*Requirements) []string
	// message opens the message for what is missing, "Missing required
	// tools", which goes on with ": " and the missing items.
	message string
	// critical: something missing sets Result.HasCriticalMissing, which
	// keeps a fallback skill from being offered at every level.
	critical bool
	// satisfied and missing are the kind's lists in Result.
	satisfied, missing func(*Result) *[]string
}

// kinds are the kinds of requirement, in the order Validate checks them
// and reports what is missing. The order of the Result's JSON fields is
// its struct's own, which differs (env comes before toolsets there): it
// is public and kept as it was.
var kinds = []kind{
	{
		name: "tools", field: reqTools, from: fromTools,
		message: "Missing required tools", critical: true,
		satisfied: func(r *Result) *[]string { return &r.SatisfiedTools },
		missing:   func(r *Result) *[]string { return &r.MissingTools },
	},
	{
		name: "servers", field: reqServers, from: fromServers,
		message: "Missing required servers", critical: true,
		satisfied: func(r *Result) *[]string { return &r.SatisfiedServers },
		missing:   func(r *Result) *[]string { return &r.MissingServers },
	},
	{
		name: "toolsets", field: reqToolsets, from: fromToolsets,
		message: "Missing required toolsets", critical: true,
		satisfied: func(r *Result) *[]string { return &r.SatisfiedToolsets },
		missing:   func(r *Result) *[]string { return &r.MissingToolsets },
	},
	{
		// Not critical, as in PraisonAI: a fallback skill missing only
		// variables is still offered outside strict mode.
		name: "env", field: reqEnv, from: fromEnv,
		always:    func(r *Requirements) []string { return r.OpenClawEnv },
		message:   "Missing required environment variables",
		satisfied: func(r *Result) *[]string { return &r.SatisfiedEnvVars },
		missing:   func(r *Result) *[]string { return &r.MissingEnvVars },
	},
	{
		name: "bins", field: reqBins, from: fromPath,
		always:    func(r *Requirements) []string { return r.Bins },
		message:   "Missing required binaries",
		satisfied: func(r *Result) *[]string { return &r.SatisfiedBins },
		missing:   func(r *Result) *[]string { return &r.MissingBins },
	},
	{
		name: "any_bins", field: reqAnyBins, from: fromPath, anyOf: true,
		always:    func(r *Requirements) []string { return r.AnyBins },
		message:   "Missing all of the binaries",
		satisfied: func(r *Result) *[]string { return &r.SatisfiedAnyBins },
		missing:   func(r *Result) *[]string { return &r.MissingAnyBins },
	},
}

// checked returns the items of k that req has checked: all of them,
// except those OpenClaw's always lets through.
func (k *kind) checked(req *Requirements) []string {
	items := *k.field(req)
	if !req.Always || k.always == nil {
		return items
	}
	return without(items, k.always(req))
}

// fallbackList is one fallback_for_* list: a skill that has one is
// offered only while none of its items is present. Fallback lists never
// change a skill's state.
type fallbackList struct {
	field func(*Requirements) *[]string
	// from is where the items are looked for: only availability, so the
	// sources of tools, servers and toolsets.
	from source
}

// fallbackLists drives IsFallback, the offer (offered) and the Manager's
// invalidation.
var fallbackLists = []fallbackList{
	{reqFallbackTools, fromTools},
	{reqFallbackServers, fromServers},
	{reqFallbackToolsets, fromToolsets},
}

// The lists of Requirements the tables above and listKeys read and fill.
func reqTools(r *Requirements) *[]string            { return &r.Tools }
func reqServers(r *Requirements) *[]string          { return &r.Servers }
func reqEnv(r *Requirements) *[]string              { return &r.Env }
func reqToolsets(r *Requirements) *[]string         { return &r.Toolsets }
func reqBins(r *Requirements) *[]string             { return &r.Bins }
func reqAnyBins(r *Requirements) *[]string          { return &r.AnyBins }
func reqConfig(r *Requirements) *[]string           { return &r.Config }
func reqFallbackTools(r *Requirements) *[]string    { return &r.FallbackForTools }
func reqFallbackServers(r *Requirements) *[]string  { return &r.FallbackForServers }
func reqFallbackToolsets(r *Requirements) *[]string { return &r.FallbackForToolsets }

// without returns the items of list not in drop, in list's order.
func without(list, drop []string) []string {
	if len(drop) == 0 {
		return list
	}
	skip := newNameSet(drop...)
	var out []string
	for _, s := range list {
		if !skip.Has(s) {
			out = append(out, s)
		}
	}
	return out
}
