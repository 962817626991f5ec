package skills

import (
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"time"
)

// DefaultMaxDepth is how deep below a discovery path a skill folder may be
// by default: 6, the top of the 4-6 range the agentskills client guide
// suggests, deep enough for category folders, shallow enough that a path
// pointed at a large tree by mistake stays cheap.
const DefaultMaxDepth = 6

// DiscoverOptions tune Discover.
type DiscoverOptions struct {
	// ParseOptions apply to every SKILL.md found.
	ParseOptions
	// MaxDepth is how many directories below a discovery path a skill
	// folder may be (a path that is itself a skill folder is depth 0). 0
	// means DefaultMaxDepth; a negative value means the paths themselves
	// only.
	MaxDepth int
}

func (o DiscoverOptions) maxDepth() int {
	switch {
	case o.MaxDepth == 0:
		return DefaultMaxDepth
	case o.MaxDepth < 0:
		return 0
	}
	return o.MaxDepth
}

// skillFiles are the names a skill's file may have, in order of preference.
var skillFiles = []string{"SKILL.md", "skill.md"}

// Discover finds the skills under paths and parses them. It never fails:
// whatever could not be read is in Catalog.Reports.
//
// Each path is a directory to search, or a skill folder itself (or its
// SKILL.md). A skill is a folder holding a SKILL.md, else a skill.md; the
// search:
//
//   - skips .git, node_modules and every hidden directory, which hold
//     copies, dependencies and caches rather than skills;
//   - goes at most MaxDepth directories down (DefaultMaxDepth, 6),
//     reporting the directories it leaves unsearched;
//   - does not look inside a skill folder for more skills: its subfolders
//     are the skill's resources (scripts/, references/, assets/), and a
//     SKILL.md there is a template or an example;
//   - follows symbolic links to directories (skills are often linked into
//     place), entering each real directory once;
//   - reports a path that does not exist, and goes on.
//
// Names decide which skill is kept: a later path overrides an earlier one
// (project skills over user skills), and within one path the first of two
// folders with the same skill name, by path, is kept; both are reported.
// Only the first MaxFrontmatterBytes of each file are read.
func Discover(paths []string, opts DiscoverOptions) *Catalog {
	return discover(paths, opts, nil)
}

// fileState is what discovery remembers of one SKILL.md, so that Refresh
// re-parses only what changed.
type fileState struct {
	path   string
	root   string // the discovery path it was found under
	size   int64
	mtime  time.Time
	hash   uint64
	skill  *Skill  // the parsed skill, or
	report *Report // why it was skipped
}

func (f *fileState) sameStat(o *fileState) bool {
	return o != nil && f.size == o.size && f.mtime.Equal(o.mtime)
}

// discover is Discover reusing the parse of every file whose size and
// modification time (or, when those changed, contents) match prev.
func discover(paths []string, opts DiscoverOptions, prev map[string]*fileState) *Catalog {
	c := &Catalog{opts: opts, byName: map[string]*Skill{}, files: map[string]*fileState{}}
	report := func(r Report) { c.Reports = append(c.Reports, r) }

	// Walk every root; a file reachable from two roots belongs to the first.
	var found []*fileState
	seenFiles := map[string]bool{}
	for _, p := range paths {
		root := p
		if abs, err := filepath.Abs(p); err == nil {
			root = abs
		}
		c.Roots = append(c.Roots, root)
		w := walker{maxDepth: opts.maxDepth(), report: report, seen: map[string]bool{}}
		w.root(root)
		sort.Slice(w.files, func(a, b int) bool { return w.files[a].path < w.files[b].path })
		for _, f := range w.files {
			if seenFiles[f.real] {
				continue
			}
			seenFiles[f.real] = true
			found = append(found, &fileState{path: f.path, root: root, size: f.info.Size(), mtime: f.info.ModTime()})
		}
	}

	load(found, opts.ParseOptions, prev)

	// Resolve names: first by path within a root, later roots override.
	kept := map[string]*fileState{}
	var overrides []Report
	for _, f := range found {
		c.files[f.path] = f
		if f.report != nil {
			report(*f.report)
			continue
		}
		s := f.skill
		for _, w := range s.Warnings {
			if w.Code == CodeLenient {
				report(Report{Kind: ReportLenient, Path: s.Path, Line: w.Line, Code: CodeLenient, Skill: s.Name, Message: w.Message})
			}
		}
		old, dup := kept[s.Name]
		switch {
		case !dup:
			kept[s.Name] = f
		case old.root == f.root:
			report(Report{Kind: ReportDuplicate, Path: s.Path, Skill: s.Name, Kept: old.path, Message: fmt.Sprintf(
				"skill %q is also at %s, which comes first under %s: this one is ignored", s.Name, old.path, f.root)})
		default:
			overrides = append(overrides, overrideReport(s.Name, old.path, s.Path))
			kept[s.Name] = f
		}
	}
	c.Reports = append(c.Reports, overrides...)
	for _, f := range found {
		if f.skill != nil && kept[f.skill.Name] == f {
			c.Skills = append(c.Skills, f.skill)
			c.byName[f.skill.Name] = f.skill
		}
	}
	return c
}

// load reads and parses the files, reusing prev's parse where the file did
// not change, several at a time: parsing is CPU-bound and files are
// independent.
func load(files []*fileState, opts ParseOptions, prev map[string]*fileState) {
	workers := min(runtime.GOMAXPROCS(0), 8, len(files))
	next := make(chan *fileState)
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for f := range next {
				loadFile(f, opts, prev[f.path])
			}
		}()
	}
	for _, f := range files {
		next <- f
	}
	close(next)
	wg.Wait()
}

// loadFile fills f from its file, or from old when nothing changed: f
// holds the size and time the walk found.
func loadFile(f *fileState, opts ParseOptions, old *fileState) {
	if old != nil && f.sameStat(old) && old.root == f.root {
		f.hash, f.skill, f.report = old.hash, old.skill, old.report
		return
	}
	fail := func(err error) {
		f.report = &Report{Kind: ReportSkipped, Path: f.path, Code: CodeUnreadable, Message: "cannot read: " + errText(err)}
	}
	fh, err := os.Open(f.path)
	if err != nil {
		fail(err)
		return
	}
	defer fh.Close()
	// One byte past the cap tells ParseSkill the file goes on.
	data, err := io.ReadAll(io.LimitReader(fh, MaxFrontmatterBytes+1))
	if err != nil {
		fail(err)
		return
	}
	h := fnv.New64a()
	h.Write(data)
	f.hash = h.Sum64()
	if old != nil && old.hash == f.hash && old.root == f.root {
		f.skill, f.report = old.skill, old.report
		return
	}
	f.skill, f.report = ParseSkill(f.path, data, opts)
	if f.skill != nil {
		f.skill.Root = f.root
	}
}

// errText is an error's message without the path the caller already shows.
func errText(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}

// walker collects the skill files under one root.
type walker struct {
	maxDepth int
	report   func(Report)
	seen     map[string]bool // real directories entered
	files    []foundFile
	rootDir  string
}

func (w *walker) root(root string) {
	w.rootDir = root
	info, err := os.Stat(root)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		w.report(Report{Kind: ReportMissingRoot, Path: root, Message: "no such directory: skipped"})
		return
	case err != nil:
		w.report(Report{Kind: ReportUnreadable, Path: root, Message: "cannot search: " + errText(err)})
		return
	case !info.IsDir():
		base := filepath.Base(root)
		for _, name := range skillFiles {
			if base == name {
				w.files = append(w.files, foundFile{root, realPath(root), info})
				return
			}
		}
		w.report(Report{Kind: ReportUnreadable, Path: root, Message: "not a directory or a SKILL.md: skipped"})
		return
	}
	w.dir(root, realPath(root), 0)
}

// dir searches one directory; real is its path with symbolic links
// resolved, which keys the cycle check.
func (w *walker) dir(dir, real string, depth int) {
	if w.seen[real] {
		return
	}
	w.seen[real] = true
	// A skill folder is recognised by its file alone, without listing it:
	// most folders searched are skill folders, and a Refresh walks them
	// all again.
	for _, name := range skillFiles {
		path := filepath.Join(dir, name)
		info, err := os.Lstat(path)
		if err != nil {
			continue
		}
		fileReal := filepath.Join(real, name)
		if info.Mode()&fs.ModeSymlink != 0 {
			if info, err = os.Stat(path); err != nil {
				continue
			}
			fileReal = realPath(path)
		}
		if info.Mode().IsRegular() {
			w.files = append(w.files, foundFile{path, fileReal, info})
			return
		}
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		w.report(Report{Kind: ReportUnreadable, Path: dir, Message: "cannot search: " + errText(err)})
		return
	}
	for _, e := range entries {
		name := e.Name()
		if strings.HasPrefix(name, ".") || name == "node_modules" {
			continue
		}
		sub := filepath.Join(dir, name)
		subReal := filepath.Join(real, name)
		switch {
		case e.IsDir():
		case e.Type()&fs.ModeSymlink != 0:
			info, err := os.Stat(sub)
			if err != nil || !info.IsDir() {
				continue
			}
			r, err := filepath.EvalSymlinks(sub)
			if err != nil {
				continue
			}
			subReal = r
		default:
			continue
		}
		if depth >= w.maxDepth {
			w.report(Report{Kind: ReportTooDeep, Path: sub, Message: fmt.Sprintf(
				"not searched: more than %d directories below %s", w.maxDepth, w.rootDir)})
			continue
		}
		w.dir(sub, subReal, depth+1)
	}
}

// foundFile is a skill file found by a walk, its path with symbolic links
// resolved (a file reachable from two discovery paths is loaded once), and
// what a stat said of it.
type foundFile struct {
	path, real string
	info       fs.FileInfo
}

// realPath is path with symbolic links resolved, or path itself when that
// fails.
func realPath(path string) string {
	if r, err := filepath.EvalSymlinks(path); err == nil {
		return r
	}
	return path
}
