//go:build unix

package skills

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gate-dev/gate/internal/nohang"
	"github.com/gate-dev/gate/internal/skillhost"
)

func mkfifo(t *testing.T, path string) {
	t.Helper()
	require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
	require.NoError(t, syscall.Mkfifo(path, 0o644))
}

// TestLoadFileNotRegular: whatever the walk saw, the file read may by then
// be a FIFO (whose plain open blocks until a writer comes), a directory, or
// a link (to a device, whose reads never end, or out of the skill paths),
// which is not followed. Each is a report naming the path and saying what
// it is, at once.
func TestLoadFileNotRegular(t *testing.T) {
	dir := t.TempDir()
	cases := []struct {
		name string
		make func(path string)
		want string
	}{
		{"a FIFO", func(p string) { mkfifo(t, p) }, "cannot read: not a regular file (a FIFO)"},
		{"a directory", func(p string) { require.NoError(t, os.Mkdir(p, 0o755)) }, "cannot read: not a regular file (a directory)"},
		{"a link to /dev/zero", func(p string) { require.NoError(t, os.Symlink("/dev/zero", p)) }, "cannot read: a symbolic link on the way, which is not followed"},
		{"a broken link", func(p string) { require.NoError(t, os.Symlink(filepath.Join(dir, "nowhere"), p)) }, "cannot read: a symbolic link on the way, which is not followed"},
	}
	for i, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if tc.name == "a link to /dev/zero" {
				if _, err := os.Stat("/dev/zero"); err != nil {
					t.Skip("no /dev/zero")
				}
			}
			path := filepath.Join(dir, fmt.Sprint(i), "SKILL.md")
			require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
			tc.make(path)
			// As the walk left it: it saw a regular file there.
			f := &fileState{path: path, root: dir, file: locate(path, dir), size: 100, mtime: time.Now()}
			nohang.Run(t, "loading "+tc.name, func() { loadFile(f, parseOptions{}, nil) })
			assert.Nil(t, f.skill)
			require.NotNil(t, f.report)
			assert.Equal(t, Report{Kind: ReportSkipped, Path: path, Code: CodeUnreadable, Message: tc.want}, *f.report)
		})
	}
}

// TestDiscoverNotRegular: a SKILL.md that is a FIFO, a device or a
// directory, found by a walk or given as a discovery path, is reported,
// and the search goes on; none of them hangs it.
func TestDiscoverNotRegular(t *testing.T) {
	if _, err := os.Stat("/dev/zero"); err != nil {
		t.Skip("no /dev/zero")
	}
	root := t.TempDir()
	writeSkill(t, root, "ok", skillText("ok", "d"))
	fifo := filepath.Join(root, "fifo", "SKILL.md")
	mkfifo(t, fifo)
	dirSkill := filepath.Join(root, "dir", "SKILL.md")
	require.NoError(t, os.MkdirAll(dirSkill, 0o755))
	zero := filepath.Join(root, "zero", "SKILL.md")
	require.NoError(t, os.MkdirAll(filepath.Dir(zero), 0o755))
	require.NoError(t, os.Symlink("/dev/zero", zero))

	skipped := func(path, what string) Report {
		return Report{Kind: ReportSkipped, Path: path, Code: CodeUnreadable, Message: "cannot read: not a regular file (" + what + ")"}
	}
	for _, tc := range []struct {
		name  string
		paths []string
		opts  DiscoverOptions
		want  []Report
		names []string
	}{
		{"in a tree, links followed anywhere", []string{root}, DiscoverOptions{FollowOutsideLinks: true},
			[]Report{skipped(dirSkill, "a directory"), skipped(fifo, "a FIFO"), skipped(zero, "a character device")}, []string{"ok"}},
		{"the FIFO as the discovery path", []string{fifo}, DiscoverOptions{},
			[]Report{skipped(fifo, "a FIFO")}, nil},
		{"/dev/zero as the discovery path", []string{zero}, DiscoverOptions{},
			[]Report{skipped(zero, "a character device")}, nil},
		{"the directory as the discovery path", []string{filepath.Join(root, "dir")}, DiscoverOptions{},
			[]Report{skipped(dirSkill, "a directory")}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var cat *Catalog
			nohang.Run(t, "Discover", func() { cat = Discover(tc.paths, tc.opts) })
			assert.Equal(t, tc.want, cat.Reports)
			assert.Equal(t, tc.names, names(cat.Skills))
		})
	}
}

// TestRefreshFIFOSwappedIn: a file renamed over SKILL.md again and again,
// now a regular file, now a FIFO, as a hostile user can. The walk sees one
// and the read may meet the other; no Refresh may hang (the Manager's
// Refresh would then hold up every later one for good).
func TestRefreshFIFOSwappedIn(t *testing.T) {
	root := t.TempDir()
	path := writeSkill(t, root, "flip", skillText("flip", "d"))
	m := NewManager(Discover([]string{root}, DiscoverOptions{}), ManagerOptions{Host: skillhost.Map{GOOS: "linux"}})

	stop := make(chan struct{})
	var renamer sync.WaitGroup
	renamer.Add(1)
	go func() {
		defer renamer.Done()
		tmpFile, tmpFIFO := filepath.Join(root, "flip", ".tmp-file"), filepath.Join(root, "flip", ".tmp-fifo")
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			// A new size each time, so that the walk's stat differs and
			// Refresh opens the file rather than reuse its last parse.
			if os.WriteFile(tmpFile, []byte(skillText("flip", "d"+strings.Repeat("x", i%500))), 0o644) == nil {
				_ = os.Rename(tmpFile, path)
			}
			if syscall.Mkfifo(tmpFIFO, 0o644) == nil {
				_ = os.Rename(tmpFIFO, path)
			}
		}
	}()
	defer func() {
		close(stop)
		renamer.Wait()
	}()

	var fifos, skills int
	nohang.Run(t, "Refresh with a FIFO swapped in", func() {
		for range 500 {
			m.Refresh()
			if _, ok := m.Skill("flip"); ok {
				skills++
			} else {
				fifos++
			}
		}
	})
	t.Logf("%d refreshes found the skill, %d did not", skills, fifos)
	for _, r := range m.Reports() {
		assert.Equal(t, path, r.Path, "every report names the file")
	}
}

// TestDiscoverOutsideLinks: a symbolic link (to a directory or to a
// SKILL.md) leading out of the discovery path is reported and not
// followed, unless FollowOutsideLinks; a link within the path, and a
// discovery path that is itself a link, are followed.
func TestDiscoverOutsideLinks(t *testing.T) {
	elsewhere := t.TempDir()
	outFile := writeSkill(t, elsewhere, "out-file", skillText("out-file", "d"))
	writeSkill(t, elsewhere, "out-dir", skillText("out-dir", "d"))

	root := t.TempDir()
	writeSkill(t, root, "store/inner", skillText("inner", "d"))
	writeSkill(t, root, "store/target", skillText("target", "d"))
	link := func(target, name string) string {
		p := filepath.Join(root, name)
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.Symlink(target, p))
		return p
	}
	toRoot := link("/", "slash")
	toDir := link(filepath.Join(elsewhere, "out-dir"), "out-dir")
	toFile := link(outFile, "by-file/SKILL.md")
	link(filepath.Join(root, "store", "inner"), "alias")                               // within: a directory
	link(filepath.Join(root, "store", "target", "SKILL.md"), "by-inner-file/SKILL.md") // within: a file
	rootLink := filepath.Join(t.TempDir(), "link-to-root")
	require.NoError(t, os.Symlink(root, rootLink))

	outside := func(path, target, rootDir string) Report {
		return Report{Kind: ReportOutsideLink, Path: path, Target: target, Message: "not followed: a symbolic link to " + target + ", outside " + rootDir +
			" (set follow_outside_links = true under [skills] in the manifest, or DiscoverOptions.FollowOutsideLinks, to follow links out of the skill paths)"}
	}
	for _, tc := range []struct {
		name  string
		path  string
		opts  DiscoverOptions
		names []string
		want  []Report
	}{
		{"not followed by default", root, DiscoverOptions{},
			[]string{"inner", "target"},
			[]Report{outside(toFile, outFile, root), outside(toDir, filepath.Join(elsewhere, "out-dir"), root), outside(toRoot, "/", root)}},
		{"a root that is a link is searched inside its target", rootLink, DiscoverOptions{},
			[]string{"inner", "target"},
			[]Report{outside(filepath.Join(rootLink, "by-file", "SKILL.md"), outFile, rootLink),
				outside(filepath.Join(rootLink, "out-dir"), filepath.Join(elsewhere, "out-dir"), rootLink),
				outside(filepath.Join(rootLink, "slash"), "/", rootLink)}},
		// Following the link to / would walk the machine: depth 0 keeps
		// that to a glance at / itself.
		{"followed when asked", root, DiscoverOptions{FollowOutsideLinks: true, MaxDepth: 1},
			[]string{"inner", "out-file", "out-dir", "target"}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cat := Discover([]string{tc.path}, tc.opts)
			assert.ElementsMatch(t, tc.names, names(cat.Skills))
			if tc.want == nil {
				assert.Empty(t, cat.Reported(ReportOutsideLink))
				return
			}
			assert.Equal(t, tc.want, cat.Reported(ReportOutsideLink))
			for _, s := range cat.Skills {
				assert.True(t, within(realPath(s.Path), realPath(root)), "%s is from outside the root", s.Path)
			}
		})
	}
}

// TestDiscoverLimits: a discovery enters at most MaxDirs directories and
// loads at most MaxSkills skill files, over all its paths, and says once
// where it stopped.
func TestDiscoverLimits(t *testing.T) {
	first, second := t.TempDir(), t.TempDir()
	for _, n := range []string{"a", "b", "c", "d"} {
		writeSkill(t, first, n, skillText(n, "d"))
	}
	writeSkill(t, second, "e", skillText("e", "d"))
	paths := []string{first, second}

	for _, tc := range []struct {
		name      string
		opts      DiscoverOptions
		names     []string
		limitPath string
		message   string
	}{
		{"defaults", DiscoverOptions{}, []string{"a", "b", "c", "d", "e"}, "", ""},
		{"no limits", DiscoverOptions{MaxDirs: -1, MaxSkills: -1}, []string{"a", "b", "c", "d", "e"}, "", ""},
		// The root and a, b: c is the fourth directory.
		{"directories", DiscoverOptions{MaxDirs: 3}, []string{"a", "b"}, filepath.Join(first, "c"),
			"not searched, nor anything after it: discovery stops after entering 3 directories (DiscoverOptions.MaxDirs); point the skill paths at skill folders rather than at a large tree"},
		{"skill files", DiscoverOptions{MaxSkills: 2}, []string{"a", "b"}, filepath.Join(first, "c", "SKILL.md"),
			"not loaded, nor anything after it: discovery stops after 2 skill files (DiscoverOptions.MaxSkills)"},
		{"over two paths", DiscoverOptions{MaxSkills: 4}, []string{"a", "b", "c", "d"}, filepath.Join(second, "e", "SKILL.md"),
			"not loaded, nor anything after it: discovery stops after 4 skill files (DiscoverOptions.MaxSkills)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cat := Discover(paths, tc.opts)
			assert.Equal(t, tc.names, names(cat.Skills))
			limits := cat.Reported(ReportLimit)
			if tc.limitPath == "" {
				assert.Empty(t, limits)
				return
			}
			assert.Equal(t, []Report{{Kind: ReportLimit, Path: tc.limitPath, Message: tc.message}}, limits, "reported once")
		})
	}
}

// holdWalk makes every walk call entered (once per directory) and, on the
// first directory, wait until release is closed. It undoes itself when the
// test ends.
func holdWalk(t *testing.T) (entered *atomic.Int64, first, release chan struct{}) {
	entered = new(atomic.Int64)
	first, release = make(chan struct{}), make(chan struct{})
	testHookDir = func(string) {
		if entered.Add(1) == 1 {
			close(first)
			<-release
		}
	}
	t.Cleanup(func() { testHookDir = nil })
	return entered, first, release
}

// TestRefreshContext: a Refresh under way never holds up a reader, and is
// abandoned, leaving the catalog as it was, when its context ends; so is
// one waiting for it.
func TestRefreshContext(t *testing.T) {
	root := t.TempDir()
	for i := range 20 {
		writeSkill(t, root, fmt.Sprintf("s%02d", i), skillText(fmt.Sprintf("s%02d", i), "d"))
	}
	m := NewManager(Discover([]string{root}, DiscoverOptions{}), ManagerOptions{Host: skillhost.Map{GOOS: "linux"}})
	before := m.Prompt()
	writeSkill(t, root, "new", skillText("new", "d"))

	entered, first, release := holdWalk(t)
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() {
		_, err := m.RefreshContext(ctx)
		errc <- err
	}()
	<-first

	nohang.Run(t, "reading while a Refresh is under way", func() {
		assert.Equal(t, before, m.Prompt())
		assert.Len(t, m.Offered(), 20)
		assert.Len(t, m.Diagnostics(), 20)
		assert.Empty(t, m.Reports())
	})

	// A second Refresh waits for the first, and gives up with its context.
	waiting, stopWaiting := context.WithCancel(context.Background())
	waitErr := make(chan error, 1)
	go func() {
		_, err := m.RefreshContext(waiting)
		waitErr <- err
	}()
	stopWaiting()
	nohang.Run(t, "a Refresh waiting for another, its context ended", func() { assert.ErrorIs(t, <-waitErr, context.Canceled) })

	cancel()
	close(release)
	nohang.Run(t, "the abandoned Refresh", func() { assert.ErrorIs(t, <-errc, context.Canceled) })
	assert.Equal(t, int64(1), entered.Load(), "no directory entered after the context ended")
	_, ok := m.Skill("new")
	assert.False(t, ok, "an abandoned Refresh changes nothing")

	testHookDir = nil
	rep, err := m.RefreshContext(context.Background())
	require.NoError(t, err)
	assert.Equal(t, []string{"new"}, rep.Added)

	cat, err := DiscoverContext(ctx, []string{root}, DiscoverOptions{})
	assert.ErrorIs(t, err, context.Canceled)
	assert.Nil(t, cat)
}

// TestCatalogWarnings: the warnings of skills that loaded, which no state
// shows, are at hand for a doctor to print, each naming its file and line.
func TestCatalogWarnings(t *testing.T) {
	root := t.TempDir()
	bad := writeSkill(t, root, "Bad_Name", skillText("Bad_Name", "d", `metadata: '{"openclaw": [}'`))
	writeSkill(t, root, "clean", skillText("clean", "d"))
	writeSkill(t, root, "lenient", "---\nname: lenient\ndescription: Use when: x\n---\n")
	m := NewManager(Discover([]string{root}, DiscoverOptions{}), ManagerOptions{Host: skillhost.Map{GOOS: "linux"}})

	got := m.Warnings()
	assert.Equal(t, m.Catalog().Warnings(), got)
	s, _ := m.Skill("Bad_Name")
	require.NotEmpty(t, s.Warnings)
	require.Len(t, got, len(s.Warnings), "only Bad_Name's: the lenient one is a ReportLenient in Reports already")
	for i, w := range got {
		assert.Equal(t, Report{Kind: ReportWarning, Path: bad, Line: s.Warnings[i].Line, Code: s.Warnings[i].Code, Skill: "Bad_Name", Message: s.Warnings[i].Message}, w)
	}
	var codes []string
	for _, w := range got {
		codes = append(codes, w.Code)
	}
	assert.Contains(t, codes, CodeNameFormat)
	assert.Contains(t, codes, CodeMetadata)
	assert.Len(t, m.Catalog().Reported(ReportLenient), 1)
}
