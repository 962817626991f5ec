package skillsview

import "github.com/gate-dev/gate/skills"

// Summary counts the skills by state, with the keys of the metadata of
// PraisonAI's `praisonai doctor skills` capabilities check.
type Summary struct {
	// TotalSkills counts the skills of the catalog.
	TotalSkills int `json:"total_skills"`
	// Active, Degraded and Unavailable count them by state.
	Active      int `json:"active"`
	Degraded    int `json:"degraded"`
	Unavailable int `json:"unavailable"`
	// EnforcementLevel is the level's canonical name ("warn").
	EnforcementLevel string `json:"enforcement_level"`
	// SampleIssues are "{skill}: {message}" for the first 2 warnings of
	// each DEGRADED skill and the first 2 errors of each UNAVAILABLE skill,
	// in catalog order, at most MaxSampleIssues.
	SampleIssues []string `json:"sample_issues"`
}

// MaxSampleIssues is how many issues a Summary samples: 10, as PraisonAI's
// doctor samples.
const MaxSampleIssues = 10

// Summarize validates every skill of m (cached results are reused) and
// counts them by state at m's level.
func Summarize(m *skills.Manager) Summary {
	s := Summary{EnforcementLevel: m.Level().String(), SampleIssues: []string{}}
	for _, r := range m.Diagnostics() {
		s.TotalSkills++
		var issues []string
		switch r.State {
		case skills.StateActive:
			s.Active++
		case skills.StateDegraded:
			s.Degraded++
			issues = r.Warnings
		case skills.StateUnavailable:
			s.Unavailable++
			issues = r.Errors
		}
		for i, msg := range issues {
			if i == 2 || len(s.SampleIssues) == MaxSampleIssues {
				break
			}
			s.SampleIssues = append(s.SampleIssues, r.SkillName+": "+msg)
		}
	}
	return s
}
