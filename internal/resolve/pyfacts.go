package resolve

// The facts cache keeps what Python reported at its start (pyInfo) on
// disk, like a compile cache keeps compiled code, so that a process whose
// interpreter and environment have not changed does not start Python at
// all. Starting Python is the one cost of the py: resolver that grows with
// the machine rather than with the question, most of all behind a pyenv
// shim (a bash script that runs pyenv to pick a version), and it made
// `gatectl check` many times slower than a check without py: probes
// (docs/BENCHMARKS.md).
//
// An entry is a JSON file named by a hash of what must be equal for its
// facts to hold without a look at the file system: the configured Python,
// the file found for it, the environment variables that change which
// interpreter runs or the sys.path it computes (pyFactsEnvSelected), and
// the working directory when the answer depends on it. Inside, with the
// facts, is the state (device, inode, mode, size, mtime, ctime; or
// "missing") of every file and directory the report depends on: the
// interpreter as found and as it reported itself, what getpath reads beside
// them (pyvenv.cfg, ._pth), every sys.path entry (a new .pth file or
// package changes its directory's times), every site directory site.py
// would add if it existed and each .pth file it processed, sitecustomize
// and usercustomize, and for a pyenv shim every .python-version it could
// read, $PYENV_ROOT/version and $PYENV_ROOT/versions. Using an entry costs
// one read and one stat per watched path, typically 20-40 stats: well
// under a millisecond. Any difference, and any entry that is damaged,
// oversized, not in the exact form we write, or not a regular file at its
// path, means Python starts as it always did and the entry is written
// anew.
//
// An interpreter that turns out to be a wrapper other than a pyenv shim
// (its file is not the sys.executable it reports, after symlinks) is never
// cached: what it chose from is unknown (asdf's and mise's shims read
// their own version files).

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"
	"unicode/utf8"

	"github.com/gate-dev/gate/internal/cachedir"
	"github.com/gate-dev/gate/internal/safefile"
)

// pyFactsSubdir is the entries' directory inside the cache directory,
// versioned so that a format change never reads an older entry.
const pyFactsSubdir = "gate-pyfacts-v1"

// pyFactsFormat is the "format" field of an entry.
const pyFactsFormat = 1

// Bounds on an entry. A real one is 5-30 KB (the loaded-modules list is
// the bulk; a sitecustomize that imports a large framework makes it a few
// thousand names).
var (
	pyFactsMaxFile   int64 = 1 << 20
	pyFactsMaxWatch        = 4096
	pyFactsMaxNames        = 1 << 16 // names or paths in one list
	pyFactsMaxString       = 4096    // bytes of one name or path
	// pyFactsMaxEntries bounds the entries kept. Behind a pyenv shim the
	// working directory is part of the key, so a CI job running in a fresh
	// directory each time would add one per run; past the bound, the
	// oldest written are removed.
	pyFactsMaxEntries = 256
)

// pyFactsRacyWindow: an entry is not written if any file it depends on
// changed less than this before Python started, or while it ran, because a
// second change within the file system's timestamp granularity could then
// leave the same times behind and go unseen (the trick git uses for its
// index). A var so that tests, whose files are all fresh, can lower it.
var pyFactsRacyWindow = 2 * time.Second

// pyFactsEnvSelected reports whether an environment variable can change
// which interpreter runs or what it reports: Python's own variables
// (PYTHONPATH, PYTHONHOME, PYTHONNOUSERSITE, PYTHONSAFEPATH,
// PYTHONUSERBASE, PYTHONPLATLIBDIR, ...), those of the environment
// managers a shim consults (pyenv, virtualenv, conda, asdf, mise), PATH
// (where python3 and pyenv's "system" are found), HOME (the user site
// directory and pyenv's default root) and the dynamic loader's (a shared
// libpython decides the builtin modules). Others, which may hold secrets,
// are not part of the key, so a changed API key does not cost a start.
func pyFactsEnvSelected(name string) bool {
	switch name {
	case "PATH", "HOME", "LD_LIBRARY_PATH", "LD_PRELOAD":
		return true
	}
	for _, prefix := range []string{"PYTHON", "PYENV_", "_PYENV_", "VIRTUAL_ENV", "CONDA", "ASDF_", "MISE_", "__PYVENV"} {
		if strings.HasPrefix(name, prefix) {
			return true
		}
	}
	return false
}

// pyFactsFile is an entry as stored. Its JSON form is canonical: what
// json.Marshal writes for it, and nothing else is accepted.
type pyFactsFile struct {
	Format int          `json:"format"`
	Key    string       `json:"key"` // hex SHA-256 of the key material, also the file name
	Facts  pyFactsJSON  `json:"facts"`
	Watch  []pyFactStat `json:"watch"` // sorted by path, unique
}

// pyFactsJSON is pyInfo's lasting part; the sets are sorted lists.
type pyFactsJSON struct {
	Path            []string `json:"path"`
	Builtin         []string `json:"builtin"`
	Frozen          []string `json:"frozen"`
	Loaded          []string `json:"loaded"`
	Suffixes        []string `json:"suffixes"`
	ZipImplicitDirs bool     `json:"zip_implicit_dirs"`
}

// pyFactStat is what a stat of one path found, following symlinks, so
// that a link pointed elsewhere counts as a change.
type pyFactStat struct {
	Path    string `json:"path"`
	Missing bool   `json:"missing,omitempty"`
	Dev     uint64 `json:"dev"`
	Ino     uint64 `json:"ino"`
	Mode    uint32 `json:"mode"`
	Size    int64  `json:"size"`
	MtimeNs int64  `json:"mtime_ns"`
	CtimeNs int64  `json:"ctime_ns"`
}

// pyFactsStat fingerprints path. ok is false when the state cannot be
// told (a permission error, or a platform without inode and ctime), which
// no entry may depend on.
func pyFactsStat(path string) (st pyFactStat, ok bool) {
	st.Path = path
	fi, err := os.Stat(path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) {
			st.Missing = true
			return st, true
		}
		return st, false
	}
	return st, pyFactsFillStat(&st, fi)
}

// pyFactsCache is the facts cache for one start of one resolver.
type pyFactsCache struct {
	dir  string   // the entries' directory
	key  string   // hex key, the entry's name
	exe  string   // the interpreter as found
	shim bool     // exe is a pyenv shim
	pre  []string // paths whose state must not change across the start
	ok   bool     // false: the key could not be made; nothing is cached
}

// newFactsCache computes the key for starting exe now.
func (p *pyResolver) newFactsCache(exe string) *pyFactsCache {
	fc := &pyFactsCache{dir: filepath.Join(p.factsDir, pyFactsSubdir), exe: exe, pre: []string{exe}}
	env := map[string]string{}
	for _, kv := range p.env {
		k, v, _ := strings.Cut(kv, "=")
		if pyFactsEnvSelected(k) {
			env[k] = v // the last one wins, as in exec
		}
	}
	// Relative paths are taken from the working directory, and a pyenv
	// shim looks for .python-version from it upwards.
	root := pyenvShimRoot(exe)
	fc.shim = root != ""
	cwdMatters := fc.shim || !filepath.IsAbs(exe)
	for _, k := range []string{"PYTHONPATH", "PYTHONHOME", "PYTHONUSERBASE", "PYENV_DIR", "VIRTUAL_ENV"} {
		if v, ok := env[k]; ok {
			for e := range strings.SplitSeq(v, string(os.PathListSeparator)) {
				cwdMatters = cwdMatters || !filepath.IsAbs(e)
			}
		}
	}
	var cwd string
	if cwdMatters {
		var err error
		if cwd, err = os.Getwd(); err != nil {
			return fc
		}
	}
	if fc.shim {
		fc.pre = append(fc.pre, pyenvWatch(root, cwd, env["PYENV_DIR"])...)
	}
	keys := make([]string, 0, len(env))
	for k := range env {
		keys = append(keys, k+"="+env[k])
	}
	slices.Sort(keys)
	material, err := json.Marshal(struct {
		Format int
		Python string
		Exe    string
		Cwd    string
		Env    []string
	}{pyFactsFormat, p.python, exe, cwd, keys})
	if err != nil {
		return fc
	}
	sum := sha256.Sum256(material)
	fc.key = hex.EncodeToString(sum[:])
	fc.ok = true
	return fc
}

// pyenvShimRoot returns the PYENV_ROOT a pyenv shim at exe exports, or ""
// if exe is not one. pyenv writes every shim from one template (see
// pyenv-rehash): "export PYENV_ROOT=..." and then
// `exec "$PYENV_ROOT/libexec/pyenv" exec "$program" "$@"`, spelled out.
func pyenvShimRoot(exe string) string {
	f, _, err := safefile.Open(exe)
	if err != nil {
		return ""
	}
	defer f.Close()
	head := make([]byte, 4096)
	n, _ := io.ReadFull(f, head)
	head = head[:n]
	if !bytes.HasPrefix(head, []byte("#!")) {
		return ""
	}
	var root string
	for line := range strings.Lines(string(head)) {
		line = strings.TrimSpace(line)
		if v, ok := strings.CutPrefix(line, `export PYENV_ROOT="`); ok && strings.HasSuffix(v, `"`) {
			root = strings.TrimSuffix(v, `"`)
		}
		if root != "" && filepath.IsAbs(root) && strings.HasPrefix(line, `exec "`+root+`/libexec/pyenv" exec `) {
			return root
		}
	}
	return ""
}

// pyenvWatch lists what decides which version a pyenv shim runs (see
// pyenv-version-file and pyenv-version-name): a .python-version in
// PYENV_DIR, else in the working directory, or in any parent of either
// (logical and physical paths both, since the shell's may be either), else
// $PYENV_ROOT/version; and $PYENV_ROOT/versions, whose listing decides a
// prefix like "3.12" and whether a named version exists. PYENV_VERSION is
// in the key.
func pyenvWatch(root, cwd, pyenvDir string) []string {
	starts := []string{cwd}
	if phys, err := filepath.EvalSymlinks(cwd); err == nil {
		starts = append(starts, phys)
	}
	if pyenvDir != "" {
		if !filepath.IsAbs(pyenvDir) {
			pyenvDir = filepath.Join(cwd, pyenvDir)
		}
		starts = append(starts, filepath.Clean(pyenvDir))
	}
	out := []string{filepath.Join(root, "version"), filepath.Join(root, "versions")}
	for _, d := range starts {
		for {
			out = append(out, filepath.Join(d, ".python-version"))
			parent := filepath.Dir(d)
			if parent == d {
				break
			}
			d = parent
		}
	}
	return out
}

// fingerprintPre records the state of the paths known before the start,
// to be compared with their state after it.
func (fc *pyFactsCache) fingerprintPre() map[string]pyFactStat {
	if !fc.ok {
		return nil
	}
	out := make(map[string]pyFactStat, len(fc.pre))
	for _, path := range fc.pre {
		if st, ok := pyFactsStat(path); ok {
			out[path] = st
		}
	}
	return out
}

func (fc *pyFactsCache) entryPath() string { return filepath.Join(fc.dir, fc.key+".json") }

// load returns the cached facts if the entry exists and everything it
// depends on is as it was; nil otherwise.
func (fc *pyFactsCache) load() *pyInfo {
	if !fc.ok || cachedir.CheckDir(fc.dir) != nil {
		return nil
	}
	b, err := cachedir.Read(fc.entryPath(), pyFactsMaxFile)
	if err != nil {
		return nil
	}
	f, err := pyFactsParse(b)
	if err != nil || f.Key != fc.key {
		return nil
	}
	// The paths the key implies must all be watched: an entry that drops
	// one (damaged, or written by other code) would be trusted blindly.
	for _, path := range fc.pre {
		if _, found := slices.BinarySearchFunc(f.Watch, path, func(s pyFactStat, p string) int { return strings.Compare(s.Path, p) }); !found {
			return nil
		}
	}
	for _, want := range f.Watch {
		if got, ok := pyFactsStat(want.Path); !ok || got != want {
			return nil
		}
	}
	return f.Facts.info()
}

// save writes info as the entry for this key, unless it cannot be trusted
// to stay valid: the interpreter is a wrapper we cannot see through, a
// path it depends on changed around the start (pre is the state before,
// begin when Python started), or a name cannot be stored faithfully.
func (fc *pyFactsCache) save(info *pyInfo, pre map[string]pyFactStat, begin time.Time) error {
	if !fc.ok {
		return errors.New("no key")
	}
	if info.executable == "" || !filepath.IsAbs(info.executable) {
		return errors.New("no sys.executable")
	}
	if !fc.shim {
		found, err1 := filepath.EvalSymlinks(fc.exe)
		real, err2 := filepath.EvalSymlinks(info.executable)
		if err1 != nil || err2 != nil || found != real {
			return fmt.Errorf("%s runs %s: a wrapper whose choice is unknown", fc.exe, info.executable)
		}
	}
	paths := slices.Concat(fc.pre, info.path, info.watch, []string{info.executable})
	for i, path := range paths {
		paths[i] = filepath.Clean(path)
	}
	slices.Sort(paths)
	paths = slices.Compact(paths)
	if len(paths) > pyFactsMaxWatch {
		return errors.New("too many paths to watch")
	}
	racy := begin.Add(-pyFactsRacyWindow).UnixNano()
	f := &pyFactsFile{Format: pyFactsFormat, Key: fc.key, Facts: pyFactsFromInfo(info), Watch: make([]pyFactStat, 0, len(paths))}
	for _, path := range paths {
		st, ok := pyFactsStat(path)
		if !ok {
			return fmt.Errorf("%s: cannot tell its state", path)
		}
		if before, known := pre[path]; known && before != st {
			return fmt.Errorf("%s changed while Python started", path)
		}
		if !st.Missing && (st.CtimeNs >= racy || st.MtimeNs >= racy) {
			return fmt.Errorf("%s changed too recently to trust its times", path)
		}
		f.Watch = append(f.Watch, st)
	}
	b, err := pyFactsEncode(f)
	if err != nil {
		return err
	}
	if err := cachedir.Write(fc.dir, fc.entryPath(), b); err != nil {
		return err
	}
	pyFactsPrune(fc.dir)
	return nil
}

func pyFactsFromInfo(info *pyInfo) pyFactsJSON {
	set := func(m map[string]bool) []string {
		out := make([]string, 0, len(m))
		for k := range m {
			out = append(out, k)
		}
		slices.Sort(out)
		return out
	}
	return pyFactsJSON{
		Path:            slices.Clone(info.path),
		Builtin:         set(info.builtin),
		Frozen:          set(info.frozen),
		Loaded:          set(info.loaded),
		Suffixes:        slices.Clone(info.suffixes),
		ZipImplicitDirs: info.zipImplicitDirs,
	}
}

func (j *pyFactsJSON) info() *pyInfo {
	set := func(l []string) map[string]bool {
		m := make(map[string]bool, len(l))
		for _, s := range l {
			m[s] = true
		}
		return m
	}
	return &pyInfo{
		path:            slices.Clone(j.Path),
		builtin:         set(j.Builtin),
		frozen:          set(j.Frozen),
		loaded:          set(j.Loaded),
		suffixes:        slices.Clone(j.Suffixes),
		zipImplicitDirs: j.ZipImplicitDirs,
	}
}

// pyFactsEncode returns the canonical form of f, after checking that it
// would parse back: an entry we could not read is not worth writing.
func pyFactsEncode(f *pyFactsFile) ([]byte, error) {
	if err := f.validate(); err != nil {
		return nil, err
	}
	b, err := json.Marshal(f)
	if err != nil {
		return nil, err
	}
	b = append(b, '\n')
	if int64(len(b)) > pyFactsMaxFile {
		return nil, fmt.Errorf("entry of %d bytes, over the limit of %d", len(b), pyFactsMaxFile)
	}
	return b, nil
}

// pyFactsParse decodes an entry strictly: within the size cap, one JSON
// object with exactly the known fields, every value valid (see validate),
// and byte for byte the form pyFactsEncode writes, so that duplicate keys,
// other spellings of a field, replaced invalid UTF-8 or trailing data are
// all refused rather than read some way.
func pyFactsParse(b []byte) (*pyFactsFile, error) {
	if int64(len(b)) > pyFactsMaxFile {
		return nil, fmt.Errorf("entry of %d bytes, over the limit of %d", len(b), pyFactsMaxFile)
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	var f pyFactsFile
	if err := dec.Decode(&f); err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("data after the entry")
	}
	canon, err := pyFactsEncode(&f)
	if err != nil {
		return nil, err
	}
	if !bytes.Equal(canon, b) {
		return nil, errors.New("entry not in canonical form")
	}
	return &f, nil
}

// validate checks what the resolver relies on: names and paths are
// bounded, valid UTF-8 (so they round-trip through JSON) without NUL;
// paths are absolute; sets and the watch list are sorted and unique; a
// missing path has no state.
func (f *pyFactsFile) validate() error {
	if f.Format != pyFactsFormat {
		return fmt.Errorf("format %d, want %d", f.Format, pyFactsFormat)
	}
	if len(f.Key) != 2*sha256.Size || strings.ToLower(f.Key) != f.Key {
		return errors.New("bad key")
	}
	if _, err := hex.DecodeString(f.Key); err != nil {
		return errors.New("bad key")
	}
	checkList := func(what string, l []string, abs, sorted bool) error {
		if len(l) > pyFactsMaxNames {
			return fmt.Errorf("%s: %d entries, over the limit of %d", what, len(l), pyFactsMaxNames)
		}
		for i, s := range l {
			if s == "" || len(s) > pyFactsMaxString || !utf8.ValidString(s) || strings.IndexByte(s, 0) >= 0 {
				return fmt.Errorf("%s: bad entry %q", what, s)
			}
			if abs && !filepath.IsAbs(s) {
				return fmt.Errorf("%s: %q is not absolute", what, s)
			}
			if sorted && i > 0 && l[i-1] >= s {
				return fmt.Errorf("%s: not sorted and unique at %q", what, s)
			}
		}
		return nil
	}
	j := &f.Facts
	for _, c := range []struct {
		what        string
		l           []string
		abs, sorted bool
	}{
		{"path", j.Path, true, false},
		{"builtin", j.Builtin, false, true},
		{"frozen", j.Frozen, false, true},
		{"loaded", j.Loaded, false, true},
		{"suffixes", j.Suffixes, false, false},
	} {
		if err := checkList(c.what, c.l, c.abs, c.sorted); err != nil {
			return err
		}
	}
	if len(j.Suffixes) == 0 {
		return errors.New("no import suffixes")
	}
	if len(f.Watch) > pyFactsMaxWatch {
		return fmt.Errorf("watch: %d entries, over the limit of %d", len(f.Watch), pyFactsMaxWatch)
	}
	paths := make([]string, len(f.Watch))
	for i, w := range f.Watch {
		paths[i] = w.Path
		if w.Missing && w != (pyFactStat{Path: w.Path, Missing: true}) {
			return fmt.Errorf("watch: missing %q has a state", w.Path)
		}
	}
	return checkList("watch", paths, true, true)
}

// pyFactsPrune keeps at most pyFactsMaxEntries entries (see
// cachedir.Prune). It runs only after a write, that is after a start of
// Python, whose cost dwarfs a listing.
func pyFactsPrune(dir string) {
	cachedir.Prune(dir, pyFactsMaxEntries, func(name string) bool { return strings.HasSuffix(name, ".json") })
}
