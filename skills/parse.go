package skills

import (
	"fmt"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"unicode/utf8"
)

// maxDescription is the agentskills spec's limit on a description, in
// characters. Longer descriptions load, with a warning, and are cut in the
// prompt.
const maxDescription = 1024

// nameRule is the agentskills spec's rule for a name: lower-case letters
// and digits in groups joined by single hyphens, at most 64 characters.
// It is compiled on first use, like the package's other regexps: every
// gatectl command links this package, and most never read a skill, so a
// package-level MustCompile would be paid by each of their processes.
var nameRule = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)
})

// parseSkill reads one SKILL.md, given its path and contents. It reads
// nothing from the file system (path is only made absolute, against the
// working directory, and used for the folder's name and the prompt's
// location) and never panics, whatever data holds; only the first
// maxFrontmatterBytes are looked at, which bounds its time.
//
// It returns the skill, or, when the file cannot be a skill, a Report of
// kind ReportSkipped saying why (with the line where there is one): no
// frontmatter, an unclosed one, or no usable description. Everything else
// is tolerated and recorded in Skill.Warnings:
//
//   - invalid YAML is read with a key: value line parser (Skill.Lenient);
//   - duplicate keys: the last one wins, as in PyYAML;
//   - a missing name: the folder's name is used;
//   - a name outside the agentskills rule or different from its folder;
//   - a description over maxDescription characters;
//   - metadata, or a requirement, that cannot be read: it is ignored.
func parseSkill(path string, data []byte, opts parseOptions) (*Skill, *Report) {
	if abs, err := filepath.Abs(path); err == nil {
		path = abs
	}
	skip := func(is Issue) (*Skill, *Report) {
		return nil, &Report{Kind: ReportSkipped, Path: path, Line: is.Line, Code: is.Code, Message: is.Message}
	}

	b, issue := extractFrontmatter(data)
	if issue != nil {
		return skip(*issue)
	}

	s := &Skill{Path: path, Dir: filepath.Dir(path), BodyLine: b.bodyLine}
	warn := func(is Issue) { s.Warnings = append(s.Warnings, is) }

	list, yamlIssue := parseYAMLFields(b)
	if yamlIssue != nil {
		s.Lenient = true
		list = parseLenientFields(b)
		warn(Issue{Code: CodeLenient, Line: yamlIssue.Line, Message: fmt.Sprintf(
			"invalid YAML at line %d (%s): read with the key: value line parser", yamlIssue.Line, yamlIssue.Message)})
	}
	fm := newFields(list, warn)

	// The description decides whether there is a skill at all.
	desc, why := readDescription(fm)
	if why != "" {
		if yamlIssue != nil {
			why += fmt.Sprintf(" (the YAML is invalid at line %d: %s)", yamlIssue.Line, yamlIssue.Message)
		}
		line := b.openLine
		if _, l, ok := fm.get("description"); ok {
			line = l
		}
		return skip(Issue{Code: CodeNoDescription, Line: line, Message: "no usable description: " + why})
	}
	s.Description = desc
	if n := utf8.RuneCountInString(desc); n > maxDescription {
		_, line, _ := fm.get("description")
		warn(Issue{Code: CodeDescriptionLong, Line: line, Message: fmt.Sprintf(
			"the description has %d characters, over the %d the agentskills spec allows: it is cut in the prompt", n, maxDescription)})
	}

	s.Name = readName(fm, s.Dir, warn)

	if n, _, ok := fm.get("disable-model-invocation"); ok {
		s.DisableModelInvocation = isTrue(n)
	}
	s.Requirements, s.OpenClawBlock = readRequirements(fm, opts, warn)

	s.Frontmatter = make(map[string]any, len(fm.index))
	conv := newConverter()
	for i, f := range fm.list {
		if fm.index[f.key] == i { // the last of duplicate keys, in file order
			s.Frontmatter[f.key] = conv.plain(f.value)
		}
	}
	sortIssues(s.Warnings)
	return s, nil
}

// readDescription returns the trimmed description, or why there is none.
func readDescription(fm *fields) (string, string) {
	n, _, ok := fm.get("description")
	if !ok {
		return "", `the frontmatter has no "description"`
	}
	if isNull(n) {
		return "", `"description" is empty`
	}
	text, isText := scalarText(n)
	if !isText {
		return "", fmt.Sprintf(`"description" is %s, not text`, kindName(n))
	}
	text = strings.TrimSpace(strings.ToValidUTF8(text, "\uFFFD"))
	if text == "" {
		return "", `"description" is empty`
	}
	return text, ""
}

// readName returns the trimmed name, or the folder's name when there is
// none, warning about names the agentskills spec would reject: they load
// anyway, as its client guide advises.
func readName(fm *fields, dir string, warn func(Issue)) string {
	folder := filepath.Base(dir)
	n, line, ok := fm.get("name")
	name, isText := scalarText(n)
	name = strings.TrimSpace(strings.ToValidUTF8(name, "\uFFFD"))
	if !isText || name == "" {
		msg := `no "name"`
		if ok {
			msg = fmt.Sprintf(`"name" is %s`, kindName(n))
			if isText {
				msg = `"name" is empty`
			}
		}
		warn(Issue{Code: CodeNameMissing, Line: line, Message: fmt.Sprintf("%s: using the folder's name %q", msg, folder)})
		name = folder
	} else if name != folder {
		warn(Issue{Code: CodeNameFolder, Line: line, Message: fmt.Sprintf(
			"the name %q differs from its folder's name %q (the agentskills spec wants them equal)", name, folder)})
	}
	if utf8.RuneCountInString(name) > 64 || !nameRule().MatchString(name) {
		warn(Issue{Code: CodeNameFormat, Line: line, Message: fmt.Sprintf(
			"the name %q is not 1-64 of a-z, 0-9 and single hyphens (the agentskills spec's rule)", name)})
	}
	return name
}

// sortIssues orders issues by line, keeping the order of equal lines; those
// without a line stay last.
func sortIssues(is []Issue) {
	sort.SliceStable(is, func(a, b int) bool {
		la, lb := is[a].Line, is[b].Line
		if la == 0 || lb == 0 {
			return la != 0 && lb == 0
		}
		return la < lb
	})
}
