package skills

import "fmt"

// Catalog is the result of a discovery: the skills that loaded and a report
// for everything that did not load cleanly. A Catalog is not changed after
// it is returned (a Manager's Refresh builds a new one); treat it as
// read-only.
type Catalog struct {
	// Roots are the discovery paths, absolute, in the order given.
	Roots []string `json:"roots"`
	// Skills are the skills kept, one per name: in the order of Roots, and
	// by path (byte order) within a root.
	Skills []*Skill `json:"skills"`
	// Reports are the files skipped or read leniently, the skills dropped
	// for a duplicate name, and the paths that could not be searched.
	Reports []Report `json:"reports"`

	opts   DiscoverOptions
	byName map[string]*Skill
	files  map[string]*fileState // by SKILL.md path, for Refresh
}

// Report is one thing discovery has to tell: a file it skipped or read
// leniently, a skill dropped for another of the same name, a path it could
// not search.
type Report struct {
	// Kind says what happened.
	Kind ReportKind `json:"kind"`
	// Path is the file or directory concerned: for ReportOverride and
	// ReportDuplicate, the SKILL.md that was dropped.
	Path string `json:"path"`
	// Line is the line of Path concerned; 0 when there is none.
	Line int `json:"line,omitempty"`
	// Code is the Issue code behind a skipped or lenient file.
	Code string `json:"code,omitempty"`
	// Skill is the skill's name, where one is known.
	Skill string `json:"skill,omitempty"`
	// Kept is, for ReportOverride and ReportDuplicate, the SKILL.md kept
	// instead of Path.
	Kept string `json:"kept,omitempty"`
	// Target is, for ReportOutsideLink, where the symbolic link at Path
	// leads (with every link resolved).
	Target string `json:"target,omitempty"`
	// Message says it in words.
	Message string `json:"message"`
}

// String formats a report as "path:line: message".
func (r Report) String() string {
	if r.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", r.Path, r.Line, r.Message)
	}
	return fmt.Sprintf("%s: %s", r.Path, r.Message)
}

// ReportKind says what a Report is about.
type ReportKind string

// Report kinds.
const (
	// ReportSkipped: a SKILL.md that is not a skill (no frontmatter, an
	// unclosed one, no usable description) or could not be read.
	ReportSkipped ReportKind = "skipped"
	// ReportLenient: a skill kept although its YAML is invalid, read with
	// the line parser.
	ReportLenient ReportKind = "lenient"
	// ReportOverride: a skill of a later path replaced one of the same name
	// from an earlier path (project skills over user skills).
	ReportOverride ReportKind = "override"
	// ReportDuplicate: two skills of the same name under one path; the
	// first by path was kept.
	ReportDuplicate ReportKind = "duplicate"
	// ReportMissingRoot: a discovery path that does not exist. It is not
	// an error: a default skills directory is often absent.
	ReportMissingRoot ReportKind = "missing-root"
	// ReportUnreadable: a discovery path or a directory under it that
	// could not be listed, or a path that is neither a directory nor a
	// SKILL.md.
	ReportUnreadable ReportKind = "unreadable"
	// ReportTooDeep: a directory not searched because it lies deeper than
	// DiscoverOptions.MaxDepth.
	ReportTooDeep ReportKind = "too-deep"
	// ReportOutsideLink: a symbolic link not followed because it leads
	// outside the discovery path it was found under (see
	// DiscoverOptions.FollowOutsideLinks); Target is where it leads.
	ReportOutsideLink ReportKind = "outside-link"
	// ReportLimit: where the search stopped because it had entered
	// DiscoverOptions.MaxDirs directories or found DiscoverOptions.MaxSkills
	// skill files; there is at most one per discovery.
	ReportLimit ReportKind = "limit"
	// ReportWarning: a problem in a skill that loaded (one of
	// Skill.Warnings), as Catalog.Warnings gives it; never in
	// Catalog.Reports.
	ReportWarning ReportKind = "warning"
)

// Warnings returns the warnings of the skills kept (Skill.Warnings: names
// outside the agentskills rule, unreadable metadata, requirements of the
// wrong shape, ...), each as a Report of kind ReportWarning with the
// SKILL.md's path, the line, the Issue code and the skill's name, in
// catalog order and, within a skill, in file order. Warnings of code
// CodeLenient are left out: Reports holds each already, as a
// ReportLenient.
func (c *Catalog) Warnings() []Report {
	var out []Report
	for _, s := range c.Skills {
		for _, w := range s.Warnings {
			if w.Code == CodeLenient {
				continue
			}
			out = append(out, Report{Kind: ReportWarning, Path: s.Path, Line: w.Line, Code: w.Code, Skill: s.Name, Message: w.Message})
		}
	}
	return out
}

// Skill returns the skill of the given name.
func (c *Catalog) Skill(name string) (*Skill, bool) {
	s, ok := c.byName[name]
	return s, ok
}

// Reported returns the reports of the given kinds, in order; all of them
// when no kind is given.
func (c *Catalog) Reported(kinds ...ReportKind) []Report {
	var out []Report
	for _, r := range c.Reports {
		if len(kinds) == 0 {
			out = append(out, r)
			continue
		}
		for _, k := range kinds {
			if r.Kind == k {
				out = append(out, r)
				break
			}
		}
	}
	return out
}

// newCatalog makes a catalog of skills parsed by the caller (parseSkill),
// as if each had been found under a path of its own, in order: a later
// skill replaces an earlier one of the same name, with a ReportOverride. A
// Manager's Refresh leaves such a catalog as it is.
func newCatalog(skills ...*Skill) *Catalog {
	c := &Catalog{byName: map[string]*Skill{}}
	for _, s := range skills {
		if s == nil {
			continue
		}
		if old, dup := c.byName[s.Name]; dup {
			c.Reports = append(c.Reports, overrideReport(s.Name, old.Path, s.Path))
			for i, k := range c.Skills {
				if k == old {
					c.Skills = append(c.Skills[:i], c.Skills[i+1:]...)
					break
				}
			}
		}
		c.byName[s.Name] = s
		c.Skills = append(c.Skills, s)
	}
	return c
}

func overrideReport(name, dropped, kept string) Report {
	return Report{Kind: ReportOverride, Path: dropped, Skill: name, Kept: kept, Message: fmt.Sprintf(
		"skill %q at %s overrides the one at %s (a later path wins)", name, kept, dropped)}
}
