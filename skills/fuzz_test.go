package skills

import (
	"encoding/json"
	"encoding/xml"
	"fmt"
	"io"
	"os"
	"path/filepath"
	goruntime "runtime"
	"strings"
	"testing"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/stretchr/testify/require"
	"go.yaml.in/yaml/v3"

	"github.com/gate-dev/gate/internal/safetext"
	"github.com/gate-dev/gate/internal/skillhost"
	"github.com/gate-dev/gate/internal/threadtime"
)

// parseDeadline is what "a fraction of a second" means for one file (more
// under the race detector, which slows the YAML parser several times). The
// size cap (maxFrontmatterBytes) is what keeps parsing within it. It
// bounds the CPU a parse uses, not the time it takes, which a loaded
// machine stretches at will.
const parseDeadline = raceSlowdown * 500 * time.Millisecond

// parseCPU runs parse on a thread of its own and returns the CPU time the
// thread used, the garbage collector's assists included.
func parseCPU(t *testing.T, parse func()) time.Duration {
	t.Helper()
	goruntime.LockOSThread()
	defer goruntime.UnlockOSThread()
	before, err := threadtime.Thread()
	require.NoError(t, err)
	parse()
	after, err := threadtime.Thread()
	require.NoError(t, err)
	return after.Since(before).CPU()
}

// FuzzParseSkill: any bytes parse without a panic, within parseDeadline,
// into either a skill with a name and a description or a skip with a
// reason.
func FuzzParseSkill(f *testing.F) {
	_ = filepath.WalkDir("testdata", func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.EqualFold(d.Name(), "skill.md") {
			if b, err := os.ReadFile(p); err == nil {
				f.Add(b)
			}
		}
		return nil
	})
	for _, s := range []string{
		"", "---", "---\n---", "\ufeff---\r\nname: x\r\ndescription: y\r\n---",
		"---\ndescription: a: b\nmetadata: {\"openclaw\": [\n---\n",
		"---\ndescription: x\nmetadata: '{\"openclaw\":{\"requires\":{\"bins\":[\"a\",],},},}'\n---\n",
		"---\na: &a [*a]\ndescription: x\n---\n",
		"---\ndescription: |\n  x\nallowed-tools: Bash(a b Read\n---\n",
		"---\ndescription: x\nrequired_environment_variables: [A, {name: B, prompt: p}, {prompt: q}, [C], {name: [D]}, ~]\n---\n",
		"---\ndescription: x\nrequired_environment_variables:\n  name: A\n  help: h\nrequires_env: A\n---\n",
		"---\ndescription: a: b\nrequired_environment_variables:\n- name: A\n  required_for: c\n- name:\n---\n",
		"---\ndescription: x\nv: &v [{name: *v}]\nrequired_environment_variables: *v\n---\n",
		"---\ndescription: x\nmetadata: {openclaw: {always: true, requires: {env: [A, B]}}}\nrequired_environment_variables: [B]\n---\n",
		"---\ndescription: x\nrequires_tools: [terminal\nrequires-tools: [a]\nplatforms: [linux\nallowed-tools: {Bash\n---\n",
		"---\ndescription: x\nrequires_tools:\n  - a\n  - [b\nrequired_environment_variables: [{name: A}\n---\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var s *Skill
		var rep *Report
		if d := parseCPU(t, func() { s, rep = parseSkill("/fuzz/skill-dir/SKILL.md", data, parseOptions{}) }); d > parseDeadline {
			t.Fatalf("parsing %d bytes took %v of CPU", len(data), d)
		}
		if (s == nil) == (rep == nil) {
			t.Fatalf("want exactly one of a skill and a report, got %v and %v", s, rep)
		}
		if rep != nil {
			if rep.Kind != ReportSkipped || rep.Message == "" || rep.Code == "" {
				t.Fatalf("a skip without a reason: %+v", rep)
			}
			return
		}
		if strings.TrimSpace(s.Name) == "" || strings.TrimSpace(s.Description) == "" {
			t.Fatalf("empty name or description: %q %q", s.Name, s.Description)
		}
		if !utf8.ValidString(s.Name) || !utf8.ValidString(s.Description) {
			t.Fatalf("invalid UTF-8: %q %q", s.Name, s.Description)
		}
		for _, w := range s.Warnings {
			if w.Code == "" || w.Message == "" || w.Line < 0 || (w.Code == CodeRequirement && w.Line == 0) {
				t.Fatalf("bad warning %+v", w)
			}
		}
		r := &s.Requirements
		lists := [][]string{r.OpenClawEnv, r.Config, r.OS, r.AllowedTools}
		for i := range kinds {
			lists = append(lists, *kinds[i].field(r))
		}
		for _, f := range fallbackLists {
			lists = append(lists, *f.field(r))
		}
		for _, list := range lists {
			seen := map[string]bool{}
			for _, item := range list {
				if strings.TrimSpace(item) == "" || seen[item] {
					t.Fatalf("an empty or repeated item in %q", list)
				}
				seen[item] = true
			}
		}
		env := newNameSet(r.Env...)
		for _, e := range r.OpenClawEnv {
			if !env.Has(e) {
				t.Fatalf("OpenClawEnv %q is not in Env %q", r.OpenClawEnv, r.Env)
			}
		}
		if _, err := json.Marshal(s); err != nil {
			t.Fatalf("the skill does not marshal: %v", err)
		}
		res := skillValidator{Host: skillhost.Map{GOOS: "linux"}}.Validate(s.Name, r, availability{})
		if res.State == StateUnknown {
			t.Fatal("validated as unknown")
		}
		_ = formatPrompt([]promptEntry{s.entry()})
	})
}

// FuzzNormalize: the list normalisers and the allowed-tools splitter never
// panic, never give an empty item, and never give an item with whitespace
// outside parentheses (from a string: list items are kept as written, only
// trimmed, as in PraisonAI). And the line parser's read of a list key
// whose value starts a flow list ("requires_tools: [" and s) either gives
// the list YAML makes of it, or, when YAML cannot parse it, no names and
// a warning at its line that names the key.
func FuzzNormalize(f *testing.F) {
	for _, s := range []string{
		"a b c", "a,b,c", "a, b c", "", " ", "Bash(git add:*) Read", "Bash(infsh *)", "a) (b", "((", "))a b(",
		"x\u00a0y\u2003z", "a,\u0085b", "Bash(a, b),Read", "\xff\xfe", "(x)", "mcp__github__create_issue",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, list := range [][]string{normalizeList(s), normalizeCSVList(s)} {
			for _, item := range list {
				if item == "" || strings.IndexFunc(item, unicode.IsSpace) >= 0 || strings.Contains(item, ",") {
					t.Fatalf("%q gave the item %q", s, item)
				}
			}
		}
		for _, item := range normalizeList([]any{s, nil, 1}) {
			if item == "" || item != strings.TrimSpace(item) {
				t.Fatalf("list item %q gave %q", s, item)
			}
		}

		patterns := splitPermissionPatterns(s)
		for _, p := range patterns {
			if p == "" {
				t.Fatalf("%q gave an empty pattern", s)
			}
			depth := 0
			for _, r := range p {
				switch {
				case r == '(':
					depth++
				case r == ')' && depth > 0:
					depth--
				case depth == 0 && (unicode.IsSpace(r) || r == ','):
					t.Fatalf("%q gave %q, with %q outside parentheses", s, p, r)
				}
			}
		}
		_, tools := allowedTools(s)
		seen := map[string]bool{}
		for _, tool := range tools {
			if tool == "" || strings.IndexFunc(tool, unicode.IsSpace) >= 0 || strings.ContainsAny(tool, "(,") || seen[tool] {
				t.Fatalf("%q gave the tool %q (%q)", s, tool, tools)
			}
			seen[tool] = true
		}

		if out := removeTrailingCommas(s); len(out) > len(s) {
			t.Fatalf("removeTrailingCommas grew %q to %q", s, out)
		}

		checkLenientList(t, s)
	})
}

// checkLenientList checks the line parser's read of requires_tools: [ and
// s, on one line, in a frontmatter that is invalid YAML (the description's
// second ": "), so read leniently.
func checkLenientList(t *testing.T, s string) {
	value := strings.TrimRight("["+strings.NewReplacer("\r", " ", "\n", " ").Replace(s), " \t")
	doc := "---\nname: d\ndescription: a: b\nrequires_tools: " + value + "\n---\n"
	sk, rep := parseSkill("/fuzz/d/SKILL.md", []byte(doc), parseOptions{})
	if rep != nil {
		return // past maxFrontmatterBytes: nothing was read
	}
	if !sk.Lenient {
		t.Fatalf("%q was not read leniently", doc)
	}
	var malformed []Issue
	for _, w := range sk.Warnings {
		if w.Code == CodeRequirement && strings.HasPrefix(w.Message, "requires_tools: malformed value ") {
			malformed = append(malformed, w)
		}
	}
	var n yaml.Node
	if yaml.Unmarshal([]byte(value), &n) == nil {
		if len(malformed) > 0 {
			t.Fatalf("%q parses as YAML, yet %+v", value, malformed)
		}
		return
	}
	if len(malformed) != 1 || malformed[0].Line != 4 || len(sk.Requirements.Tools) > 0 {
		t.Fatalf("%q does not parse as YAML: want one warning at line 4 and no tools, got %+v and %q", value, malformed, sk.Requirements.Tools)
	}
}

// promptProblem says what is wrong with a prompt of n entries, or returns
// nil: it must be valid UTF-8, parse as XML with encoding/xml in strict
// mode (which refuses every character XML 1.0 forbids), hold n <skill>
// elements, and show no character that could move a cursor or reorder
// what a reader sees, and none a reader cannot see (safetext's rule).
func promptProblem(p string, n int) error {
	if !utf8.ValidString(p) {
		return fmt.Errorf("invalid UTF-8: %q", p)
	}
	if i := safetext.IndexRefused(p, true); i >= 0 {
		r, _ := utf8.DecodeRuneInString(p[i:])
		return fmt.Errorf("%U at byte %d of %q", r, i, p)
	}
	if n == 0 {
		if p != "" {
			return fmt.Errorf("no entries, yet %q", p)
		}
		return nil
	}
	d := xml.NewDecoder(strings.NewReader(p))
	d.Strict = true
	skills := 0
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			return fmt.Errorf("not well-formed XML: %v\n%q", err, p)
		}
		if se, ok := tok.(xml.StartElement); ok && se.Name.Local == "skill" {
			skills++
		}
	}
	if skills != n {
		return fmt.Errorf("%d <skill> elements for %d entries: %q", skills, n, p)
	}
	return nil
}

// FuzzPrompt: whatever the names, descriptions and locations hold, the
// prompt never panics, is valid UTF-8 and well-formed XML 1.0, with one
// <skill> per entry.
func FuzzPrompt(f *testing.F) {
	for _, s := range [][3]string{
		{"pdf", "Read PDFs", "/skills/pdf/SKILL.md"},
		{"a\x07b", "esc \x1b[31mred\x1b[0m nul \x00", "/s/\xff\xfe/SKILL.md"},
		{"\ufffe\uffff", "rlo \u202e txt \u2066 iso \u2069 lrm \u200e alm \u061c", "/s/\xed\xa0\x80/SKILL.md"},
		{"c1 \u0085 \u009b", "cr \r\n lf \n tab \t ls \u2028", "/s/<&'\">/SKILL.md"},
		{"", "", ""},
		{"]]>", "<![CDATA[x]]>", "&#0;&#xFFFE;"},
	} {
		f.Add(s[0], s[1], s[2])
	}
	f.Fuzz(func(t *testing.T, name, desc, loc string) {
		entries := []promptEntry{{Name: name, Description: desc, Location: loc}, {Name: "ok", Description: "d", Location: "/l"}}
		if err := promptProblem(formatPrompt(entries), 2); err != nil {
			t.Fatal(err)
		}
	})
}
