package skills

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestMalformedLenientLists: a list-valued key whose value the line
// parser cannot parse as the list or mapping it starts as
// ("requires_tools: [terminal") is reported at its line, naming the key,
// and gives no names, whichever list key it is; the other keys are read
// as usual. Each file of testdata/malformed-lists is one case.
func TestMalformedLenientLists(t *testing.T) {
	t.Parallel()
	type warning struct {
		Line    int
		Message string
	}
	for _, tc := range []struct {
		dir      string
		req      Requirements
		warnings []warning
	}{
		{dir: "unclosed-flow", req: Requirements{Env: []string{"OPENAI_API_KEY"}}, warnings: []warning{
			{4, `requires_tools: malformed value "[terminal" (did not find expected ',' or ']'): ignored`},
		}},
		{dir: "every-key", warnings: []warning{
			{4, `requires_tools: malformed value "[a" (did not find expected ',' or ']'): ignored`},
			{5, `requires_servers: malformed value "[mcp:fs," (did not find expected node content): ignored`},
			{6, `requires_env: malformed value "{A" (did not find expected ',' or '}'): ignored`},
			{7, `fallback_for_tools: malformed value "[web_search" (did not find expected ',' or ']'): ignored`},
			{8, `fallback_for_servers: malformed value "[mcp:web" (did not find expected ',' or ']'): ignored`},
			{9, `allowed-tools: malformed value "[Bash(git *)" (did not find expected ',' or ']'): ignored`},
			{10, `platforms: malformed value "[linux" (did not find expected ',' or ']'): ignored`},
			{11, `required_environment_variables: malformed value "[{name: TOKEN}" (did not find expected ',' or ']'): ignored`},
		}},
		// The line is the one YAML failed at, inside a block list.
		{dir: "multi-line", req: Requirements{Servers: []string{"mcp:filesystem"}}, warnings: []warning{
			{6, `requires_tools: malformed value "- [web" (did not find expected ',' or ']'): ignored`},
		}},
		// A malformed key is present, so its alias is not read.
		{dir: "alias-not-read", warnings: []warning{
			{4, `requires_tools: malformed value "[a, b" (did not find expected ',' or ']'): ignored`},
		}},
	} {
		t.Run(tc.dir, func(t *testing.T) {
			t.Parallel()
			path := filepath.Join("testdata", "malformed-lists", tc.dir, "SKILL.md")
			data, err := os.ReadFile(path)
			require.NoError(t, err)
			s, rep := parseSkill(path, data, parseOptions{})
			require.Nil(t, rep)
			require.True(t, s.Lenient, "the file must be invalid YAML, read leniently")
			assert.Equal(t, tc.req, s.Requirements)
			var got []warning
			for _, w := range s.Warnings {
				if w.Code == CodeRequirement {
					got = append(got, warning{w.Line, w.Message})
				}
			}
			assert.Equal(t, tc.warnings, got)
		})
	}
}

// TestLenientTextIsNotMalformed: a value that starts like a list but is
// text where text is meant (a description) stays text, with no warning;
// and a list that parses is read as a list.
func TestLenientTextIsNotMalformed(t *testing.T) {
	t.Parallel()
	s := mustParse(t, "t", "---\nname: t\ndescription: [WIP] Summarise: meetings\nrequires_tools: [a, b]\n---\n")
	require.True(t, s.Lenient)
	assert.Equal(t, "[WIP] Summarise: meetings", s.Description)
	assert.Equal(t, []string{"a", "b"}, s.Requirements.Tools)
	for _, w := range s.Warnings {
		assert.NotEqual(t, CodeRequirement, w.Code, w.Message)
	}
}
