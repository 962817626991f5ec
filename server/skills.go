package server

import (
	"net/http"
	"os"
	"strings"

	"github.com/gate-dev/gate/skills"
)

// The shapes below are those of `gatectl skills --json` and `gatectl
// doctor skills --requirements --json` (cmd/gatectl/skills.go, pinned by
// its golden files), re-declared here because that package is a command.
// Keep them identical: a client may switch between the two.

// skillsList is the shape of /v1/skills.
type skillsList struct {
	EnforcementLevel string       `json:"enforcement_level"`
	Offered          int          `json:"offered"`
	Skills           []skillEntry `json:"skills"`
}

type skillEntry struct {
	Name        string   `json:"name"`
	Description string   `json:"description"`
	Location    string   `json:"location"`
	State       string   `json:"state"`
	Offered     bool     `json:"offered"`
	Warnings    []string `json:"warnings"`
	Errors      []string `json:"errors"`
}

// doctorReport is the shape of /v1/diagnostics: the original's summary
// keys, every skill's requirements, and the files discovery had something
// to say about.
type doctorReport struct {
	skills.Summary
	Skills []skillRequirements `json:"skills,omitempty"`
	Files  []skills.Report     `json:"files,omitempty"`
}

type skillRequirements struct {
	Name     string   `json:"name"`
	Location string   `json:"location"`
	State    string   `json:"state"`
	Tools    split    `json:"tools"`
	Servers  split    `json:"servers"`
	Env      split    `json:"env"`
	Toolsets split    `json:"toolsets"`
	Bins     split    `json:"bins"`
	AnyBins  split    `json:"any_bins"`
	Warnings []string `json:"warnings"`
	Errors   []string `json:"errors"`
	Notes    []string `json:"notes"`
}

// split is what of one kind of requirement is met and what is missing.
type split struct {
	Satisfied []string `json:"satisfied"`
	Missing   []string `json:"missing"`
}

func newSplit(sat, miss []string) split { return split{Satisfied: nonNil(sat), Missing: nonNil(miss)} }

// skills answers every skill with its state and whether the prompt offers
// it. A manifest without [skills] paths has none (enforcement_level "").
func (s *server) skills(w http.ResponseWriter, r *http.Request) {
	out := skillsList{Skills: []skillEntry{}}
	m := s.svc.Gate().Skills(r.Context())
	if m == nil {
		writeJSON(w, http.StatusOK, out)
		return
	}
	offered := map[string]bool{}
	for _, sk := range m.Offered() {
		offered[sk.Name] = true
	}
	out.EnforcementLevel, out.Offered = m.Level().String(), len(offered)
	results := resultsByName(m)
	for _, sk := range m.Catalog().Skills {
		res := results[sk.Name]
		out.Skills = append(out.Skills, skillEntry{
			Name: sk.Name, Description: sk.Description, Location: relPath(sk.Path), State: string(res.State),
			Offered: offered[sk.Name], Warnings: nonNil(res.Warnings), Errors: nonNil(res.Errors),
		})
	}
	writeJSON(w, http.StatusOK, out)
}

// prompt answers the <available_skills> block for the next model call, as
// plain text; an empty body when no skill is offered.
func (s *server) prompt(w http.ResponseWriter, r *http.Request) {
	writeBody(w, http.StatusOK, "text/plain; charset=utf-8", []byte(s.svc.Gate().SkillsPrompt(r.Context())))
}

// diagnostics answers what `gatectl doctor skills --requirements --json`
// prints.
func (s *server) diagnostics(w http.ResponseWriter, r *http.Request) {
	m := s.svc.Gate().Skills(r.Context())
	if m == nil {
		// No skills: the counts are zero, and "skills" and "files" are
		// left out, as gatectl leaves them out when they are empty.
		writeJSON(w, http.StatusOK, doctorReport{Summary: skills.Summary{SampleIssues: []string{}}})
		return
	}
	out := doctorReport{Summary: m.Summary(), Skills: []skillRequirements{}, Files: []skills.Report{}}
	results := resultsByName(m)
	for _, sk := range m.Catalog().Skills {
		res := results[sk.Name]
		out.Skills = append(out.Skills, skillRequirements{
			Name: sk.Name, Location: relPath(sk.Path), State: string(res.State),
			Tools:    newSplit(res.SatisfiedTools, res.MissingTools),
			Servers:  newSplit(res.SatisfiedServers, res.MissingServers),
			Env:      newSplit(res.SatisfiedEnvVars, res.MissingEnvVars),
			Toolsets: newSplit(res.SatisfiedToolsets, res.MissingToolsets),
			Bins:     newSplit(res.SatisfiedBins, res.MissingBins),
			AnyBins:  newSplit(res.SatisfiedAnyBins, res.MissingAnyBins),
			Warnings: nonNil(res.Warnings), Errors: nonNil(res.Errors), Notes: nonNil(res.Notes),
		})
	}
	for _, rep := range m.Reports() {
		rep.Path, rep.Kept = relPath(rep.Path), relPath(rep.Kept)
		out.Files = append(out.Files, rep)
	}
	writeJSON(w, http.StatusOK, out)
}

func resultsByName(m *skills.Manager) map[string]skills.Result {
	out := map[string]skills.Result{}
	for _, r := range m.Diagnostics() {
		out[r.SkillName] = r
	}
	return out
}

// relPath shows a path relative to the working directory when it is below
// it, as gatectl does.
func relPath(p string) string {
	wd, err := os.Getwd()
	if err != nil {
		return p
	}
	if rel, ok := strings.CutPrefix(p, wd+string(os.PathSeparator)); ok {
		return rel
	}
	return p
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
