package skillsview

import "github.com/gate-dev/gate/skills"

// kind is one kind of requirement as the doctor report shows it: the
// Result's lists it reads and the Requirement's Split it fills.
type kind struct {
	// name is the kind's key in the doctor report ("tools", "any_bins"),
	// and, with "_" read as a space, its label in the text doctor.
	name string
	// satisfied and missing are the kind's lists in skills.Result.
	satisfied, missing func(*skills.Result) *[]string
	// split is the kind's Split in the doctor report.
	split func(*Requirement) *Split
}

// kinds are the kinds of requirement in the order the skills package's
// Validate checks them and reports what is missing (its own kinds table,
// which is unexported: the skills package keeps no output shape).
// TestKindsCoverResult fails when a kind of the Result is missing here.
// The order of the Requirement's JSON fields is its struct's own, which
// differs (env comes before toolsets there): it is public and kept.
var kinds = []kind{
	{
		name:      "tools",
		satisfied: func(r *skills.Result) *[]string { return &r.SatisfiedTools },
		missing:   func(r *skills.Result) *[]string { return &r.MissingTools },
		split:     func(q *Requirement) *Split { return &q.Tools },
	},
	{
		name:      "servers",
		satisfied: func(r *skills.Result) *[]string { return &r.SatisfiedServers },
		missing:   func(r *skills.Result) *[]string { return &r.MissingServers },
		split:     func(q *Requirement) *Split { return &q.Servers },
	},
	{
		name:      "toolsets",
		satisfied: func(r *skills.Result) *[]string { return &r.SatisfiedToolsets },
		missing:   func(r *skills.Result) *[]string { return &r.MissingToolsets },
		split:     func(q *Requirement) *Split { return &q.Toolsets },
	},
	{
		name:      "env",
		satisfied: func(r *skills.Result) *[]string { return &r.SatisfiedEnvVars },
		missing:   func(r *skills.Result) *[]string { return &r.MissingEnvVars },
		split:     func(q *Requirement) *Split { return &q.Env },
	},
	{
		name:      "bins",
		satisfied: func(r *skills.Result) *[]string { return &r.SatisfiedBins },
		missing:   func(r *skills.Result) *[]string { return &r.MissingBins },
		split:     func(q *Requirement) *Split { return &q.Bins },
	},
	{
		name:      "any_bins",
		satisfied: func(r *skills.Result) *[]string { return &r.SatisfiedAnyBins },
		missing:   func(r *skills.Result) *[]string { return &r.MissingAnyBins },
		split:     func(q *Requirement) *Split { return &q.AnyBins },
	},
}
