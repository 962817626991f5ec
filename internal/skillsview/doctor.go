package skillsview

import (
	"fmt"

	"github.com/gate-dev/gate/skills"
)

// Doctor is the Summary (the keys of PraisonAI's doctor), plus, with
// requirements, every skill's requirements and what discovery had to say
// about files.
type Doctor struct {
	Summary
	Skills []Requirement   `json:"skills,omitempty"`
	Files  []skills.Report `json:"files,omitempty"`
	// ParseWarnings are what the skills' own files got wrong and the skill
	// was loaded despite (an agentskills name rule broken, metadata that
	// is not JSON, an unknown platform): no requirement check shows them.
	ParseWarnings []ParseWarning `json:"parse_warnings"`
	// Skipped are the SKILL.md files that are not skills (Skipped):
	// without it they would vanish from a report that lists skills.
	Skipped []skills.Report `json:"skipped"`
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
// kind of requirement (kinds.go), which fills it.
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
		out[i] = KindSplit{Kind: kinds[i].name, Split: *kinds[i].split(&q)}
	}
	return out
}

// NewDoctor builds m's doctor report; with requirements it lists every
// skill's requirements and the files skipped or read leniently. location
// presents a SKILL.md path, as for NewList.
func NewDoctor(m *skills.Manager, requirements bool, location func(string) string) Doctor {
	d := Doctor{Summary: Summarize(m), ParseWarnings: []ParseWarning{}, Skipped: Skipped(m, location)}
	for _, s := range m.Catalog().Skills {
		for _, w := range s.Warnings {
			d.ParseWarnings = append(d.ParseWarnings, ParseWarning{Skill: s.Name, Path: location(s.Path), Line: w.Line, Code: w.Code, Message: w.Message})
		}
	}
	if !requirements {
		return d
	}
	d.Skills, d.Files = []Requirement{}, []skills.Report{}
	results := resultsByName(m)
	for _, s := range m.Catalog().Skills {
		r := results[s.Name]
		q := Requirement{
			Name: s.Name, Location: location(s.Path), State: string(r.State),
			Warnings: nonNil(r.Warnings), Errors: nonNil(r.Errors), Notes: nonNil(r.Notes),
		}
		for i := range kinds {
			k := &kinds[i]
			*k.split(&q) = Split{Satisfied: nonNil(*k.satisfied(&r)), Missing: nonNil(*k.missing(&r))}
		}
		d.Skills = append(d.Skills, q)
	}
	for _, rep := range m.Reports() {
		rep.Path, rep.Kept, rep.Target = location(rep.Path), location(rep.Kept), location(rep.Target)
		d.Files = append(d.Files, rep)
	}
	return d
}
