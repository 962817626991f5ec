package doctest

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Compare checks got, what command printed in the calling test, against
// the output the page at path shows for it; with update, it writes got
// to the page instead (keeping the page's elisions where they still
// match). The block must be marked "from" the calling test, so that the
// page says which test keeps it true.
func Compare(t testing.TB, path, command, got string, update bool) {
	t.Helper()
	p, err := Load(path)
	require.NoError(t, err)
	b, s := p.Find(command)
	require.NotNil(t, s, "%s shows no command %q", path, command)
	require.True(t, b.Prompted, "%s:%d: the block shows no output to compare", path, b.Line)
	test, _, _ := strings.Cut(t.Name(), "/")
	require.True(t, b.Marker != nil && b.Marker.From == test,
		"%s:%d: the block is not marked <!-- doc: from %s -->", path, b.Line, test)
	lines := Lines(got)
	if update {
		s.Output = Merge(s.Output, lines)
		require.NoError(t, p.Save())
		return
	}
	assert.True(t, Match(s.Output, lines), "%s:%d: %s\nthe page shows:\n%s\nthe run printed:\n%s",
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
