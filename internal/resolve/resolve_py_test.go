package resolve

import (
	"archive/zip"
	"bytes"
	"context"
	"fmt"
	"github.com/gate-dev/gate/internal/grants"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// rtestPython returns the python3 the tests compare against. It fails
// rather than skips: CI installs the same Python, and a silently skipped
// py: suite would hide a broken resolver.
func rtestPython(t testing.TB) string {
	t.Helper()
	p, err := exec.LookPath("python3")
	require.NoError(t, err, "python3 must be on PATH for the py: resolver tests (CI installs Debian's pyenv 3.11)")
	return p
}

// rtestGroundTruth asks python3 itself, via importlib.util.find_spec, whether
// each name is importable, in one run for all names. A submodule of a missing
// parent makes find_spec raise ModuleNotFoundError; that counts as false.
// It also returns each spec's origin, to check what kind of module a case
// exercises. It runs in an empty directory so that the current directory,
// which -c puts on sys.path, holds nothing.
func rtestGroundTruth(t testing.TB, names []string) (found map[string]bool, origin map[string]string) {
	t.Helper()
	const script = `import importlib.util, sys
for n in sys.argv[1:]:
    try:
        s = importlib.util.find_spec(n)
    except ModuleNotFoundError:
        s = None
    print(n, s is not None, s and s.origin, sep="\t")
`
	cmd := exec.Command(rtestPython(t), append([]string{"-c", script}, names...)...)
	cmd.Dir = t.TempDir()
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	require.NoError(t, err, "ground truth: %s", stderr.String())
	found, origin = map[string]bool{}, map[string]string{}
	for line := range strings.Lines(string(out)) {
		f := strings.Split(strings.TrimRight(line, "\n"), "\t")
		require.Len(t, f, 3, "ground truth line %q", line)
		found[f[0]] = f[1] == "True"
		origin[f[0]] = f[2]
	}
	require.Len(t, found, len(names))
	return found, origin
}

// rtestZip writes a zip archive; names ending in "/" become explicit
// directory entries.
func rtestZip(t testing.TB, path string, names ...string) {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, n := range names {
		w, err := zw.Create(n)
		require.NoError(t, err)
		if !strings.HasSuffix(n, "/") {
			_, err = w.Write([]byte("X = 1\n"))
			require.NoError(t, err)
		}
	}
	require.NoError(t, zw.Close())
	require.NoError(t, os.WriteFile(path, buf.Bytes(), 0o644))
}

// rtestPyTree builds two sys.path roots and a zip archive, and returns the
// PYTHONPATH that puts them on sys.path.
func rtestPyTree(t testing.TB) (pythonPath, root1 string) {
	tmp := t.TempDir()
	root1, root2 := filepath.Join(tmp, "root1"), filepath.Join(tmp, "root2")
	files := map[string]string{
		// A regular package with a subpackage and a namespace subdirectory.
		"root1/regpkg/__init__.py":        "",
		"root1/regpkg/sub.py":             "",
		"root1/regpkg/deep/__init__.py":   "",
		"root1/regpkg/deep/leaf.py":       "",
		"root1/regpkg/data/readme.txt":    "",
		"root1/plainmod.py":               "",
		"root1/sourceless.pyc":            "not really bytecode",
		"root1/fakeext.so":                "not really ELF",
		"root1/fakeext_abi.abi3.so":       "not really ELF",
		"root1/pkgext/__init__.abi3.so":   "not really ELF",
		"root1/pycpkg/__init__.pyc":       "not really bytecode",
		"root1/weird.txt":                 "",
		"root1/emptyns/.keep":             "",
		"root1/shadowed/x.py":             "",
		"root1/regdup/__init__.py":        "",
		"root1/nspkg/portion_a.py":        "",
		"root1/nspkg/inner/x.py":          "",
		"root2/nspkg/portion_b.py":        "",
		"root2/nspkg/inner/y.py":          "",
		"root2/shadowed.py":               "", // a module later on the path beats a namespace earlier
		"root2/regdup/other.py":           "", // a regular package earlier hides this portion
		"root2/dirmod/__init__.py":        "",
		"root1/dirmod.py":                 "", // a module in the earlier entry wins
		"root2/later_only/__init__.py":    "",
		"root1/later_only/nothing_here.c": "", // namespace dir loses to the regular package later
	}
	for name, content := range files {
		rtestWrite(t, filepath.Join(tmp, name), content, 0o644)
	}
	zipPath := filepath.Join(tmp, "bundle.zip")
	rtestZip(t, zipPath,
		"zipmod.py",
		"zippkg/__init__.py", "zippkg/inner.py",
		"zipns/", "zipns/m.py", // explicit directory entry: a namespace portion
		"zipimplicit/m.py", // no directory entry: a portion only from Python 3.14
		"sub/submod.py",
	)
	sep := string(os.PathListSeparator)
	return strings.Join([]string{root1, root2, zipPath, zipPath + "/sub"}, sep), root1
}

func TestPythonResolverAgainstFindSpec(t *testing.T) {
	rtestPython(t)
	pythonPath, root1 := rtestPyTree(t)
	t.Setenv("PYTHONPATH", pythonPath)
	t.Setenv("PYTHONDONTWRITEBYTECODE", "1") // find_spec of submodules imports parents
	r := NewPythonResolver("")

	const truth = -1 // no fixed answer: version-dependent, ground truth decides
	cases := []struct {
		name   string
		want   int // 1 found, 0 not found, truth
		origin string
	}{
		{name: "json", want: 1},
		{name: "email.mime.text", want: 1},
		{name: "_json", want: 1, origin: ".so"},
		{name: "_sqlite3", want: 1, origin: ".so"},
		{name: "sys", want: 1, origin: "built-in"},
		{name: "_imp", want: 1, origin: "built-in"},
		{name: "os.path", want: 1},
		{name: "__hello_only__", want: truth}, // frozen, no source, from 3.11
		{name: "no_such_module_xyz", want: 0},
		{name: "json.no_such_sub", want: 0},
		{name: "json.decoder.x", want: 0}, // json.decoder is a module, not a package
		{name: "sys.x", want: 0},
		{name: "no_such_module_xyz.sub", want: 0},
		{name: "regpkg", want: 1},
		{name: "regpkg.sub", want: 1},
		{name: "regpkg.deep.leaf", want: 1},
		{name: "regpkg.nope", want: 0},
		{name: "regpkg.data", want: 1}, // namespace inside a regular package
		{name: "plainmod", want: 1},
		{name: "plainmod.x", want: 0},
		{name: "sourceless", want: 1},
		{name: "fakeext", want: 1, origin: ".so"},
		{name: "fakeext_abi", want: 1, origin: ".so"},
		{name: "pkgext", want: 1},
		{name: "pycpkg", want: 1},
		{name: "weird", want: 0},
		{name: "emptyns", want: 1},
		{name: "nspkg", want: 1},
		{name: "nspkg.portion_a", want: 1},
		{name: "nspkg.portion_b", want: 1},
		{name: "nspkg.inner.x", want: 1},
		{name: "nspkg.inner.y", want: 1},
		{name: "nspkg.portion_c", want: 0},
		{name: "shadowed", want: 1},
		{name: "shadowed.x", want: 0},
		{name: "regdup", want: 1},
		{name: "regdup.other", want: 0},
		{name: "dirmod", want: 1},
		{name: "later_only", want: 1},
		{name: "later_only.nothing_here", want: 0},
		{name: "zipmod", want: 1},
		{name: "zippkg", want: 1},
		{name: "zippkg.inner", want: 1},
		{name: "zippkg.nope", want: 0},
		{name: "zipns", want: 1},
		{name: "zipns.m", want: 1},
		{name: "zipimplicit", want: truth},
		{name: "submod", want: 1},
		{name: "naïve_no_such", want: 0}, // non-ASCII identifiers are valid names
	}
	names := make([]string, len(cases))
	for i, tc := range cases {
		names[i] = tc.name
	}
	gt, origin := rtestGroundTruth(t, names)

	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := r.Resolve(context.Background(), tc.name)
			require.NoError(t, err)
			if tc.want != truth {
				assert.Equal(t, tc.want == 1, got)
			}
			assert.Equal(t, gt[tc.name], got, "find_spec says %v (origin %s)", gt[tc.name], origin[tc.name])
			if tc.origin != "" {
				assert.True(t, strings.HasSuffix(origin[tc.name], tc.origin),
					"case meant to exercise %s, but find_spec's origin is %q", tc.origin, origin[tc.name])
			}
		})
	}

	// A module installed after the resolver warmed up is seen, as a new
	// Python process would see it.
	got, err := r.Resolve(context.Background(), "latecomer")
	require.NoError(t, err)
	require.False(t, got)
	rtestWrite(t, filepath.Join(root1, "latecomer.py"), "", 0o644)
	got, err = r.Resolve(context.Background(), "latecomer")
	require.NoError(t, err)
	assert.True(t, got)
}

func TestPythonResolverBadNames(t *testing.T) {
	r := NewPythonResolver(rtestPython(t))
	for _, name := range []string{"", ".", "a..b", ".a", "a.", "1abc", "a-b", "a b", "a/b", "json.", "a.1b", "\xff"} {
		got, err := r.Resolve(context.Background(), name)
		assert.ErrorIs(t, err, grants.ErrBadSpec, "%q", name)
		assert.False(t, got)
	}
}

func TestPythonResolverMissingPython(t *testing.T) {
	r := NewPythonResolver("no-such-python-xyz")
	_, err := r.Resolve(context.Background(), "json")
	require.Error(t, err)
	assert.Equal(t, `py:json: python "no-such-python-xyz" not found on PATH`, err.Error())
	err = r.(Preparer).Prepare(context.Background())
	assert.EqualError(t, err, `py: python "no-such-python-xyz" not found on PATH`)

	rs := NewResolvers(Options{Python: "no-such-python-xyz"})
	_, err = rs.Resolve(context.Background(), "py:json")
	assert.EqualError(t, err, `py:json: python "no-such-python-xyz" not found on PATH`)
}

// rtestWrapper writes a shell script that logs each start to a file and
// then runs body; it returns the script and a function counting starts.
func rtestWrapper(t testing.TB, body string) (script string, starts func() int) {
	dir := t.TempDir()
	log := filepath.Join(dir, "starts.log")
	script = filepath.Join(dir, "python-wrapper")
	rtestWrite(t, script, fmt.Sprintf("#!/bin/sh\necho start >> '%s'\n%s\n", log, body), 0o755)
	return script, func() int {
		b, err := os.ReadFile(log)
		if os.IsNotExist(err) {
			return 0
		}
		require.NoError(t, err)
		return strings.Count(string(b), "start\n")
	}
}

func TestPythonResolverStartsPythonOnce(t *testing.T) {
	script, starts := rtestWrapper(t, fmt.Sprintf("exec '%s' \"$@\"", rtestPython(t)))
	r := NewPythonResolver(script)

	var wg sync.WaitGroup
	gate := make(chan struct{})
	errs := make(chan error, 50)
	for i := range 50 {
		wg.Go(func() {
			<-gate
			name := []string{"json", "email.mime.text", "no_such_module_xyz"}[i%3]
			got, err := r.Resolve(context.Background(), name)
			if err == nil && got != (name != "no_such_module_xyz") {
				err = fmt.Errorf("%s: got %v", name, got)
			}
			errs <- err
		})
	}
	close(gate)
	wg.Wait()
	close(errs)
	for err := range errs {
		assert.NoError(t, err)
	}
	require.NoError(t, r.(Preparer).Prepare(context.Background()))
	assert.Equal(t, 1, starts())
}

func TestPythonResolverPrepareCancelled(t *testing.T) {
	dir := t.TempDir()
	slow := filepath.Join(dir, "slow")
	rtestWrite(t, slow, "", 0o644)
	// The first start hangs (exec keeps it a single process, which ctx
	// kills); later ones run Python.
	script, starts := rtestWrapper(t, fmt.Sprintf(
		"if [ -e '%s' ]; then rm -f '%s'; exec sleep 30; fi\nexec '%s' \"$@\"", slow, slow, rtestPython(t)))
	r := NewPythonResolver(script)

	// Cancelled before it starts: nothing runs.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := r.Resolve(ctx, "json")
	assert.ErrorIs(t, err, context.Canceled)
	assert.Equal(t, 0, starts())

	ctx, cancel = context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	begin := time.Now()
	err = r.(Preparer).Prepare(ctx)
	assert.ErrorIs(t, err, context.DeadlineExceeded)
	// The bound is ctx's: a Prepare that waited for the hung start would
	// take its 30 s; the margin is the loaded machine's.
	assert.Less(t, time.Since(begin), 15*time.Second, "Prepare must return once ctx is done, not wait for the start")
	assert.Equal(t, 1, starts())

	// The cut-short start was not remembered: this call retries.
	got, err := r.Resolve(context.Background(), "json")
	require.NoError(t, err)
	assert.True(t, got)
	assert.Equal(t, 2, starts())
}

// A caller waiting on someone else's start keeps waiting on its own ctx:
// when the starter gives up, the waiter starts Python itself.
func TestPythonResolverWaiterOutlivesStarter(t *testing.T) {
	dir := t.TempDir()
	slow := filepath.Join(dir, "slow")
	rtestWrite(t, slow, "", 0o644)
	script, starts := rtestWrapper(t, fmt.Sprintf(
		"if [ -e '%s' ]; then rm -f '%s'; exec sleep 30; fi\nexec '%s' \"$@\"", slow, slow, rtestPython(t)))
	r := NewPythonResolver(script)

	ctx, cancel := context.WithCancel(context.Background())
	starterDone := make(chan error, 1)
	go func() { starterDone <- r.(Preparer).Prepare(ctx) }()
	require.Eventually(t, func() bool { return starts() == 1 }, 5*time.Second, 5*time.Millisecond)

	waiterDone := make(chan error, 1)
	go func() {
		got, err := r.Resolve(context.Background(), "json")
		if err == nil && !got {
			err = fmt.Errorf("json not found")
		}
		waiterDone <- err
	}()
	// Let the waiter block on the flight. Nothing marks that moment; a
	// waiter the machine made late starts a flight of its own, and the
	// test asks the same of it (one more start, and an answer).
	time.Sleep(50 * time.Millisecond)
	cancel()
	assert.ErrorIs(t, <-starterDone, context.Canceled)
	assert.NoError(t, <-waiterDone)
	assert.Equal(t, 2, starts())
}

func TestPythonResolverRemembersFailure(t *testing.T) {
	script, starts := rtestWrapper(t, "echo 'boom: no interpreter here' >&2\nexit 3")
	r := NewPythonResolver(script)
	for range 3 {
		_, err := r.Resolve(context.Background(), "json")
		require.Error(t, err)
		assert.Contains(t, err.Error(), "py:json: ")
		assert.Contains(t, err.Error(), "boom: no interpreter here")
	}
	assert.Equal(t, 1, starts(), "a failed start must not be retried per call")
}

// Output printed before the report (say, by sitecustomize) is skipped.
func TestPythonResolverToleratesStdoutNoise(t *testing.T) {
	script, _ := rtestWrapper(t, fmt.Sprintf("echo 'hello from sitecustomize'\nexec '%s' \"$@\"", rtestPython(t)))
	got, err := NewPythonResolver(script).Resolve(context.Background(), "json")
	require.NoError(t, err)
	assert.True(t, got)
}

func TestPyParseInfo(t *testing.T) {
	out := "noise\x00gate-pyinfo-1\x00path\t/a\x00path\t/b\x00builtin\tsys\x00frozen\tos\x00loaded\tsite\x00" +
		"suffix\t.so\x00suffix\t.py\x00version\t3.14\x00end\t\x00path\t/after-end\x00"
	info, err := pyParseInfo([]byte(out))
	require.NoError(t, err)
	assert.Equal(t, []string{"/a", "/b"}, info.path)
	assert.Equal(t, []string{".so", ".py"}, info.suffixes)
	assert.True(t, info.builtin["sys"] && info.frozen["os"] && info.loaded["site"])
	assert.True(t, info.zipImplicitDirs)

	_, err = pyParseInfo([]byte("gate-pyinfo-1\x00path\t/a\x00"))
	assert.ErrorContains(t, err, "cut short")
	_, err = pyParseInfo([]byte("Python 2.7"))
	assert.ErrorContains(t, err, "no module path report")
}

func BenchmarkResolvePy(b *testing.B) {
	rtestPython(b)
	r := NewPythonResolver("")
	require.NoError(b, r.(Preparer).Prepare(context.Background()))
	for _, name := range []string{"json", "email.mime.text", "_sqlite3", "no_such_module_xyz"} {
		b.Run(name, func(b *testing.B) {
			ctx := context.Background()
			b.ReportAllocs()
			for b.Loop() {
				if _, err := r.Resolve(ctx, name); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// The listing cache is trusted only while the directory's mtime is
// unchanged and old enough not to hide a second change in the same tick.
func TestPyListDirCache(t *testing.T) {
	dir := t.TempDir()
	rtestWrite(t, filepath.Join(dir, "a.py"), "", 0o644)
	old := time.Now().Add(-time.Hour)
	require.NoError(t, os.Chtimes(dir, old, old))

	p := NewPythonResolver("").(*pyResolver)
	l, _, err := p.listDir(dir)
	require.NoError(t, err)
	assert.True(t, l.isFile(dir, "a.py"))

	// Sneak a file in and restore the mtime: the cached listing is used,
	// which shows the cache works (and why mtime must change to be seen).
	rtestWrite(t, filepath.Join(dir, "b.py"), "", 0o644)
	require.NoError(t, os.Chtimes(dir, old, old))
	l, _, err = p.listDir(dir)
	require.NoError(t, err)
	assert.False(t, l.isFile(dir, "b.py"))

	// A real change moves the mtime and the listing is read again.
	rtestWrite(t, filepath.Join(dir, "c.py"), "", 0o644)
	l, _, err = p.listDir(dir)
	require.NoError(t, err)
	assert.True(t, l.isFile(dir, "b.py") && l.isFile(dir, "c.py"))

	// A recently changed directory is reread on every call.
	rtestWrite(t, filepath.Join(dir, "d.py"), "", 0o644)
	now := time.Now()
	require.NoError(t, os.Chtimes(dir, now, now))
	_, _, err = p.listDir(dir)
	require.NoError(t, err)
	rtestWrite(t, filepath.Join(dir, "e.py"), "", 0o644)
	require.NoError(t, os.Chtimes(dir, now, now))
	l, _, err = p.listDir(dir)
	require.NoError(t, err)
	assert.True(t, l.isFile(dir, "e.py"))
}
