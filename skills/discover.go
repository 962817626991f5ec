package skills

import (
	"context"
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

// defaultMaxDepth is how deep below a discovery path a skill folder may be
// by default: 6, the top of the 4-6 range the agentskills client guide
// suggests, deep enough for category folders, shallow enough that a path
// pointed at a large tree by mistake stays cheap.
const defaultMaxDepth = 6

// defaultMaxDirs is how many directories one discovery enters by default,
// over all its paths: 10,000. A skills directory holds tens or hundreds of
// skill folders; a path pointed at a home directory or a source tree by
// mistake holds far more, and a server walks its paths again every second,
// so the walk stops there and says so (ReportLimit) rather than eat the
// machine.
const defaultMaxDirs = 10_000

// defaultMaxSkills is how many skill files one discovery loads by default,
// over all its paths: 10,000, far more than any model can be offered, and
// few enough that reading them all stays well under a second.
const defaultMaxSkills = 10_000

// DiscoverOptions tune Discover.
type DiscoverOptions struct {
	// AllowedToolsRequired says whether the tool names of allowed-tools are
	// required tools, as PraisonAI counts them (appended to requires_tools).
	// nil means true. Set it to false for hosts whose tool names differ
	// from Claude Code's (Bash, Read, ...), where such a requirement could
	// never be met; the patterns are still kept in
	// Requirements.AllowedTools.
	AllowedToolsRequired *bool
	// MaxDepth is how many directories below a discovery path a skill
	// folder may be (a path that is itself a skill folder is depth 0). 0
	// means 6; a negative value means the paths themselves
	// only.
	MaxDepth int
	// MaxDirs is how many directories one discovery (or one Refresh)
	// enters in all, skill folders included, over every path: 0 means
	// 10,000; a negative value means no limit. When it is
	// reached the search stops, with one ReportLimit.
	MaxDirs int
	// MaxSkills is how many skill files one discovery loads in all, over
	// every path: 0 means 10,000; a negative value means
	// no limit. When it is reached the search stops, with one ReportLimit.
	MaxSkills int
	// FollowOutsideLinks lets the search follow a symbolic link (to a
	// directory or to a SKILL.md) whose target lies outside the discovery
	// path it was found under. It is off by default: the search stays
	// inside the paths it was given, because a link to / or to a home
	// directory otherwise walks the whole file system, again at every
	// Refresh, and offers the model every SKILL.md found there
	// (docs/BENCHMARKS.md, "What the file and process bounds were measured
	// against"). A link not
	// followed is a ReportOutsideLink naming it and its target. A discovery
	// path that is itself a link is not affected: the search stays inside
	// its target.
	FollowOutsideLinks bool
}

func (o DiscoverOptions) maxDepth() int {
	switch {
	case o.MaxDepth == 0:
		return defaultMaxDepth
	case o.MaxDepth < 0:
		return 0
	}
	return o.MaxDepth
}

// limit turns a MaxDirs or MaxSkills option into a count: def for 0, -1
// (no limit) for a negative value.
func limit(v, def int) int {
	switch {
	case v == 0:
		return def
	case v < 0:
		return -1
	}
	return v
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
//   - goes at most MaxDepth directories down (6 by default),
//     reporting the directories it leaves unsearched;
//   - does not look inside a skill folder for more skills: its subfolders
//     are the skill's resources (scripts/, references/, assets/), and a
//     SKILL.md there is a template or an example;
//   - follows symbolic links to directories and to SKILL.md files, entering
//     each real directory once, as long as they stay inside the discovery
//     path: a link leading out of it is reported and not followed, unless
//     FollowOutsideLinks is set;
//   - enters at most MaxDirs directories and loads at most MaxSkills skill
//     files in all (10,000 each by default), reporting where it
//     stopped;
//   - reports a path that does not exist, and goes on.
//
// A SKILL.md that is not a regular file (a FIFO, a device, a directory, a
// broken link) is reported, never opened in a way that could block or
// read without end, and its folder is not searched further; only the
// first 64 KiB of each file are read.
//
// Names decide which skill is kept: a later path overrides an earlier one
// (project skills over user skills), and within one path the first of two
// folders with the same skill name, by path, is kept; both are reported.
func Discover(paths []string, opts DiscoverOptions) *Catalog {
	c, _ := discover(context.Background(), paths, opts, nil)
	return c
}

// DiscoverContext is Discover that gives up when ctx ends: it looks at ctx
// before entering each directory and before reading each file, and then
// returns ctx's error and no catalog. A shutdown need not wait for a walk
// of a large tree.
func DiscoverContext(ctx context.Context, paths []string, opts DiscoverOptions) (*Catalog, error) {
	return discover(ctx, paths, opts, nil)
}

// fileState is what discovery remembers of one SKILL.md, so that Refresh
// re-parses only what changed.
type fileState struct {
	path   string
	root   string   // the discovery path it was found under
	file   location // where it is, links resolved: where it is read
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
// modification time (or, when those changed, contents) match prev. It
// returns ctx's error, and no catalog, when ctx ends first.
func discover(ctx context.Context, paths []string, opts DiscoverOptions, prev map[string]*fileState) (*Catalog, error) {
	c := &Catalog{opts: opts, byName: map[string]*Skill{}, files: map[string]*fileState{}}
	report := func(r Report) { c.Reports = append(c.Reports, r) }

	// Walk every root; a file reachable from two roots belongs to the first.
	var found []*fileState
	seenFiles := map[string]bool{}
	b := &budget{dirs: limit(opts.MaxDirs, defaultMaxDirs), skills: limit(opts.MaxSkills, defaultMaxSkills)}
	b.maxDirs, b.maxSkills = b.dirs, b.skills
	for _, p := range paths {
		root := p
		if abs, err := filepath.Abs(p); err == nil {
			root = abs
		}
		c.Roots = append(c.Roots, root)
		w := walker{ctx: ctx, maxDepth: opts.maxDepth(), follow: opts.FollowOutsideLinks, budget: b, report: report, seen: map[string]bool{}}
		w.root(root)
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		sort.Slice(w.files, func(a, b int) bool { return w.files[a].path < w.files[b].path })
		for _, f := range w.files {
			if seenFiles[f.real] {
				continue
			}
			seenFiles[f.real] = true
			found = append(found, &fileState{path: f.path, root: root, file: locate(f.real, w.rootReal), size: f.info.Size(), mtime: f.info.ModTime()})
		}
	}

	if err := load(ctx, found, parseOptions{AllowedToolsRequired: opts.AllowedToolsRequired}, prev); err != nil {
		return nil, err
	}

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
	return c, nil
}

// load reads and parses the files, reusing prev's parse where the file did
// not change, several at a time: parsing is CPU-bound and files are
// independent. It stops handing out files when ctx ends, and then returns
// ctx's error.
func load(ctx context.Context, files []*fileState, opts parseOptions, prev map[string]*fileState) error {
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
		if ctx.Err() != nil {
			break
		}
		next <- f
	}
	close(next)
	wg.Wait()
	return ctx.Err()
}

// loadFile fills f from its file, or from old when nothing changed: f
// holds the size and time the walk found.
func loadFile(f *fileState, opts parseOptions, old *fileState) {
	if old != nil && f.sameStat(old) && old.root == f.root && old.file == f.file {
		f.hash, f.skill, f.report = old.hash, old.skill, old.report
		return
	}
	fail := func(err error) {
		f.report = &Report{Kind: ReportSkipped, Path: f.path, Code: CodeUnreadable, Message: "cannot read: " + errText(err)}
	}
	// Not os.Open: the walk looked at the file a moment ago, but it may
	// have been swapped since for a FIFO (whose open blocks until a writer
	// comes, holding up every later Refresh), a device (whose reads never
	// end), or a link out of the skill paths. It is opened where the walk
	// found it, links resolved, following none: without blocking, regular
	// files only, the descriptor checked.
	fh, _, err := openFile(f.file)
	if err != nil {
		fail(err)
		return
	}
	defer fh.Close()
	// One byte past the cap tells parseSkill the file goes on.
	data, err := io.ReadAll(io.LimitReader(fh, maxFrontmatterBytes+1))
	if err != nil {
		fail(err)
		return
	}
	h := fnv.New64a()
	h.Write(data)
	f.hash = h.Sum64()
	if old != nil && old.hash == f.hash && old.root == f.root && old.file == f.file {
		f.skill, f.report = old.skill, old.report
		return
	}
	f.skill, f.report = parseSkill(f.path, data, opts)
	if f.skill != nil {
		f.skill.Root = f.root
		f.skill.file = f.file
		f.skill.digest = f.hash
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

// budget is what one discovery may still do over all its roots: how many
// directories it may enter and skill files it may take; -1 is no limit.
// Once either runs out the search stops, and says so once.
type budget struct {
	dirs, skills       int
	maxDirs, maxSkills int  // as given, for the report
	spent              bool // the stop was reported
}

// take spends one from *n, reporting false when none is left.
func take(n *int) bool {
	switch {
	case *n < 0:
		return true
	case *n == 0:
		return false
	}
	*n--
	return true
}

// testHookDir, when set (by tests only), is called with every directory
// the walk is about to enter: a way to hold a walk still, since with
// safefile nothing on a real file system blocks it for long.
var testHookDir func(dir string)

// walker collects the skill files under one root.
type walker struct {
	ctx      context.Context
	maxDepth int
	follow   bool // FollowOutsideLinks
	budget   *budget
	report   func(Report)
	seen     map[string]bool // real directories entered
	files    []foundFile
	rootDir  string
	rootReal string // rootDir with symbolic links resolved
	stopped  bool   // ctx ended or the budget ran out
}

func (w *walker) root(root string) {
	w.rootDir = root
	if w.stopped = w.ctx.Err() != nil || w.budget.spent; w.stopped {
		return
	}
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
				// Whatever it is (a FIFO, a device): loadFile opens it
				// safely and reports what it is not.
				w.add(root, realPath(root), info)
				return
			}
		}
		w.report(Report{Kind: ReportUnreadable, Path: root, Message: "not a directory or a SKILL.md: skipped"})
		return
	}
	w.rootReal = realPath(root)
	w.dir(root, w.rootReal, 0)
}

// dir searches one directory; real is its path with symbolic links
// resolved, which keys the cycle check.
func (w *walker) dir(dir, real string, depth int) {
	if w.stopped || w.seen[real] {
		return
	}
	if testHookDir != nil {
		testHookDir(dir)
	}
	if w.ctx.Err() != nil {
		w.stopped = true
		return
	}
	w.seen[real] = true
	if !take(&w.budget.dirs) {
		w.stop(Report{Kind: ReportLimit, Path: dir, Message: fmt.Sprintf(
			"not searched, nor anything after it: discovery stops after entering %d directories (DiscoverOptions.MaxDirs); point the skill paths at skill folders rather than at a large tree",
			w.budget.maxDirs)})
		return
	}
	// A skill folder is recognised by its file alone, without listing it:
	// most folders searched are skill folders, and a Refresh walks them
	// all again. The first name present decides, whatever it is: a
	// SKILL.md that is a FIFO or a directory is reported as such (by
	// loadFile) rather than passed over in silence.
	for _, name := range skillFiles {
		path := filepath.Join(dir, name)
		info, err := os.Lstat(path)
		if err != nil {
			continue
		}
		fileReal := filepath.Join(real, name)
		if info.Mode()&fs.ModeSymlink != 0 {
			// A broken link stays as it is: loadFile reports it.
			if r, err := filepath.EvalSymlinks(path); err == nil {
				if !w.inside(r) {
					w.outside(path, r)
					return
				}
				fileReal = r
				if st, err := os.Stat(path); err == nil {
					info = st
				}
			}
		}
		w.add(path, fileReal, info)
		return
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		w.report(Report{Kind: ReportUnreadable, Path: dir, Message: "cannot search: " + errText(err)})
		return
	}
	for _, e := range entries {
		if w.stopped {
			return
		}
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
			if !w.inside(r) {
				w.outside(sub, r)
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

// add takes a skill file found, if the budget allows.
func (w *walker) add(path, real string, info fs.FileInfo) {
	if !take(&w.budget.skills) {
		w.stop(Report{Kind: ReportLimit, Path: path, Message: fmt.Sprintf(
			"not loaded, nor anything after it: discovery stops after %d skill files (DiscoverOptions.MaxSkills)", w.budget.maxSkills)})
		return
	}
	w.files = append(w.files, foundFile{path, real, info})
}

// stop ends the search, this root's and every later one's, with r, the
// first time only: one report says where it stopped.
func (w *walker) stop(r Report) {
	w.stopped = true
	if !w.budget.spent {
		w.budget.spent = true
		w.report(r)
	}
}

// inside reports whether real, a path with symbolic links resolved, lies
// within the discovery path (or following links out of it is allowed).
func (w *walker) inside(real string) bool {
	return w.follow || within(real, w.rootReal)
}

// outside reports the link at path, to target, that inside refused.
func (w *walker) outside(path, target string) {
	w.report(Report{Kind: ReportOutsideLink, Path: path, Target: target, Message: fmt.Sprintf(
		"not followed: a symbolic link to %s, outside %s (set follow_outside_links = true under [skills] in the manifest, or DiscoverOptions.FollowOutsideLinks, to follow links out of the skill paths)",
		target, w.rootDir)})
}

// within reports whether path is dir or lies below it; both are clean and
// absolute.
func within(path, dir string) bool {
	if path == dir {
		return true
	}
	if !strings.HasSuffix(dir, string(filepath.Separator)) {
		dir += string(filepath.Separator)
	}
	return strings.HasPrefix(path, dir)
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
