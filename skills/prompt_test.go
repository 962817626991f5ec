package skills

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
)

// Tests 48-55 of the original (test_prompt.py), with the fix that an empty
// list gives no block.

func TestFormatPromptEmpty(t *testing.T) { // 48, 54
	assert.Equal(t, "", FormatPrompt(nil))
	assert.Equal(t, "", FormatPrompt([]PromptEntry{}))
}

func TestFormatPromptSingle(t *testing.T) { // 49, 52, 55
	got := FormatPrompt([]PromptEntry{{Name: "pdf-reader", Description: "Read and extract text from PDF files", Location: "/path/to/SKILL.md"}})
	assert.Equal(t, `<available_skills>
  <skill>
    <name>pdf-reader</name>
    <description>Read and extract text from PDF files</description>
    <location>/path/to/SKILL.md</location>
  </skill>
</available_skills>`, got)
}

func TestFormatPromptMultiple(t *testing.T) { // 50, 53
	got := FormatPrompt([]PromptEntry{
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

func TestFormatPromptEscapes(t *testing.T) { // 51
	got := FormatPrompt([]PromptEntry{{Name: `a&b`, Description: `Test <script> & "quotes" handling, it's`, Location: `/p/<x>/SKILL.md`}})
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
			assert.LessOrEqual(t, utf8.RuneCountInString(got), PromptDescriptionLimit)
		})
	}
	// Truncation happens before escaping: "&" counts as one character.
	got := FormatPrompt([]PromptEntry{{Name: "x", Description: strings.Repeat("&", 1500), Location: "/l"}})
	assert.Contains(t, got, "<description>"+strings.Repeat("&amp;", 1023)+"…</description>")
}

func TestSkillEntry(t *testing.T) {
	s := mustParse(t, "x", skillText("x", "d"))
	assert.Equal(t, PromptEntry{Name: "x", Description: "d", Location: s.Path}, s.Entry())
	assert.True(t, strings.HasSuffix(s.Path, "SKILL.md"))
}
