package resolve

import (
	"archive/zip"
	"bytes"
	"context"
	"errors"
	"fmt"
	"github.com/gate-dev/gate/hostfuncs"
	"github.com/gate-dev/gate/internal/grants"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
	"unicode"

	"github.com/gate-dev/gate/internal/safefile"
)

// NewPythonResolver returns the resolver for "py:" specs: whether a module
// ("json", "email.mime.text") is importable by the given Python (default
// "python3"; a bare name is looked up on the PATH of the environment
// captured here, which is also the environment Python later runs with, so
// PYTHONPATH and friends apply as they would for a tool started now).
//
// Python runs once per resolver, on Prepare or the first Resolve, to report
// sys.path (without the script directory that -c prepends), the builtin,
// frozen and already-loaded module names, and the import suffixes. After
// that every answer is a file-system lookup that mirrors importlib's
// PathFinder: per sys.path entry a directory with __init__ plus any import
// suffix is a regular package, NAME plus any suffix is a module, and a bare
// directory is a PEP 420 namespace portion, used only if no entry holds a
// module or regular package. Zip entries follow zipimport. Directory
// listings and zip indexes are cached and revalidated by modification time,
// so files installed later are seen, as a freshly started Python would.
//
// If the start fails for a reason other than ctx ending (no such Python, a
// crash, no answer within 30 seconds), the failure is remembered and
// reported by every call: starting Python again per call is exactly what
// this resolver exists to avoid. Make a new resolver once the environment
// is fixed. A start cut short by ctx is killed and not remembered; the next
// call retries.
//
// Reading is bounded (see resolve_file.go): nothing but directories and
// regular files is opened, a directory with more than pyMaxListing entries
// is not listed but probed name by name, an archive whose index takes more
// than pyMaxZipIndex bytes counts as no archive, and at most pyMaxCached
// listings and indexes are kept.
//
// Not seen: finders on sys.meta_path beyond the builtin, frozen and path
// ones (editable installs through setuptools' __editable__ finders, six.moves
// style importers), path hooks other than zipimport, __path__ changed at run
// time (pkgutil.extend_path namespace packages see only their first
// portion), modules created by code at run time unless startup already
// created them (then they count as loaded), and relative sys.path entries,
// which are taken relative to gate's working directory.
func NewPythonResolver(python string) hostfuncs.Resolver {
	return NewPythonResolverCached(python, "")
}

// NewPythonResolverCached is NewPythonResolver with Python's report kept
// on disk under cacheDir (in a subdirectory of its own), so that a later
// process whose interpreter and environment have not changed does not
// start Python at all; see pyfacts.go for what is compared. "" keeps
// nothing on disk.
func NewPythonResolverCached(python, cacheDir string) hostfuncs.Resolver {
	if python == "" {
		python = "python3"
	}
	env := os.Environ()
	var pathEnv string
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "PATH="); ok {
			pathEnv = v
		}
	}
	return &pyResolver{
		python:   python,
		env:      env,
		pathBin:  NewBinResolver(pathEnv).(*binResolver),
		factsDir: cacheDir,
	}
}

// pyStartTimeout bounds the one-time start even when the caller's ctx has
// no deadline: a Python hung in sitecustomize must not wedge the engine.
const pyStartTimeout = 30 * time.Second

// pyRacyWindow is how long after a directory's mtime a listing must have
// been read before it is trusted. Within that window a second change could
// carry the same coarse timestamp, so the listing is read again (the trick
// git uses for its index).
const pyRacyWindow = 2 * time.Second

// Bounds on what one lookup reads and what the caches keep. A directory
// on sys.path may be anything a user made it (a million files, a symlink
// to /), and a zip archive's index may claim anything.
var (
	pyMaxListing  = 1 << 16  // entries of one directory listed; beyond, stat per name
	pyMaxZipIndex = 16 << 20 // bytes read to index one archive
	pyMaxCached   = 4096     // directory listings and archive indexes cached
)

type pyResolver struct {
	python  string
	env     []string
	pathBin *binResolver // finds python on the captured PATH
	// factsDir is the cache directory Python's report is kept under
	// between processes; "" for none.
	factsDir string

	info   atomic.Pointer[pyInfo] // set once the start succeeded
	mu     sync.Mutex
	err    error         // remembered failure of a completed start
	flight chan struct{} // non-nil while a start runs; closed when it ends

	dirs   sync.Map // directory -> *pyDirListing
	zips   sync.Map // archive path -> *pyZipIndex
	cached atomic.Int32
}

// cache stores v under key in m unless the caches are full; an entry
// replacing one of the same key does not count again.
func (p *pyResolver) cache(m *sync.Map, key string, v any) {
	if _, loaded := m.Swap(key, v); loaded {
		return
	}
	if p.cached.Add(1) > int32(pyMaxCached) {
		m.Delete(key)
		p.cached.Add(-1)
	}
}

// pyInfo is what the one Python run reports.
type pyInfo struct {
	path     []string
	builtin  map[string]bool
	frozen   map[string]bool
	loaded   map[string]bool
	suffixes []string // FileFinder order: extension, source, bytecode
	// zipImplicitDirs: zipimport counts directories that have no entry of
	// their own as namespace portions only from Python 3.14 (gh-59110).
	zipImplicitDirs bool

	// Reported for the facts cache only (not kept in it): sys.executable,
	// and the files whose change could change the report (see
	// pyInfoScript).
	executable string
	watch      []string
}

// Prepare starts Python once and caches what it reports; see
// NewPythonResolver.
func (p *pyResolver) Prepare(ctx context.Context) error {
	if _, err := p.load(ctx); err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return fmt.Errorf("py: %w", err)
	}
	return nil
}

func (p *pyResolver) Resolve(ctx context.Context, name string) (bool, error) {
	if err := ctx.Err(); err != nil {
		return false, err
	}
	if !pyValidName(name) {
		return false, fmt.Errorf("py:%s: %w: want Python identifiers separated by dots", name, grants.ErrBadSpec)
	}
	info, err := p.load(ctx)
	if err != nil {
		if ctx.Err() != nil {
			return false, ctx.Err()
		}
		return false, fmt.Errorf("py:%s: %w", name, err)
	}
	return p.find(ctx, info, name)
}

// load returns the cached pyInfo, starting Python if no start has
// succeeded or failed yet. Concurrent callers share one start; each waits
// only as long as its own ctx allows, and if the start was cut short by its
// starter's ctx, a waiter whose ctx is still live starts another.
func (p *pyResolver) load(ctx context.Context) (*pyInfo, error) {
	if info := p.info.Load(); info != nil {
		return info, nil
	}
	for {
		p.mu.Lock()
		if info := p.info.Load(); info != nil {
			p.mu.Unlock()
			return info, nil
		}
		if p.err != nil {
			err := p.err
			p.mu.Unlock()
			return nil, err
		}
		if ch := p.flight; ch != nil {
			p.mu.Unlock()
			select {
			case <-ch:
				continue
			case <-ctx.Done():
				return nil, ctx.Err()
			}
		}
		ch := make(chan struct{})
		p.flight = ch
		p.mu.Unlock()

		info, err := p.obtain(ctx)

		p.mu.Lock()
		p.flight = nil
		switch {
		case err == nil:
			p.info.Store(info)
		case ctx.Err() == nil:
			p.err = err
		}
		p.mu.Unlock()
		close(ch)
		if err != nil && ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return info, err
	}
}

// pyInfoScript prints what the resolver needs as NUL-terminated
// "tag<TAB>value" records after a magic line, so that output printed by
// sitecustomize or .pth files before it is skipped, and paths are passed as
// bytes (os.fsencode) rather than through a text encoding.
//
// "watch" lists the files, besides sys.path's entries, that decided this
// report, so that the facts cache can tell when it would come out
// differently: the executables and what getpath reads beside them
// (pyvenv.cfg, ._pth), every site directory site.py would add if it
// existed and the .pth files it processed there, and sitecustomize and
// usercustomize, which may import anything.
const pyInfoScript = `import sys, os, importlib.machinery as m
o = sys.stdout.buffer
def put(tag, values):
    for v in values:
        o.write(tag + b"\t" + os.fsencode(v) + b"\0")
p = list(sys.path)
if p and p[0] == "" and not getattr(sys.flags, "safe_path", False):
    p = p[1:]
o.write(b"gate-pyinfo-1\0")
put(b"path", [os.path.abspath(x) for x in p])
put(b"builtin", sys.builtin_module_names)
try:
    import _imp
    put(b"frozen", _imp._frozen_module_names())
except Exception:
    pass
put(b"loaded", [k for k, v in list(sys.modules.items()) if getattr(v, "__spec__", None) is not None])
put(b"suffix", m.EXTENSION_SUFFIXES + m.SOURCE_SUFFIXES + m.BYTECODE_SUFFIXES)
put(b"version", ["%d.%d" % sys.version_info[:2]])
put(b"exe", [sys.executable])
w = []
for e in {sys.executable, os.path.realpath(sys.executable), getattr(sys, "_base_executable", "")}:
    if e:
        d = os.path.dirname(e)
        w += [e, e + "._pth", os.path.join(d, "pyvenv.cfg"), os.path.join(os.path.dirname(d), "pyvenv.cfg")]
try:
    import site
    sd = list(site.getsitepackages())
    if site.ENABLE_USER_SITE:
        sd.append(site.getusersitepackages())
    for d in sd:
        w.append(d)
        try:
            w += [os.path.join(d, n) for n in os.listdir(d) if n.endswith(".pth")]
        except OSError:
            pass
except Exception:
    pass
for n in ("sitecustomize", "usercustomize"):
    f = getattr(sys.modules.get(n), "__file__", None)
    if f:
        w.append(os.path.abspath(f))
put(b"watch", w)
o.write(b"end\t\0")
o.flush()
`

const pyInfoMagic = "gate-pyinfo-1\x00"

// obtain returns Python's report: from the facts cache when the
// resolver has one and its entry is still valid, else by starting Python
// (and then keeping the report for the next process).
func (p *pyResolver) obtain(ctx context.Context) (*pyInfo, error) {
	exe, err := p.lookPython(ctx)
	if err != nil {
		return nil, err
	}
	if p.factsDir == "" {
		return p.start(ctx, exe)
	}
	fc := p.newFactsCache(exe)
	if info := fc.load(); info != nil {
		return info, nil
	}
	pre := fc.fingerprintPre()
	begin := time.Now()
	info, err := p.start(ctx, exe)
	if err != nil {
		return nil, err
	}
	// Best effort: a cache that cannot be written costs the next process
	// a start, never this answer.
	_ = fc.save(info, pre, begin)
	return info, nil
}

// lookPython finds the configured Python on the captured PATH.
func (p *pyResolver) lookPython(ctx context.Context) (string, error) {
	exe := p.python
	if !strings.Contains(exe, "/") {
		path, ok, err := binLookPath(ctx, p.pathBin.dirs, exe)
		if err != nil {
			return "", err
		}
		if !ok {
			return "", fmt.Errorf("python %q not found on PATH", exe)
		}
		exe = path
	}
	return exe, nil
}

// pyStarts counts Python starts, for tests that prove a start was or was
// not needed.
var pyStarts atomic.Int64

// start runs Python (exe, found by lookPython) once and parses its report.
func (p *pyResolver) start(ctx context.Context, exe string) (*pyInfo, error) {
	pyStarts.Add(1)
	runCtx, cancel := context.WithTimeout(ctx, pyStartTimeout)
	defer cancel()
	cmd := exec.CommandContext(runCtx, exe, "-c", pyInfoScript)
	cmd.Env = p.env
	// Killing Python does not kill children of a wrapper script that did
	// not exec; WaitDelay stops us waiting on the pipes they inherited.
	cmd.WaitDelay = 100 * time.Millisecond
	stdout := &pyCappedBuffer{max: 16 << 20}
	stderr := &pyCappedBuffer{max: 4 << 10}
	cmd.Stdout, cmd.Stderr = stdout, stderr
	err := cmd.Run()
	if errors.Is(err, exec.ErrWaitDelay) {
		err = nil // Python exited 0; a leftover child held the pipe open
	}
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if msg := strings.TrimSpace(stderr.String()); msg != "" {
			err = fmt.Errorf("%w: %s", err, msg)
		}
		return nil, fmt.Errorf("python %q (%s): %w", p.python, exe, err)
	}
	info, err := pyParseInfo(stdout.Bytes())
	if err != nil {
		return nil, fmt.Errorf("python %q (%s): %w", p.python, exe, err)
	}
	return info, nil
}

// pyParseInfo decodes the output of pyInfoScript.
func pyParseInfo(out []byte) (*pyInfo, error) {
	i := bytes.Index(out, []byte(pyInfoMagic))
	if i < 0 {
		return nil, errors.New("no module path report on stdout (is it Python 3?)")
	}
	info := &pyInfo{builtin: map[string]bool{}, frozen: map[string]bool{}, loaded: map[string]bool{}}
	complete := false
	for _, rec := range bytes.Split(out[i+len(pyInfoMagic):], []byte{0}) {
		tag, val, _ := bytes.Cut(rec, []byte{'\t'})
		v := string(val)
		switch string(tag) {
		case "path":
			info.path = append(info.path, v)
		case "builtin":
			info.builtin[v] = true
		case "frozen":
			info.frozen[v] = true
		case "loaded":
			info.loaded[v] = true
		case "suffix":
			info.suffixes = append(info.suffixes, v)
		case "version":
			major, minor, _ := strings.Cut(v, ".")
			maj, _ := strconv.Atoi(major)
			mnr, _ := strconv.Atoi(minor)
			info.zipImplicitDirs = maj > 3 || maj == 3 && mnr >= 14
		case "exe":
			info.executable = v
		case "watch":
			info.watch = append(info.watch, v)
		case "end":
			complete = true
		}
		if complete {
			break
		}
	}
	if !complete {
		return nil, errors.New("module path report cut short")
	}
	return info, nil
}

// pyCappedBuffer keeps the first max bytes written and drops the rest, so
// a chatty Python cannot make us hold unbounded output.
type pyCappedBuffer struct {
	bytes.Buffer
	max int
}

func (b *pyCappedBuffer) Write(p []byte) (int, error) {
	if room := b.max - b.Len(); room > 0 {
		b.Buffer.Write(p[:min(len(p), room)])
	}
	return len(p), nil
}

// pyValidName reports whether name is identifiers separated by dots, as
// importlib accepts for absolute imports.
func pyValidName(name string) bool {
	for part := range strings.SplitSeq(name, ".") {
		if part == "" {
			return false
		}
		for i, r := range part {
			if r == '_' || unicode.IsLetter(r) || unicode.Is(unicode.Nl, r) {
				continue
			}
			if i > 0 && (unicode.IsDigit(r) || unicode.In(r, unicode.Mn, unicode.Mc, unicode.Pc)) {
				continue
			}
			return false
		}
	}
	return true
}

// A pyLoc is one place a module search looks: a directory, or a prefix
// inside a zip archive.
type pyLoc struct {
	dir    string // directory on disk, or "" for a zip location
	zip    string // archive path
	prefix string // "" or "pkg/sub/" inside the archive
}

type pyKind int

const (
	pyMissing pyKind = iota
	pyModule
	pyPackage
	pyNamespace
)

// find walks name one component at a time the way the import system
// does: each package's search locations are where its submodules are
// looked for.
func (p *pyResolver) find(ctx context.Context, info *pyInfo, name string) (bool, error) {
	if info.builtin[name] || info.frozen[name] || info.loaded[name] {
		return true, nil
	}
	var locs []pyLoc
	top := true
	rest := name
	for {
		part, more, hasMore := strings.Cut(rest, ".")
		if top && hasMore && info.builtin[part] {
			return false, nil // builtin modules are never packages
		}
		kind, next, err := p.findIn(ctx, info, locs, top, part)
		if err != nil {
			return false, err
		}
		if kind == pyMissing || hasMore && kind == pyModule {
			return false, nil
		}
		if !hasMore {
			return true, nil
		}
		locs, top, rest = next, false, more
	}
}

// findIn looks for tail in locs (in sys.path when top), returning what it
// is and, for packages, its search locations.
func (p *pyResolver) findIn(ctx context.Context, info *pyInfo, locs []pyLoc, top bool, tail string) (pyKind, []pyLoc, error) {
	if top {
		locs = make([]pyLoc, len(info.path))
		for i, e := range info.path {
			locs[i] = pyLoc{dir: e}
		}
	}
	var portions []pyLoc
	// inZip looks in one archive location: a namespace portion is kept
	// (PEP 420: it counts only if nothing else is found), anything else
	// found ends the search.
	inZip := func(zl pyLoc) (pyKind, []pyLoc, bool) {
		kind, next := p.findInZip(info, zl, tail)
		if kind == pyNamespace {
			portions = append(portions, next...)
			return pyMissing, nil, false
		}
		return kind, next, kind != pyMissing
	}
	for _, loc := range locs {
		if err := ctx.Err(); err != nil {
			return pyMissing, nil, err
		}
		if loc.dir == "" {
			if kind, next, found := inZip(loc); found {
				return kind, next, nil
			}
			continue
		}
		lst, fi, err := p.listDir(loc.dir)
		if lst == nil {
			// Only sys.path entries may name an archive; package
			// locations inside one were built as zip locations already.
			if !top {
				continue
			}
			if zl, ok := pyZipEntry(loc.dir, fi, err); ok {
				if kind, next, found := inZip(zl); found {
					return kind, next, nil
				}
			}
			continue
		}
		// FileFinder's order within one entry: a regular package, then a
		// module, then a namespace portion.
		pkg := loc.dir + "/" + tail
		isDir := lst.isDir(loc.dir, tail)
		if isDir {
			if sub, _, _ := p.listDir(pkg); sub != nil {
				for _, s := range info.suffixes {
					if sub.isFile(pkg, "__init__"+s) {
						return pyPackage, []pyLoc{{dir: pkg}}, nil
					}
				}
			}
		}
		for _, s := range info.suffixes {
			if lst.isFile(loc.dir, tail+s) {
				return pyModule, nil, nil
			}
		}
		if isDir {
			portions = append(portions, pyLoc{dir: pkg})
		}
	}
	if len(portions) > 0 {
		return pyNamespace, portions, nil
	}
	return pyMissing, nil, nil
}

// findInZip is findIn for one zip location, following zipimport: only
// .pyc and .py, packages before modules, and directories as namespace
// portions.
func (p *pyResolver) findInZip(info *pyInfo, loc pyLoc, tail string) (pyKind, []pyLoc) {
	z := p.zipIndex(loc.zip)
	if z == nil {
		return pyMissing, nil
	}
	base := loc.prefix + tail
	if z.files[base+"/__init__.pyc"] || z.files[base+"/__init__.py"] {
		return pyPackage, []pyLoc{{zip: loc.zip, prefix: base + "/"}}
	}
	if z.files[base+".pyc"] || z.files[base+".py"] {
		return pyModule, nil
	}
	if z.files[base+"/"] || info.zipImplicitDirs && z.implicitDirs[base+"/"] {
		return pyNamespace, []pyLoc{{zip: loc.zip, prefix: base + "/"}}
	}
	return pyMissing, nil
}

// pyZipEntry interprets a sys.path entry that is not a directory as
// zipimport does: the entry itself is an archive, or it is a path inside
// one ("lib.zip/sub"), found by walking up to the first regular file.
func pyZipEntry(entry string, fi fs.FileInfo, statErr error) (pyLoc, bool) {
	if statErr == nil {
		return pyLoc{zip: entry}, fi.Mode().IsRegular()
	}
	if !errors.Is(statErr, syscall.ENOTDIR) {
		return pyLoc{}, false // plain "no such file": nothing to find
	}
	for d := filepath.Dir(entry); ; d = filepath.Dir(d) {
		fi, err := os.Stat(d)
		if err == nil {
			if !fi.Mode().IsRegular() {
				return pyLoc{}, false
			}
			return pyLoc{zip: d, prefix: entry[len(d)+1:] + "/"}, true
		}
		if d == filepath.Dir(d) {
			return pyLoc{}, false
		}
	}
}

// pyDirListing is one directory's entries with their type bits, as read
// by readdir, and the modification time it was read at. A partial listing
// (a directory too big to list) has no names: each lookup stats instead.
type pyDirListing struct {
	mtime   time.Time
	readAt  time.Time
	names   map[string]fs.FileMode
	partial bool
}

// listDir returns the listing of dir, from cache while dir's mtime is
// unchanged. One stat per call validates the cache, where probing each
// candidate file name would take a dozen. For a non-directory it returns a
// nil listing with the stat result, which the caller may need to recognize
// a zip archive.
func (p *pyResolver) listDir(dir string) (*pyDirListing, fs.FileInfo, error) {
	fi, err := os.Stat(dir)
	if err != nil || !fi.IsDir() {
		return nil, fi, err
	}
	if v, ok := p.dirs.Load(dir); ok {
		l := v.(*pyDirListing)
		if l.mtime.Equal(fi.ModTime()) && l.readAt.Sub(l.mtime) > pyRacyWindow {
			return l, fi, nil
		}
	}
	readAt := time.Now()
	ents, complete, err := readDirNames(dir, pyMaxListing)
	if err != nil {
		return nil, fi, err
	}
	l := &pyDirListing{mtime: fi.ModTime(), readAt: readAt, partial: !complete}
	if complete {
		l.names = make(map[string]fs.FileMode, len(ents))
		for _, e := range ents {
			l.names[e.Name()] = e.Type()
		}
	}
	p.cache(&p.dirs, dir, l)
	return l, fi, nil
}

// isDir reports whether name in dir is a directory, following a symlink.
func (l *pyDirListing) isDir(dir, name string) bool {
	if l.partial {
		fi, err := os.Stat(dir + "/" + name)
		return err == nil && fi.IsDir()
	}
	t, ok := l.names[name]
	switch {
	case !ok:
		return false
	case t.IsDir():
		return true
	case t&fs.ModeSymlink != 0:
		fi, err := os.Stat(dir + "/" + name)
		return err == nil && fi.IsDir()
	}
	return false
}

// isFile reports whether name in dir is a regular file, following a
// symlink, as importlib's _path_isfile does.
func (l *pyDirListing) isFile(dir, name string) bool {
	if l.partial {
		fi, err := os.Stat(dir + "/" + name)
		return err == nil && fi.Mode().IsRegular()
	}
	t, ok := l.names[name]
	switch {
	case !ok:
		return false
	case t.IsRegular():
		return true
	case t&fs.ModeSymlink != 0:
		fi, err := os.Stat(dir + "/" + name)
		return err == nil && fi.Mode().IsRegular()
	}
	return false
}

// pyZipIndex is the file list of one zip archive.
type pyZipIndex struct {
	mtime        time.Time
	size         int64
	readAt       time.Time
	files        map[string]bool // entry names, including explicit "dir/" entries
	implicitDirs map[string]bool // every "dir/" some entry lies under
}

// zipIndex returns the index of the archive at path, read once and reread
// only when the file's size or mtime changes; nil if it is not a zip.
func (p *pyResolver) zipIndex(path string) *pyZipIndex {
	fi, err := os.Stat(path)
	if err != nil || !fi.Mode().IsRegular() {
		return nil
	}
	if v, ok := p.zips.Load(path); ok {
		z := v.(*pyZipIndex)
		if z.mtime.Equal(fi.ModTime()) && z.size == fi.Size() && z.readAt.Sub(z.mtime) > pyRacyWindow {
			return z
		}
	}
	readAt := time.Now()
	f, fi, err := safefile.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	// zip.NewReader reads the end record and the central directory, not
	// the members, so capping what it reads caps the index it builds.
	r, err := zip.NewReader(&pyCappedReaderAt{r: f, left: int64(pyMaxZipIndex)}, fi.Size())
	if err != nil {
		return nil
	}
	z := &pyZipIndex{
		mtime: fi.ModTime(), size: fi.Size(), readAt: readAt,
		files: make(map[string]bool, len(r.File)), implicitDirs: map[string]bool{},
	}
	for _, f := range r.File {
		z.files[f.Name] = true
		for i := strings.IndexByte(f.Name, '/'); i >= 0; {
			z.implicitDirs[f.Name[:i+1]] = true
			j := strings.IndexByte(f.Name[i+1:], '/')
			if j < 0 {
				break
			}
			i += j + 1
		}
	}
	p.cache(&p.zips, path, z)
	return z
}

// pyCappedReaderAt fails once it has read left bytes. It is used by one
// goroutine at a time, as zip.NewReader is.
type pyCappedReaderAt struct {
	r    io.ReaderAt
	left int64
}

var errZipIndexTooBig = errors.New("zip index too big")

func (c *pyCappedReaderAt) ReadAt(b []byte, off int64) (int, error) {
	if int64(len(b)) > c.left {
		return 0, errZipIndexTooBig
	}
	c.left -= int64(len(b))
	return c.r.ReadAt(b, off)
}
