package skills

import (
	"github.com/gate-dev/gate/internal/skillhost"

	"context"
	"fmt"
	"log/slog"
	"strings"
)

// State is a skill's standing after validation.
type State string

// States, with the values of PraisonAI's SkillState.
const (
	// StateActive: every requirement is met.
	StateActive State = "active"
	// StateDegraded: something is missing, reported as a warning; the
	// skill is still offered (outside fallback rules).
	StateDegraded State = "degraded"
	// StateUnavailable: something is missing and reported as an error
	// (strict mode), or the skill does not support this OS.
	StateUnavailable State = "unavailable"
	// StateUnknown: not validated yet.
	StateUnknown State = "unknown"
)

// nameSet is a set of names: the tools or servers available now.
type nameSet map[string]struct{}

// newNameSet makes a set of names.
func newNameSet(names ...string) nameSet {
	s := make(nameSet, len(names))
	for _, n := range names {
		s[n] = struct{}{}
	}
	return s
}

// Has reports whether name is in the set; a nil nameSet is empty.
func (s nameSet) Has(name string) bool {
	_, ok := s[name]
	return ok
}

// availability is what the agent can use right now: the tools and the servers
// that are available, not merely registered, and the toolsets they make
// present. (PraisonAI checks registered tool names, so there a tool whose
// probe failed still satisfies requires_tools and still hides the fallback
// meant to replace it.)
type availability struct {
	// Tools are the names of the tools available now.
	Tools nameSet
	// Servers are the names of the servers available now
	// ("mcp:filesystem").
	Servers nameSet
	// Toolsets are the toolsets present now: the toolset of each
	// available tool (see ManagerOptions.Toolsets), as Hermes counts a
	// toolset present when any one of its tools is.
	Toolsets nameSet
}

// HasToolset reports whether toolset name is present (in Toolsets).
func (a availability) HasToolset(name string) bool { return a.Toolsets.Has(name) }

// toolsetsOf is the set of the toolsets of tools: toolsetOf[t] for a tool
// that names one, and t itself for any other, the fallback that lets a
// tool named "terminal" stand for Hermes' terminal toolset.
func toolsetsOf(tools []string, toolsetOf map[string]string) nameSet {
	out := make(nameSet, len(tools))
	for _, t := range tools {
		if ts, ok := toolsetOf[t]; ok {
			t = ts
		}
		out[t] = struct{}{}
	}
	return out
}

// Result is the validation of one skill. The fields up to
// HasCriticalMissing, and their JSON names and order, are PraisonAI's
// ValidationResult.to_dict() keys, in its order; the rest cover the
// OpenClaw and Hermes requirements. Every list is non-nil, so JSON shows
// [] for an empty one, as to_dict does.
// Results are shared: do not modify one.
type Result struct {
	// SkillName is the skill validated.
	SkillName string `json:"skill_name"`
	// State is the outcome; StateUnknown only from Manager.Cached.
	State State `json:"state"`
	// SatisfiedTools and MissingTools split Requirements.Tools by whether
	// each is available, in the requirement's order.
	SatisfiedTools []string `json:"satisfied_tools"`
	MissingTools   []string `json:"missing_tools"`
	// SatisfiedServers and MissingServers split Requirements.Servers.
	SatisfiedServers []string `json:"satisfied_servers"`
	MissingServers   []string `json:"missing_servers"`
	// SatisfiedEnvVars and MissingEnvVars split the variables checked
	// (set and not empty, or not).
	SatisfiedEnvVars []string `json:"satisfied_env_vars"`
	MissingEnvVars   []string `json:"missing_env_vars"`
	// Warnings are the missing requirements outside strict mode, one
	// message per kind ("Missing required tools: a, b").
	Warnings []string `json:"warnings"`
	// Errors are the missing requirements in strict mode, and an OS the
	// skill does not support in every mode.
	Errors []string `json:"errors"`
	// IsFullySatisfied: nothing is missing and there are no errors.
	IsFullySatisfied bool `json:"is_fully_satisfied"`
	// HasCriticalMissing: a required tool, server or toolset is missing.
	// Missing environment variables and binaries do not count, as in
	// PraisonAI's has_critical_missing: a fallback skill missing only
	// those is still offered outside strict mode.
	HasCriticalMissing bool `json:"has_critical_missing"`

	// SatisfiedToolsets and MissingToolsets split Requirements.Toolsets.
	SatisfiedToolsets []string `json:"satisfied_toolsets"`
	MissingToolsets   []string `json:"missing_toolsets"`
	// SatisfiedBins and MissingBins split Requirements.Bins (both empty
	// when Always skips them).
	SatisfiedBins []string `json:"satisfied_bins"`
	MissingBins   []string `json:"missing_bins"`
	// SatisfiedAnyBins are the binaries of requires.anyBins found;
	// MissingAnyBins lists all of them when none was found, else nothing.
	SatisfiedAnyBins []string `json:"satisfied_any_bins"`
	MissingAnyBins   []string `json:"missing_any_bins"`
	// OS is the host's operating system; SupportedOS the skill's list
	// (empty: all); OSSupported whether they match.
	OS          string   `json:"os"`
	SupportedOS []string `json:"supported_os"`
	OSSupported bool     `json:"os_supported"`
	// Notes are what was not checked, and why (OpenClaw requires.config,
	// always: true); they never change the state.
	Notes []string `json:"notes"`
}

// newResult is a result with every list empty (not nil, so that JSON shows
// [], as PraisonAI's to_dict does) and nothing missing.
func newResult(name string, state State) Result {
	r := Result{
		SkillName: name, State: state,
		Warnings: []string{}, Errors: []string{},
		SupportedOS: []string{}, OSSupported: true, Notes: []string{},
	}
	for i := range kinds {
		*kinds[i].satisfied(&r), *kinds[i].missing(&r) = []string{}, []string{}
	}
	return r
}

// skillValidator checks skills' requirements against what is available, at one
// enforcement level. Its zero value validates at LevelWarn against the
// running process (skillhost.System), as PraisonAI's CapabilityValidator() does,
// but logs nothing (PraisonAI's logs to its default logger: a library here
// speaks only when its caller gives it a Logger). It holds no state:
// caching is the Manager's.
type skillValidator struct {
	// Level is the enforcement level; the zero value is LevelWarn.
	Level Level
	// Host answers environment variables, binaries and the OS; nil means
	// skillhost.System{}.
	Host Host
	// Logger receives the log lines; nil logs nothing: a library speaks
	// only when asked, and slog.Default is the application's, not gate's.
	Logger *slog.Logger
}

func (v skillValidator) host() Host {
	if v.Host == nil {
		return skillhost.System{}
	}
	return v.Host
}

// Validate checks req (the requirements of skill name) against avail and
// the Host, kind by kind in the order of the kinds table (kinds.go), one
// message per kind that has something missing, then the OS:
//
//	Missing required tools: a, b
//	Missing required servers: a, b
//	Missing required toolsets: a
//	Missing required environment variables: A, B   (set and not empty)
//	Missing required binaries: a, b                 (OpenClaw requires.bins)
//	Missing all of the binaries: a, b               (OpenClaw requires.anyBins)
//	Not supported on linux (supports: darwin, windows)
//
// Under LevelStrict each message is an error, at other levels a warning;
// the OS message is always an error, since no level can make the skill
// work on this host. State: any error gives UNAVAILABLE, else any warning
// DEGRADED, else ACTIVE. nil or empty requirements give ACTIVE without
// looking at anything. Always (OpenClaw) skips the binaries and the
// variables only the OpenClaw block declares. Fallback lists never change
// the state: they decide whether the skill is offered (see Manager).
//
// It logs to v.Logger, when set, as PraisonAI's CapabilityValidator does,
// with its texts: nothing under LevelDisabled; otherwise UNAVAILABLE in
// strict mode at ERROR ("Skill 'n' blocked: ..."), DEGRADED at WARN
// ("Skill 'n' partially available: ...") and ACTIVE at DEBUG ("Skill 'n'
// requirements satisfied"). An UNAVAILABLE outside strict mode, which only an
// unsupported OS gives, is at WARN ("Skill 'n' unavailable: ...").
func (v skillValidator) Validate(name string, req *Requirements, avail availability) Result {
	r := newResult(name, StateActive)
	h := v.host()
	r.OS = h.OS()
	if req.IsEmpty() {
		r.IsFullySatisfied = true
		return r
	}
	report := func(msg string) {
		if v.Level == LevelStrict {
			r.Errors = append(r.Errors, msg)
		} else {
			r.Warnings = append(r.Warnings, msg)
		}
	}

	missing, skipped := false, false
	for i := range kinds {
		k := &kinds[i]
		sat, miss := k.satisfied(&r), k.missing(&r)
		for _, n := range k.checked(req) {
			if k.from.has(avail, h, n) {
				*sat = append(*sat, n)
			} else {
				*miss = append(*miss, n)
			}
		}
		if k.anyOf && len(*sat) > 0 {
			*miss = []string{}
		}
		if req.Always && k.always != nil && len(k.always(req)) > 0 {
			skipped = true
		}
		if len(*miss) == 0 {
			continue
		}
		report(k.message + ": " + strings.Join(*miss, ", "))
		missing = true
		r.HasCriticalMissing = r.HasCriticalMissing || k.critical
	}
	if skipped {
		r.Notes = append(r.Notes, "OpenClaw always: true: its requires.bins, requires.anyBins and requires.env are not checked")
	}

	if len(req.OS) > 0 {
		r.SupportedOS = req.OS
		r.OSSupported = false
		for _, o := range req.OS {
			if o == r.OS {
				r.OSSupported = true
			}
		}
		if !r.OSSupported {
			r.Errors = append(r.Errors, fmt.Sprintf("Not supported on %s (supports: %s)", r.OS, strings.Join(req.OS, ", ")))
		}
	}
	for _, c := range req.Config {
		r.Notes = append(r.Notes, fmt.Sprintf("OpenClaw requires.config %s: not checked (a setting of openclaw.json)", c))
	}

	switch {
	case len(r.Errors) > 0:
		r.State = StateUnavailable
	case len(r.Warnings) > 0:
		r.State = StateDegraded
	}
	r.IsFullySatisfied = !missing && len(r.Errors) == 0
	v.log(&r)
	return r
}

// log writes the result's log line; see Validate.
func (v skillValidator) log(r *Result) {
	if v.Level == LevelDisabled {
		return
	}
	l := v.Logger
	if l == nil {
		return
	}
	ctx := context.Background()
	switch r.State {
	case StateUnavailable:
		if v.Level == LevelStrict {
			l.Log(ctx, slog.LevelError, fmt.Sprintf("Skill '%s' blocked: %s", r.SkillName, strings.Join(r.Errors, "; ")))
		} else {
			l.Log(ctx, slog.LevelWarn, fmt.Sprintf("Skill '%s' unavailable: %s", r.SkillName, strings.Join(r.Errors, "; ")))
		}
	case StateDegraded:
		l.Log(ctx, slog.LevelWarn, fmt.Sprintf("Skill '%s' partially available: %s", r.SkillName, strings.Join(r.Warnings, "; ")))
	case StateActive:
		if l.Enabled(ctx, slog.LevelDebug) {
			l.Log(ctx, slog.LevelDebug, fmt.Sprintf("Skill '%s' requirements satisfied", r.SkillName))
		}
	}
}
