package skills

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestNormalizeList ports PraisonAI's test_normalize_list and the rules of
// its _normalize_list, except that null items are dropped.
func TestNormalizeList(t *testing.T) {
	t.Parallel()
	abc := []string{"a", "b", "c"}
	for _, tc := range []struct {
		name string
		in   any
		want []string
	}{
		{"spaces", "a b c", abc},
		{"commas", "a,b,c", abc},
		{"comma and space", "a, b c", abc},
		{"empty pieces", "a,,b", []string{"a", "b"}},
		{"tabs and newlines", "a\tb\nc", abc},
		{"list", []any{"a", "b", "c"}, abc},
		{"string list", []string{" a ", "", "b"}, []string{"a", "b"}},
		{"empty string", "", nil},
		{"blank string", " ,, \t", nil},
		{"empty list", []any{}, nil},
		{"number", 123, nil},
		{"nil", nil, nil},
		{"map", map[string]any{"a": 1}, nil},
		{"list items are not comma-split", []any{"a,b"}, []string{"a,b"}},
		{"list items are stringified", []any{1, true, 2.5}, []string{"1", "true", "2.5"}},
		{"fix: a nil item is dropped, not None", []any{"a", nil, "b"}, []string{"a", "b"}},
		{"nested lists and maps are dropped", []any{"a", []any{"b"}, map[string]any{"c": 1}}, []string{"a"}},
		{"servers keep their colons", "mcp:filesystem http:internal", []string{"mcp:filesystem", "http:internal"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tc.want, normalizeList(tc.in))
		})
	}
}

func TestNormalizeCSVList(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		in   any
		want []string
	}{
		{"git,gh", []string{"git", "gh"}},
		{"git, gh", []string{"git", "gh"}},
		{"git gh", []string{"git", "gh"}}, // OpenClaw would look for "git gh"
		{[]any{" git ", "gh", ""}, []string{"git", "gh"}},
		{"PLURUM_API_KEY", []string{"PLURUM_API_KEY"}},
		{nil, nil},
		{7, nil},
	} {
		assert.Equal(t, tc.want, normalizeCSVList(tc.in), "%#v", tc.in)
	}
}

func TestSplitPermissionPatterns(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		in   string
		want []string
	}{
		{"Bash(git add:*) Read", []string{"Bash(git add:*)", "Read"}},
		{"Bash(git add:*) Bash(infsh *) Read", []string{"Bash(git add:*)", "Bash(infsh *)", "Read"}},
		{"Read, Write,Edit", []string{"Read", "Write", "Edit"}},
		{"Bash(git:*),Bash(jq:*)", []string{"Bash(git:*)", "Bash(jq:*)"}},
		{"Bash(a, b) Read", []string{"Bash(a, b)", "Read"}},
		{"Bash(f(x) y) Read", []string{"Bash(f(x) y)", "Read"}},
		{"Bash(unclosed and more", []string{"Bash(unclosed and more"}},
		{"a) b", []string{"a)", "b"}},
		{"mcp__github__create_issue", []string{"mcp__github__create_issue"}},
		{"  \t\n ", nil},
		{"", nil},
	} {
		assert.Equal(t, tc.want, splitPermissionPatterns(tc.in), "%q", tc.in)
	}
}

func TestAllowedTools(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name            string
		in              any
		patterns, tools []string
	}{
		{"claude patterns", "Bash(git add:*) Bash(infsh *) Read",
			[]string{"Bash(git add:*)", "Bash(infsh *)", "Read"}, []string{"Bash", "Read"}},
		{"a list", []any{"Read", "Bash(git add:*)", "Bash(git commit:*)"},
			[]string{"Read", "Bash(git add:*)", "Bash(git commit:*)"}, []string{"Read", "Bash"}},
		{"a list item holding two", []any{"Read Write"}, []string{"Read", "Write"}, []string{"Read", "Write"}},
		{"backward compatible names", []any{"existing_tool"}, []string{"existing_tool"}, []string{"existing_tool"}},
		{"duplicates", "Read Read", []string{"Read"}, []string{"Read"}},
		{"a pattern without a tool", "(x) Read", []string{"(x)", "Read"}, []string{"Read"}},
		{"nothing", nil, nil, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			p, tools := allowedTools(tc.in)
			assert.Equal(t, tc.patterns, p)
			assert.Equal(t, tc.tools, tools)
		})
	}
}

func TestPermissionToolName(t *testing.T) {
	t.Parallel()
	assert.Equal(t, "Bash", permissionToolName("Bash(git add:*)"))
	assert.Equal(t, "Read", permissionToolName("Read"))
	assert.Equal(t, "", permissionToolName("(x)"))
}
