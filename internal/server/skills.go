package server

import (
	"net/http"

	"github.com/gate-dev/gate/internal/pathfmt"
	"github.com/gate-dev/gate/internal/skillsview"
	"github.com/gate-dev/gate/skills"
)

// skills answers every skill with its state and whether the prompt offers
// it. A manifest without [skills] paths has none (enforcement_level "").
func (s *server) skills(w http.ResponseWriter, r *http.Request) {
	m := s.svc.Gate().Skills(r.Context())
	if m == nil {
		writeJSON(w, http.StatusOK, skillsview.List{Skills: []skillsview.ListEntry{}, Skipped: []skills.Report{}})
		return
	}
	writeJSON(w, http.StatusOK, skillsview.NewList(m, pathfmt.Rel))
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
		writeJSON(w, http.StatusOK, skillsview.Doctor{Summary: skillsview.Summary{SampleIssues: []string{}}, ParseWarnings: []skillsview.ParseWarning{}, Skipped: []skills.Report{}})
		return
	}
	writeJSON(w, http.StatusOK, skillsview.NewDoctor(m, true, pathfmt.Rel))
}
