package skills

import (
	"encoding/xml"
	"os/exec"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The cases of PraisonAI's test_prompt.py, each named by the test that
// ports it, except that an empty list gives no block.

func TestFormatPromptEmpty(t *testing.T) { // test_to_prompt_empty_list, test_generate_skills_xml_empty_list
	assert.Equal(t, "", formatPrompt(nil))
	assert.Equal(t, "", formatPrompt([]promptEntry{}))
}

func TestFormatPromptSingle(t *testing.T) { // test_to_prompt_single_skill, test_to_prompt_includes_location, test_format_single_skill
	got := formatPrompt([]promptEntry{{Name: "pdf-reader", Description: "Read and extract text from PDF files", Location: "/path/to/SKILL.md"}})
	assert.Equal(t, `<available_skills>
  <skill>
    <name>pdf-reader</name>
    <description>Read and extract text from PDF files</description>
    <location>/path/to/SKILL.md</location>
  </skill>
</available_skills>`, got)
}

func TestFormatPromptMultiple(t *testing.T) { // test_to_prompt_multiple_skills, test_generate_skills_xml_from_metadata_list
	got := formatPrompt([]promptEntry{
		{Name: "one", Description: "First", Location: "/a/SKILL.md"},
		{Name: "two", Description: "Second", Location: "/b/SKILL.md"},
	})
	assert.Equal(t, 2, strings.Count(got, "<skill>"))
	assert.Equal(t, 2, strings.Count(got, "</skill>"))
	for _, s := range []string{"one", "two", "First", "Second"} {
		assert.Contains(t, got, s)
	}
	assert.True(t, strings.HasPrefix(got, "<available_skills>\n  <skill>\n"))
	assert.True(t, strings.HasSuffix(got, "  </skill>\n</available_skills>"))
}

func TestFormatPromptEscapes(t *testing.T) { // test_to_prompt_escapes_html
	got := formatPrompt([]promptEntry{{Name: `a&b`, Description: `Test <script> & "quotes" handling, it's`, Location: `/p/<x>/SKILL.md`}})
	assert.NotContains(t, got, "<script>")
	assert.Contains(t, got, "<name>a&amp;b</name>")
	assert.Contains(t, got, "<description>Test &lt;script&gt; &amp; &quot;quotes&quot; handling, it&#x27;s</description>")
	assert.Contains(t, got, "<location>/p/&lt;x&gt;/SKILL.md</location>")
}

func TestTruncateDescription(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   string
		want string
	}{
		{"short", "short", "short"},
		{"exactly the limit", strings.Repeat("a", 1024), strings.Repeat("a", 1024)},
		{"one over", strings.Repeat("a", 1025), strings.Repeat("a", 1023) + "…"},
		{"1500", strings.Repeat("b", 1500), strings.Repeat("b", 1023) + "…"},
		{"trailing space trimmed", strings.Repeat("a", 1020) + "   " + "xyz", strings.Repeat("a", 1020) + "…"},
		{"characters, not bytes", strings.Repeat("é", 1025), strings.Repeat("é", 1023) + "…"},
		{"multi-byte at the limit", strings.Repeat("é", 1024), strings.Repeat("é", 1024)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := truncateDescription(tc.in)
			assert.Equal(t, tc.want, got)
			assert.LessOrEqual(t, utf8.RuneCountInString(got), promptDescriptionLimit)
		})
	}
	// Truncation happens before escaping: "&" counts as one character.
	got := formatPrompt([]promptEntry{{Name: "x", Description: strings.Repeat("&", 1500), Location: "/l"}})
	assert.Contains(t, got, "<description>"+strings.Repeat("&amp;", 1023)+"…</description>")
}

func TestSkillEntry(t *testing.T) {
	s := mustParse(t, "x", skillText("x", "d"))
	assert.Equal(t, promptEntry{Name: "x", Description: "d", Location: s.Path}, s.entry())
	assert.True(t, strings.HasSuffix(s.Path, "SKILL.md"))
}

// promptDoc is the <available_skills> block as encoding/xml reads it.
type promptDoc struct {
	Skills []struct {
		Name        string `xml:"name"`
		Description string `xml:"description"`
		Location    string `xml:"location"`
	} `xml:"skill"`
}

// readPrompt checks p (promptProblem, and xmllint when there is one) and
// returns what it says.
func readPrompt(t *testing.T, p string, n int) promptDoc {
	t.Helper()
	require.NoError(t, promptProblem(p, n))
	if xmllint, err := exec.LookPath("xmllint"); err == nil {
		cmd := exec.Command(xmllint, "--noout", "-")
		cmd.Stdin = strings.NewReader(p)
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, "xmllint: %s", out)
	}
	var doc promptDoc
	require.NoError(t, xml.Unmarshal([]byte(p), &doc))
	require.Len(t, doc.Skills, n)
	return doc
}

// TestFormatPromptHostile: names, descriptions and locations holding what
// XML 1.0 forbids, invalid UTF-8, or characters that move a cursor or
// reorder text, or that no reader sees: the prompt is well-formed XML in
// valid UTF-8 all the same, each character that acts shown as U+FFFD, each
// invisible one dropped (safetext's rule).
func TestFormatPromptHostile(t *testing.T) {
	const r = "\uFFFD"
	for _, tc := range []struct {
		name string
		in   string
		want string
	}{
		{"plain", "pdf reader", "pdf reader"},
		{"BEL", "a\x07b", "a" + r + "b"},
		{"ESC sequence", "\x1b[31mred\x1b[0m", r + "[31mred" + r + "[0m"},
		{"NUL", "a\x00b", "a" + r + "b"},
		{"DEL", "a\x7fb", "a" + r + "b"},
		{"U+FFFE and U+FFFF", "a\ufffeb\uffffc", "a" + r + "b" + r + "c"},
		{"invalid UTF-8", "a\xff\xfeb", "a" + r + "b"},
		{"an encoded surrogate", "a\xed\xa0\x80b", "a" + r + "b"},
		{"a truncated sequence", "a\xe2\x82", "a" + r},
		{"C1 controls", "a\u0085b\u009bc", "a" + r + "b" + r + "c"},
		{"bidi override and isolates", "\u202eevil\u202c \u2066x\u2069", r + "evil" + r + " " + r + "x" + r},
		{"bidi marks", "a\u200eb\u200fc\u061cd", "a" + r + "b" + r + "c" + r + "d"},
		{"line and paragraph separators", "a\u2028b\u2029c", "a" + r + "b" + r + "c"},
		{"tab and newline kept, CR dropped", "a\tb\r\nc", "a\tb\nc"},
		{"tag characters dropped", "pdf\U000E0001\U000E0072\U000E0075\U000E006E\U000E007F reader", "pdf reader"},
		{"zero-width and fillers dropped", "p\u200bd\u2060f\uFEFF\u3164 \u00ADr\uFE0F", "pdf r"},
		{"markup escaped", `<x a="1">&'`, `<x a="1">&'`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := formatPrompt([]promptEntry{{Name: tc.in, Description: tc.in, Location: "/skills/" + tc.in + "/SKILL.md"}})
			doc := readPrompt(t, p, 1)
			got := doc.Skills[0]
			assert.Equal(t, tc.want, got.Name)
			assert.Equal(t, tc.want, got.Description)
			assert.Equal(t, "/skills/"+tc.want+"/SKILL.md", got.Location)
		})
	}
	// The cut counts what is shown.
	p := formatPrompt([]promptEntry{{Name: "x", Description: strings.Repeat("\x07", 1500), Location: "/l"}})
	assert.Equal(t, strings.Repeat(r, 1023)+"…", readPrompt(t, p, 1).Skills[0].Description)
}
