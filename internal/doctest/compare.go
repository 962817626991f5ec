package doctest

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Marked returns the page at path and its blocks marked "from" the
// calling test (its top-level name), at least one.
func Marked(t testing.TB, path string) (*Page, []*Block) {
	t.Helper()
	p, err := Load(path)
	require.NoError(t, err)
	test, _, _ := strings.Cut(t.Name(), "/")
	var blocks []*Block
	for _, b := range p.Blocks {
		if b.Marker != nil && b.Marker.From == test {
			blocks = append(blocks, b)
		}
	}
	require.NotEmpty(t, blocks, "%s has no block marked <!-- doc: from %s -->", path, test)
	return p, blocks
}

// Compare checks got, what command printed in the calling test, against
// the output the page at path shows for it, in a block marked "from" the
// calling test (the nth such block with that command, from 0: a page may
// show one command twice); with update, it writes got to the page
// instead (keeping the page's lines that still match, and its elisions).
func Compare(t testing.TB, path string, nth int, command, got string, update bool) {
	t.Helper()
	p, blocks := Marked(t, path)
	var s *Step
	for _, b := range blocks {
		for _, step := range b.Steps {
			if step.Command != command || !b.Prompted {
				continue
			}
			if nth == 0 && s == nil {
				s = step
			}
			nth--
		}
	}
	require.NotNil(t, s, "%s shows no command %q, with its output, in the blocks marked from this test", path, command)
	lines := Lines(got)
	if update {
		s.Output = Merge(s.Output, lines)
		require.NoError(t, p.Save())
		return
	}
	assert.True(t, Match(s.Output, lines), "%s:%d: $ %s\nthe page shows:\n%s\nthe run printed:\n%s",
		path, s.Line, command, strings.Join(s.Output, "\n"), strings.Join(lines, "\n"))
}

// Lines splits a command's output into lines, without the empty line
// after its last newline.
func Lines(out string) []string {
	if out == "" {
		return []string{}
	}
	return strings.Split(strings.TrimSuffix(out, "\n"), "\n")
}
