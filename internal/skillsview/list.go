package skillsview

import "github.com/gate-dev/gate/skills"

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

// NewList lists m's skills; location presents a SKILL.md path (the CLI
// and the service show it relative to their working directory).
func NewList(m *skills.Manager, location func(string) string) List {
	offered := map[string]bool{}
	for _, s := range m.Offered() {
		offered[s.Name] = true
	}
	list := List{EnforcementLevel: m.Level().String(), Offered: len(offered), Skills: []ListEntry{}}
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
