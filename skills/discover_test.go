package skills

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestDiscoverPathForms(t *testing.T) {
	root := t.TempDir()
	path := writeSkill(t, root, "one", skillText("one", "d"))

	for name, p := range map[string]string{
		"a directory of skills": root,
		"the skill folder":      filepath.Join(root, "one"),
		"its SKILL.md":          path,
	} {
		cat := Discover([]string{p}, DiscoverOptions{})
		require.Len(t, cat.Skills, 1, name)
		assert.Equal(t, path, cat.Skills[0].Path, name)
		assert.Empty(t, cat.Reports, name)
	}

	other := filepath.Join(root, "one", "notes.txt")
	require.NoError(t, os.WriteFile(other, []byte("x"), 0o644))
	cat := Discover([]string{other, filepath.Join(root, "nope")}, DiscoverOptions{})
	assert.Empty(t, cat.Skills)
	assert.Equal(t, []Report{
		{Kind: ReportUnreadable, Path: other, Message: "not a directory or a SKILL.md: skipped"},
		{Kind: ReportMissingRoot, Path: filepath.Join(root, "nope"), Message: "no such directory: skipped"},
	}, cat.Reports)
}

func TestDiscoverRelativePath(t *testing.T) {
	cat := Discover([]string{filepath.Join("testdata", "override")}, DiscoverOptions{})
	require.Len(t, cat.Skills, 2)
	assert.True(t, filepath.IsAbs(cat.Roots[0]))
	assert.True(t, filepath.IsAbs(cat.Skills[0].Path))
	assert.Equal(t, cat.Roots[0], cat.Skills[0].Root)
}

func TestDiscoverDepth(t *testing.T) {
	root := t.TempDir()
	writeSkill(t, root, "x", skillText("d1", "d"))
	writeSkill(t, root, "a/x", skillText("d2", "d"))
	writeSkill(t, root, "a/b/x", skillText("d3", "d"))
	for depth, want := range map[int][]string{
		-1: nil,
		1:  {"d1"},
		2:  {"d2", "d1"},
		0:  {"d3", "d2", "d1"},
	} {
		cat := Discover([]string{root}, DiscoverOptions{MaxDepth: depth})
		assert.Equal(t, want, names(cat.Skills), "MaxDepth %d", depth)
	}
	cat := Discover([]string{root}, DiscoverOptions{MaxDepth: 1})
	deep := cat.Reported(ReportTooDeep)
	require.Len(t, deep, 2)
	assert.Equal(t, filepath.Join(root, "a", "b"), deep[0].Path)
	assert.Equal(t, filepath.Join(root, "a", "x"), deep[1].Path)
	assert.Equal(t, "not searched: more than 1 directories below "+root, deep[0].Message)
}

func TestDiscoverSkips(t *testing.T) {
	root := t.TempDir()
	writeSkill(t, root, "keep", skillText("keep", "d"))
	writeSkill(t, root, ".git/x", skillText("git", "d"))
	writeSkill(t, root, ".cache/x", skillText("hidden", "d"))
	writeSkill(t, root, "node_modules/x", skillText("npm", "d"))
	writeSkill(t, root, "keep/scripts/inner", skillText("inner", "d"))
	assert.Equal(t, []string{"keep"}, names(Discover([]string{root}, DiscoverOptions{}).Skills))

	// A hidden root is searched: ~/.claude/skills is one.
	hidden := filepath.Join(root, ".claude", "skills")
	writeSkill(t, hidden, "x", skillText("in-hidden-root", "d"))
	assert.Equal(t, []string{"in-hidden-root"}, names(Discover([]string{hidden}, DiscoverOptions{}).Skills))
}

func TestDiscoverSKILLmdPreferred(t *testing.T) {
	root := t.TempDir()
	writeSkill(t, root, "x", skillText("upper", "d"))
	require.NoError(t, os.WriteFile(filepath.Join(root, "x", "skill.md"), []byte(skillText("lower", "d")), 0o644))
	cat := Discover([]string{root}, DiscoverOptions{})
	if runtime.GOOS == "linux" {
		assert.Equal(t, []string{"upper"}, names(cat.Skills))
	}
}

func TestDiscoverOverrides(t *testing.T) {
	user, project := t.TempDir(), t.TempDir()
	u := writeSkill(t, user, "pdf", skillText("pdf", "user's"))
	writeSkill(t, user, "only-user", skillText("only-user", "d"))
	p := writeSkill(t, project, "pdf", skillText("pdf", "project's"))

	cat := Discover([]string{user, project}, DiscoverOptions{})
	assert.Equal(t, []string{"only-user", "pdf"}, names(cat.Skills), "by path order, then by path")
	s, _ := cat.Skill("pdf")
	assert.Equal(t, "project's", s.Description)
	assert.Equal(t, []Report{overrideReport("pdf", u, p)}, cat.Reports)
	assert.Equal(t, ReportOverride, cat.Reports[0].Kind)
	assert.Equal(t, u, cat.Reports[0].Path, "the dropped one")
	assert.Equal(t, p, cat.Reports[0].Kept)

	// The same directory twice: its files load once, nothing overrides.
	cat = Discover([]string{user, user}, DiscoverOptions{})
	assert.Len(t, cat.Skills, 2)
	assert.Empty(t, cat.Reports)
}

func TestDiscoverDuplicatesInOneRoot(t *testing.T) {
	root := t.TempDir()
	b := writeSkill(t, root, "b", skillText("same", "second"))
	a := writeSkill(t, root, "a", skillText("same", "first"))
	writeSkill(t, root, "c/deeper", skillText("same", "third"))
	cat := Discover([]string{root}, DiscoverOptions{})
	require.Len(t, cat.Skills, 1)
	assert.Equal(t, "first", cat.Skills[0].Description)
	dups := cat.Reported(ReportDuplicate)
	require.Len(t, dups, 2)
	assert.Equal(t, b, dups[0].Path)
	assert.Equal(t, a, dups[0].Kept)
	assert.Equal(t, "same", dups[0].Skill)
}

func TestDiscoverSymlinks(t *testing.T) {
	root, elsewhere := t.TempDir(), t.TempDir()
	writeSkill(t, elsewhere, "linked", skillText("linked", "d"))
	if err := os.Symlink(filepath.Join(elsewhere, "linked"), filepath.Join(root, "linked")); err != nil {
		t.Skipf("no symbolic links: %v", err)
	}
	require.NoError(t, os.MkdirAll(filepath.Join(root, "loop"), 0o755))
	require.NoError(t, os.Symlink(root, filepath.Join(root, "loop", "back")))
	// Links out of the root are followed only when asked (see
	// TestDiscoverOutsideLinks for the default).
	cat := Discover([]string{root}, DiscoverOptions{FollowOutsideLinks: true})
	assert.Equal(t, []string{"linked"}, names(cat.Skills), "found once, through the link, without looping")
	assert.Empty(t, cat.Reports)
}

func TestDiscoverUnreadable(t *testing.T) {
	if os.Geteuid() == 0 || runtime.GOOS == "windows" {
		t.Skip("permissions do not stop root, nor apply on Windows")
	}
	root := t.TempDir()
	writeSkill(t, root, "ok", skillText("ok", "d"))
	locked := filepath.Join(root, "locked")
	require.NoError(t, os.MkdirAll(locked, 0o755))
	require.NoError(t, os.Chmod(locked, 0))
	t.Cleanup(func() { _ = os.Chmod(locked, 0o755) })
	cat := Discover([]string{root}, DiscoverOptions{})
	assert.Equal(t, []string{"ok"}, names(cat.Skills))
	require.Len(t, cat.Reported(ReportUnreadable), 1)
}

func TestDiscoverSkippedAndLenientReports(t *testing.T) {
	root := t.TempDir()
	bad := writeSkill(t, root, "bad", "---\nname: bad\n")
	lenient := writeSkill(t, root, "lenient", "---\nname: lenient\ndescription: Use when: x\n---\n")
	cat := Discover([]string{root}, DiscoverOptions{})
	assert.Equal(t, []Report{
		{Kind: ReportSkipped, Path: bad, Line: 1, Code: CodeUnclosed, Message: "frontmatter not closed: no line '---' after line 1"},
		{Kind: ReportLenient, Path: lenient, Line: 3, Code: CodeLenient, Skill: "lenient",
			Message: "invalid YAML at line 3 (mapping values are not allowed in this context): read with the key: value line parser"},
	}, cat.Reports)
	assert.Equal(t, bad+":1: frontmatter not closed: no line '---' after line 1", cat.Reports[0].String())
	assert.Equal(t, cat.Reports[:1], cat.Reported(ReportSkipped))
	assert.Len(t, cat.Reported(), 2)
}

func TestDiscoverAllowedToolsOption(t *testing.T) {
	root := t.TempDir()
	writeSkill(t, root, "x", skillText("x", "d", "allowed-tools: Bash(git:*) Read"))
	assert.Equal(t, []string{"Bash", "Read"}, Discover([]string{root}, DiscoverOptions{}).Skills[0].Requirements.Tools)
	off := false
	assert.Empty(t, Discover([]string{root}, DiscoverOptions{AllowedToolsRequired: &off}).Skills[0].Requirements.Tools)
}

func TestNewCatalog(t *testing.T) {
	a1 := mustParse(t, "a", skillText("a", "first"))
	a2 := mustParse(t, "a2", skillText("a", "second"))
	b := mustParse(t, "b", skillText("b", "d"))
	cat := newCatalog(a1, nil, b, a2)
	assert.Equal(t, []*Skill{b, a2}, cat.Skills)
	require.Len(t, cat.Reports, 1)
	assert.Equal(t, ReportOverride, cat.Reports[0].Kind)
	s, ok := cat.Skill("a")
	assert.True(t, ok)
	assert.Same(t, a2, s)
}

func TestDiscoverLenientReportAfterEarlierWarnings(t *testing.T) {
	root := t.TempDir()
	writeSkill(t, root, "x", "---\nname: x\nname: x\ndescription: Use when: x\n---\n")
	cat := Discover([]string{root}, DiscoverOptions{})
	require.Len(t, cat.Reports, 1)
	assert.Equal(t, ReportLenient, cat.Reports[0].Kind)
	assert.Equal(t, 4, cat.Reports[0].Line)
}
