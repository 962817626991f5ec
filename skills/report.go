package skills

import "fmt"

// The JSON shapes of `gatectl skills --json` (List), `gatectl doctor skills
// --json [--requirements]` (Doctor) and their HTTP twins /v1/skills and
// /v1/diagnostics, built in one place so that a client can move between
// the CLI and the service without noticing.

// List is every skill with its state and whether the prompt offers it.
type List struct {
	EnforcementLevel string      `json:"enforcement_level"`
	Offered          int         `json:"offered"`
	Skills           []ListEntry `json:"skills"`
}

// ListEntry is one skill of a List.
type ListEntry struct {
	Name        string   `json:"name"`
	Description string   `json:"description"`
	Location    string   `json:"location"`
	State       string   `json:"state"`
	Offered     bool     `json:"offered"`
	Warnings    []string `json:"warnings"`
	Errors      []string `json:"errors"`
}

// Doctor is the Summary (the keys of PraisonAI's doctor), plus, with
// requirements, every skill's requirements and what discovery had to say
// about files.
type Doctor struct {
	Summary
	Skills []Requirement `json:"skills,omitempty"`
	Files  []Report      `json:"files,omitempty"`
	// ParseWarnings are what the skills' own files got wrong and the skill
	// was loaded despite (an agentskills name rule broken, metadata that
	// is not JSON, an unknown platform): no requirement check shows them.
	ParseWarnings []ParseWarning `json:"parse_warnings"`
}

// ParseWarning is one warning of parsing one kept skill's SKILL.md.
type ParseWarning struct {
	Skill   string `json:"skill"`
	Path    string `json:"path"`
	Line    int    `json:"line,omitempty"`
	Code    string `json:"code"`
	Message string `json:"message"`
}

func (w ParseWarning) String() string {
	if w.Line > 0 {
		return fmt.Sprintf("%s:%d: %s: %s", w.Path, w.Line, w.Skill, w.Message)
	}
	return fmt.Sprintf("%s: %s: %s", w.Path, w.Skill, w.Message)
}

// Requirement is one skill's requirements, kind by kind: one Split per
// entry of the kinds table (kinds.go), which fills it.
type Requirement struct {
	Name     string   `json:"name"`
	Location string   `json:"location"`
	State    string   `json:"state"`
	Tools    Split    `json:"tools"`
	Servers  Split    `json:"servers"`
	Env      Split    `json:"env"`
	Toolsets Split    `json:"toolsets"`
	Bins     Split    `json:"bins"`
	AnyBins  Split    `json:"any_bins"`
	Warnings []string `json:"warnings"`
	Errors   []string `json:"errors"`
	Notes    []string `json:"notes"`
}

// Split is what of one kind of requirement is met and what is missing.
type Split struct {
	Satisfied []string `json:"satisfied"`
	Missing   []string `json:"missing"`
}

// KindSplit is one kind of requirement of a Requirement: its key in the
// JSON ("tools", "any_bins") and its Split.
type KindSplit struct {
	Kind string
	Split
}

// Kinds lists q's kinds of requirement in the order Validate reports
// them, so that a caller shows every kind, present and future, without
// naming each.
func (q Requirement) Kinds() []KindSplit {
	out := make([]KindSplit, len(kinds))
	for i := range kinds {
		out[i] = KindSplit{Kind: kinds[i].name, Split: *kinds[i].report(&q)}
	}
	return out
}

// NewList lists m's skills; location presents a SKILL.md path (the CLI
// and the service show it relative to their working directory).
func NewList(m *Manager, location func(string) string) List {
	offered := map[string]bool{}
	for _, s := range m.Offered() {
		offered[s.Name] = true
	}
	list := List{EnforcementLevel: m.Level().String(), Offered: len(offered), Skills: []ListEntry{}}
	results := m.resultsByName()
	for _, s := range m.Catalog().Skills {
		r := results[s.Name]
		list.Skills = append(list.Skills, ListEntry{
			Name: s.Name, Description: s.Description, Location: location(s.Path), State: string(r.State),
			Offered: offered[s.Name], Warnings: nonNil(r.Warnings), Errors: nonNil(r.Errors),
		})
	}
	return list
}

// NewDoctor builds m's doctor report; with requirements it lists every
// skill's requirements and the files skipped or read leniently.
func NewDoctor(m *Manager, requirements bool, location func(string) string) Doctor {
	d := Doctor{Summary: m.Summary(), ParseWarnings: []ParseWarning{}}
	for _, s := range m.Catalog().Skills {
		for _, w := range s.Warnings {
			d.ParseWarnings = append(d.ParseWarnings, ParseWarning{Skill: s.Name, Path: location(s.Path), Line: w.Line, Code: w.Code, Message: w.Message})
		}
	}
	if !requirements {
		return d
	}
	d.Skills, d.Files = []Requirement{}, []Report{}
	results := m.resultsByName()
	for _, s := range m.Catalog().Skills {
		r := results[s.Name]
		q := Requirement{
			Name: s.Name, Location: location(s.Path), State: string(r.State),
			Warnings: nonNil(r.Warnings), Errors: nonNil(r.Errors), Notes: nonNil(r.Notes),
		}
		for i := range kinds {
			k := &kinds[i]
			*k.report(&q) = Split{Satisfied: nonNil(*k.satisfied(&r)), Missing: nonNil(*k.missing(&r))}
		}
		d.Skills = append(d.Skills, q)
	}
	for _, rep := range m.Reports() {
		rep.Path, rep.Kept, rep.Target = location(rep.Path), location(rep.Kept), location(rep.Target)
		d.Files = append(d.Files, rep)
	}
	return d
}

func (m *Manager) resultsByName() map[string]Result {
	out := map[string]Result{}
	for _, r := range m.Diagnostics() {
		out[r.SkillName] = r
	}
	return out
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
