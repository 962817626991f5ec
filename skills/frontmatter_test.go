package skills

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestExtractFrontmatter(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		in   string
		text string // the block, when it loads
		body int    // its body line
		skip string // the skip message, when it does not
		line int    // and its line
	}{
		{"plain", "---\na: 1\n---\nbody\n", "a: 1\n", 4, "", 0},
		{"crlf", "---\r\na: 1\r\n---\r\nbody\r\n", "a: 1\n", 4, "", 0},
		{"cr", "---\ra: 1\r---\rbody", "a: 1\n", 4, "", 0},
		{"bom", "\ufeff---\na: 1\n---\n", "a: 1\n", 4, "", 0},
		{"only one bom is stripped", "\ufeff\ufeff---\na: 1\n---\n", "", 0, noFrontmatter + "; this one starts with other text", 1},
		{"blank lines first", "\n  \n\t\n---\na: 1\n---\n", "a: 1\n", 7, "", 0},
		{"trailing spaces on delimiters", "--- \na: 1\n---\t \n", "a: 1\n", 4, "", 0},
		{"closing at EOF", "---\na: 1\n---", "a: 1\n", 4, "", 0},
		{"empty block", "---\n---\n", "", 3, "", 0},
		{"--- inside a value", "---\na: x --- y\nb: |\n  ---\n---\n", "a: x --- y\nb: |\n  ---\n", 6, "", 0},
		{"a second block is body", "---\na: 1\n---\n---\nb: 2\n---\n", "a: 1\n", 4, "", 0},
		{"no frontmatter", "# Title\n---\na: 1\n---\n", "", 0, noFrontmatter + "; this one starts with other text", 1},
		{"indented delimiter", " ---\na: 1\n---\n", "", 0, noFrontmatter + "; this one starts with other text", 1},
		{"empty file", "", "", 0, noFrontmatter + "; this one is empty", 0},
		{"blank file", "\n\n", "", 0, noFrontmatter + "; this one is empty", 0},
		{"unclosed", "---\na: 1\n", "", 0, "frontmatter not closed: no line '---' after line 1", 1},
		{"unclosed after blank lines", "\n---\na: 1\n----\n", "", 0, "frontmatter not closed: no line '---' after line 2", 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			b, issue := extractFrontmatter([]byte(tc.in))
			if tc.skip != "" {
				require.NotNil(t, issue)
				assert.Equal(t, tc.skip, issue.Message)
				assert.Equal(t, tc.line, issue.Line)
				return
			}
			require.Nil(t, issue, "%v", issue)
			assert.Equal(t, tc.text, b.text)
			assert.Equal(t, tc.body, b.bodyLine)
		})
	}
}

// TestExtractFrontmatterCap: only maxFrontmatterBytes are read; a
// frontmatter that does not close within them is refused, saying so.
func TestExtractFrontmatterCap(t *testing.T) {
	t.Parallel()
	big := "---\ndescription: " + strings.Repeat("x", maxFrontmatterBytes) + "\n---\n"
	_, issue := extractFrontmatter([]byte(big))
	require.NotNil(t, issue)
	assert.Equal(t, "frontmatter not closed: no line '---' after line 1 within the first 64 KiB read", issue.Message)

	// A large body after a small frontmatter is fine.
	ok := "---\nname: x\ndescription: y\n---\n" + strings.Repeat("body\n", maxFrontmatterBytes)
	b, issue := extractFrontmatter([]byte(ok))
	require.Nil(t, issue)
	assert.Equal(t, "name: x\ndescription: y\n", b.text)
}

func TestYAMLErrorLines(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		text string
		line int
		msg  string
	}{
		{"scanner error on line 1", "description: Use this: it\n", 1, "mapping values are not allowed in this context"},
		{"scanner error on line 2", "name: x\ndescription: Use this: it\n", 2, "mapping values are not allowed in this context"},
		{"parser error", "name: x\nmetadata: {\"a\": {\"b\": 1}\nc: d\n", 2, "did not find expected ',' or '}'"},
		{"parser error at the end", "a: 1\nb: [\n", 2, "did not find expected node content"},
		{"tab indentation", "a:\n\tb: 1\n", 2, "found character that cannot start any token"},
		{"invalid UTF-8", "a: 1\nb: \xff\n", 2, "invalid leading UTF-8 octet"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			fields, issue := parseYAMLFields(block{text: tc.text, firstLine: 10})
			require.Nil(t, fields)
			require.NotNil(t, issue)
			assert.Equal(t, 9+tc.line, issue.Line, "the block starts at line 10")
			assert.Equal(t, tc.msg, issue.Message)
		})
	}
}

func TestLenientFields(t *testing.T) {
	t.Parallel()
	text := strings.Join([]string{
		"name: lenient",
		"description: Use when: you need it",
		"quoted: \"a \\\"b\\\": c\"",
		"single: 'it''s: here'",
		"literal: |",
		"  line one: a",
		"  line two",
		"folded: >-",
		"  one: a",
		"  two",
		"plain: starts here: and",
		"  goes on",
		"list:",
		"  - a",
		"  - b",
		"list0:",
		"- c",
		"flow: [x, y]",
		"json: {\"k\": [1, 2,],}",
		"broken: {\"k\": [1}",
		"# a comment",
		"  not a continuation of anything",
		"stray line without a colon",
		"empty:",
		"",
	}, "\n")
	got := map[string]any{}
	lines := map[string]int{}
	for _, f := range parseLenientFields(block{text: text, firstLine: 2}) {
		got[f.key] = toPlain(f.value)
		lines[f.key] = f.line
	}
	assert.Equal(t, map[string]any{
		"name":        "lenient",
		"description": "Use when: you need it",
		"quoted":      `a "b": c`,
		"single":      "it's: here",
		"literal":     "line one: a\nline two",
		"folded":      "one: a two",
		"plain":       "starts here: and goes on",
		"list":        []any{"a", "b"},
		"list0":       []any{"c"},
		"flow":        []any{"x", "y"},
		"json":        map[string]any{"k": []any{"1", "2"}},
		"broken":      `{"k": [1}`,
		"empty":       nil,
	}, got)
	assert.Equal(t, 2, lines["name"])
	assert.Equal(t, 3, lines["description"])
	assert.Equal(t, 25, lines["empty"])
}

func TestRemoveTrailingCommas(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		`{"a": 1,}`:               `{"a": 1}`,
		"{\"a\": [1, 2,\n  ],\n}": "{\"a\": [1, 2\n  ]\n}",
		`{"a": "x,}"}`:            `{"a": "x,}"}`,
		`{"a": "say \",]\" ok",}`: `{"a": "say \",]\" ok"}`,
		`{'a': 'it''s,]',}`:       `{'a': 'it''s,]'}`,
		`{a: don't, b: [1,],}`:    `{a: don't, b: [1]}`,
		`no commas`:               `no commas`,
		`[1, 2, 3]`:               `[1, 2, 3]`,
		`{"unterminated": "x,}`:   `{"unterminated": "x,}`,
		`{"a": 1,   ,}`:           `{"a": 1,   }`,
	} {
		assert.Equal(t, want, removeTrailingCommas(in), in)
	}
}
