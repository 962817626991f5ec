package skillsview

import "github.com/gate-dev/gate/skills"

// List is every skill with its state and whether the prompt offers it.
type List struct {
	EnforcementLevel string      `json:"enforcement_level"`
	Offered          int         `json:"offered"`
	Skills           []ListEntry `json:"skills"`
	// Skipped are the SKILL.md files that are not skills (Skipped).
	Skipped []skills.Report `json:"skipped"`
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

// NewList lists m's skills; location presents a SKILL.md path (the CLI
// and the service show it relative to their working directory).
func NewList(m *skills.Manager, location func(string) string) List {
	offered := map[string]bool{}
	for _, s := range m.Offered() {
		offered[s.Name] = true
	}
	list := List{EnforcementLevel: m.Level().String(), Offered: len(offered), Skills: []ListEntry{}, Skipped: Skipped(m, location)}
	results := resultsByName(m)
	for _, s := range m.Catalog().Skills {
		r := results[s.Name]
		list.Skills = append(list.Skills, ListEntry{
			Name: s.Name, Description: s.Description, Location: location(s.Path), State: string(r.State),
			Offered: offered[s.Name], Warnings: nonNil(r.Warnings), Errors: nonNil(r.Errors),
		})
	}
	return list
}

// Skipped lists the SKILL.md files that discovery skipped, which no
// skill's entry shows: those that are not a skill (no frontmatter, an
// unclosed one, no usable description) and those it could not read, each
// at its file (presented by location) and line. Empty, not nil, so that
// JSON shows [].
func Skipped(m *skills.Manager, location func(string) string) []skills.Report {
	out := []skills.Report{}
	for _, rep := range m.Catalog().Reported(skills.ReportSkipped) {
		rep.Path = location(rep.Path)
		out = append(out, rep)
	}
	return out
}

// resultsByName validates every skill of m (cached results are reused)
// and indexes the results by skill name.
func resultsByName(m *skills.Manager) map[string]skills.Result {
	out := map[string]skills.Result{}
	for _, r := range m.Diagnostics() {
		out[r.SkillName] = r
	}
	return out
}

// nonNil gives [] for nil, so that JSON shows an empty list, never null.
func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
