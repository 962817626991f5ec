package skills

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gate-dev/gate/internal/skillhost"
)

func TestParseSkillSkips(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, text, msg string
		line            int
	}{
		{"no frontmatter", "# Title\n", noFrontmatter + "; this one starts with other text", 1},
		{"unclosed", "---\nname: x\n", "frontmatter not closed: no line '---' after line 1", 1},
		{"no description", "---\nname: x\n---\n", `no usable description: the frontmatter has no "description"`, 1},
		{"null description", "---\nname: x\ndescription:\n---\n", `no usable description: "description" is empty`, 3},
		{"blank description", "---\nname: x\ndescription: '  '\n---\n", `no usable description: "description" is empty`, 3},
		{"list description", "---\nname: x\ndescription: [a]\n---\n", `no usable description: "description" is a list, not text`, 3},
		{"map description", "---\nname: x\ndescription: {a: b}\n---\n", `no usable description: "description" is a mapping, not text`, 3},
		{"not a mapping, nothing recovered", "---\njust words\n---\n",
			`no usable description: the frontmatter has no "description" (the YAML is invalid at line 2: the frontmatter is text, not a mapping of keys to values)`, 1},
		{"invalid YAML, nothing recovered", "---\n\tdescription: x\n---\n",
			`no usable description: the frontmatter has no "description" (the YAML is invalid at line 2: found character that cannot start any token)`, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s, rep := parse(t, "x", tc.text)
			require.Nil(t, s)
			require.NotNil(t, rep)
			assert.Equal(t, ReportSkipped, rep.Kind)
			assert.Equal(t, tc.msg, rep.Message)
			assert.Equal(t, tc.line, rep.Line)
			assert.Contains(t, rep.Path, "SKILL.md")
		})
	}
}

func TestParseSkillNames(t *testing.T) {
	t.Parallel()
	codes := func(s *Skill) []string {
		var out []string
		for _, w := range s.Warnings {
			out = append(out, w.Code)
		}
		return out
	}
	for _, tc := range []struct {
		dir, name string // folder, and the name line ("" for none)
		want      string
		codes     []string
	}{
		{"pdf", "name: pdf", "pdf", nil},
		{"pdf", "name: '  pdf  '", "pdf", nil},
		{"pdf", "", "pdf", []string{CodeNameMissing}},
		{"pdf", "name:", "pdf", []string{CodeNameMissing}},
		{"pdf", "name: ''", "pdf", []string{CodeNameMissing}},
		{"pdf", "name: [a]", "pdf", []string{CodeNameMissing}},
		{"pdf", "name: other", "other", []string{CodeNameFolder}},
		{"PDF Tools", "name: PDF Tools", "PDF Tools", []string{CodeNameFormat}},
		{"pdf", "name: PDF Tools", "PDF Tools", []string{CodeNameFolder, CodeNameFormat}},
		{"a--b", "name: a--b", "a--b", []string{CodeNameFormat}},
		{"Bad_Dir", "", "Bad_Dir", []string{CodeNameMissing, CodeNameFormat}},
		{"x", "name: 123", "123", []string{CodeNameFolder}},
		{strings.Repeat("a", 65), "", strings.Repeat("a", 65), []string{CodeNameMissing, CodeNameFormat}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s := mustParse(t, tc.dir, "---\n"+tc.name+"\ndescription: d\n---\n")
			assert.Equal(t, tc.want, s.Name)
			assert.Equal(t, tc.codes, codes(s))
		})
	}
}

func TestParseSkillDescriptions(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ name, yaml, want string }{
		{"plain", "description: Extract text", "Extract text"},
		{"trimmed", "description: '  spaced  '", "spaced"},
		{"literal", "description: |\n  a\n  b\n", "a\nb"},
		{"folded", "description: >\n  a\n  b\n", "a b"},
		{"folded strip", "description: >-\n  a\n  b", "a b"},
		{"multi-line plain", "description: a\n  b\n  c", "a b c"},
		{"number", "description: 1.50", "1.50"},
		{"markup is fine", "description: Use <b> & </b>", "Use <b> & </b>"},
		{"unquoted colon, lenient", "description: Use when: asked", "Use when: asked"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s := mustParse(t, "x", "---\nname: x\n"+tc.yaml+"\n---\n")
			assert.Equal(t, tc.want, s.Description)
		})
	}

	long := mustParse(t, "x", "---\nname: x\ndescription: "+strings.Repeat("é", 1025)+"\n---\n")
	require.Len(t, long.Warnings, 1)
	assert.Equal(t, CodeDescriptionLong, long.Warnings[0].Code)
	assert.Equal(t, 3, long.Warnings[0].Line)
	exact := mustParse(t, "x", "---\nname: x\ndescription: "+strings.Repeat("é", 1024)+"\n---\n")
	assert.Empty(t, exact.Warnings, "1024 characters (not bytes) is within the limit")
}

func TestParseSkillLenient(t *testing.T) {
	t.Parallel()
	s := mustParse(t, "meeting", "---\nname: meeting\ndescription: Use when: asked\nrequires_tools: [a, b]\n---\n")
	assert.True(t, s.Lenient)
	assert.Equal(t, "Use when: asked", s.Description)
	assert.Equal(t, []string{"a", "b"}, s.Requirements.Tools)
	require.NotEmpty(t, s.Warnings)
	assert.Equal(t, Issue{Code: CodeLenient, Line: 3, Message: "invalid YAML at line 3 (mapping values are not allowed in this context): read with the key: value line parser"}, s.Warnings[0])

	valid := mustParse(t, "x", frontmatter())
	assert.False(t, valid.Lenient)
}

func TestParseSkillDuplicateKeys(t *testing.T) {
	t.Parallel()
	s := mustParse(t, "x", "---\nname: x\ndescription: first\nrequires_tools: a\ndescription: second\nrequires_tools: b\n---\n")
	assert.Equal(t, "second", s.Description, "the last wins, as in PyYAML")
	assert.Equal(t, []string{"b"}, s.Requirements.Tools)
	assert.Equal(t, []Issue{
		{Code: CodeDuplicateKey, Line: 5, Message: `duplicate key "description" (lines 3 and 5): the last one wins`},
		{Code: CodeDuplicateKey, Line: 6, Message: `duplicate key "requires_tools" (lines 4 and 6): the last one wins`},
	}, s.Warnings)
}

func TestParseSkillDisableModelInvocation(t *testing.T) {
	t.Parallel()
	for v, want := range map[string]bool{
		"true": true, "True": true, `"true"`: true, "yes": true, `"yes"`: true, "on": true, "1": true,
		"false": false, "no": false, `""`: false, "": false, "[true]": false,
	} {
		s := mustParse(t, "x", frontmatter("disable-model-invocation: "+v))
		assert.Equal(t, want, s.DisableModelInvocation, v)
	}
}

func TestParseSkillFrontmatterScalars(t *testing.T) {
	t.Parallel()
	s := mustParse(t, "x", frontmatter(
		"version: 1.0",
		"version2: 1.10",
		"created: 2024-01-15",
		"stamp: 2024-01-15T10:30:00Z",
		"flag: yes",
		"nothing: ~",
		"tags: [a, 1]",
	))
	assert.Equal(t, "1.0", s.Frontmatter["version"])
	assert.Equal(t, "1.10", s.Frontmatter["version2"])
	assert.Equal(t, "2024-01-15", s.Frontmatter["created"])
	assert.Equal(t, "2024-01-15T10:30:00Z", s.Frontmatter["stamp"])
	assert.Equal(t, "yes", s.Frontmatter["flag"])
	assert.Nil(t, s.Frontmatter["nothing"])
	assert.Equal(t, []any{"a", "1"}, s.Frontmatter["tags"])
	assert.Equal(t, 12, s.BodyLine)
}

func TestParseSkillBillionLaughs(t *testing.T) {
	t.Parallel()
	// Nested aliases expand to 9^9 values; converting them must stay
	// bounded.
	var sb strings.Builder
	sb.WriteString("---\nname: x\ndescription: d\na0: &a0 [x, x, x, x, x, x, x, x, x]\n")
	for i := 1; i < 10; i++ {
		sb.WriteString("a" + string(rune('0'+i)) + ": &a" + string(rune('0'+i)) + " [")
		for j := range 9 {
			if j > 0 {
				sb.WriteString(", ")
			}
			sb.WriteString("*a" + string(rune('0'+i-1)))
		}
		sb.WriteString("]\n")
	}
	sb.WriteString("requires_tools: *a9\nopenclaw: {x: *a9}\n---\n")
	s := mustParse(t, "x", sb.String())
	assert.Empty(t, s.Requirements.Tools, "a list of lists names no tool")
}

// TestParseSkillWorstCases: inputs at the size cap built to be slow (deep
// nesting, aliases multiplying across keys, thousands of names or
// duplicate keys) parse within parseDeadline of CPU. The alias case took 5.5 s
// before one conversion budget was shared by all of a file's keys.
func TestParseSkillWorstCases(t *testing.T) {
	t.Parallel()
	n := maxFrontmatterBytes - 100
	fill := func(head, tail string, line func(i int) string) string {
		var sb strings.Builder
		sb.WriteString(head)
		for i := 0; sb.Len() < n; i++ {
			sb.WriteString(line(i))
		}
		return sb.String() + tail
	}
	for name, text := range map[string]string{
		"aliases across keys": fill("---\ndescription: x\na0: &a0 [x]\n", "---\n", func(i int) string {
			return fmt.Sprintf("a%d: &a%d [*a%d, *a%d]\n", i+1, i+1, i, i)
		}),
		"deep flow sequence": "---\ndescription: x\nk: " + strings.Repeat("[", n/2) + "\n---\n",
		"deep flow mapping":  "---\ndescription: x\nk: " + strings.Repeat("{a: ", n/5) + "\n---\n",
		"duplicate keys":     "---\ndescription: x\n" + strings.Repeat("a: 1\n", n/5) + "---\n",
		"many tools":         fill("---\ndescription: x\nrequires_tools: \"", "\"\n---\n", func(i int) string { return fmt.Sprintf("t%d ", i) }),
		"many patterns":      fill("---\ndescription: x\nallowed-tools: \"", "\"\n---\n", func(i int) string { return fmt.Sprintf("t%d(x y) ", i) }),
		"many platforms":     fill("---\ndescription: x\nplatforms: \"", "\"\n---\n", func(i int) string { return fmt.Sprintf("os%d ", i) }),
		"lenient, many keys": fill("---\ndescription: a: b\n", "---\n", func(i int) string { return fmt.Sprintf("k%d: v\n  w\n", i) }),
		"lenient, open flow": "---\ndescription: a: b\nk:\n" + strings.Repeat("  - [\n", n/6) + "---\n",
		"env in both":        fill("---\ndescription: x\nmetadata: {openclaw: {requires: {env: \"", "\"}}}\nrequires_env: \"E1 E2\"\n---\n", func(i int) string { return fmt.Sprintf("E%d ", i) }),
	} {
		t.Run(name, func(t *testing.T) {
			var s *Skill
			var rep *Report
			used := parseCPU(t, func() { s, rep = parseSkill("/x/y/SKILL.md", []byte(text), parseOptions{}) })
			assert.Less(t, used, parseDeadline)
			assert.True(t, (s == nil) != (rep == nil))
		})
	}
}

// TestParseThenValidate parses a SKILL.md held in memory and validates it
// against what the agent has now: the fallback is unavailable in strict
// mode while its own tool is missing, and active once it is there.
func TestParseThenValidate(t *testing.T) {
	t.Parallel()
	src := `---
name: web-via-terminal
description: Fetch the web via terminal when no web tool is available.
requires_tools: [terminal]
fallback_for_tools: [web_search]
metadata:
  openclaw:
    requires:
      bins: [curl]
---
# Web via terminal
When asked to fetch a URL, use curl through the terminal tool.
`
	s, skipped := parseSkill("/skills/web-via-terminal/SKILL.md", []byte(src), parseOptions{})
	require.Nil(t, skipped)
	assert.Equal(t, "web-via-terminal", s.Name)
	assert.Equal(t, []string{"terminal"}, s.Requirements.Tools)
	assert.Equal(t, []string{"curl"}, s.Requirements.Bins)
	assert.Equal(t, []string{"web_search"}, s.Requirements.FallbackForTools)

	v := skillValidator{Level: LevelStrict, Host: skillhost.Map{Bins: []string{"curl"}, GOOS: "linux"}}
	r := v.Validate(s.Name, &s.Requirements, availability{Tools: newNameSet("web_search")})
	assert.Equal(t, StateUnavailable, r.State)
	assert.Equal(t, []string{"Missing required tools: terminal"}, r.Errors)
	r = v.Validate(s.Name, &s.Requirements, availability{Tools: newNameSet("terminal")})
	assert.Equal(t, StateActive, r.State)
	assert.Equal(t, []string{"terminal"}, r.SatisfiedTools)
	assert.Equal(t, []string{"curl"}, r.SatisfiedBins)
}
