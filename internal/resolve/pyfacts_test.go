package resolve

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// pftestRealPython returns the interpreter python3 on PATH really runs
// (through a pyenv shim, that is the version's binary), so that tests of
// direct interpreters do not depend on how the machine is set up.
func pftestRealPython(t testing.TB) string {
	t.Helper()
	out, err := exec.Command(rtestPython(t), "-c", "import sys; print(sys.executable)").Output()
	require.NoError(t, err)
	exe := strings.TrimSpace(string(out))
	require.True(t, filepath.IsAbs(exe), "sys.executable %q", exe)
	return exe
}

// pftestFreshFiles lets entries depend on files the test just made: the
// racy window guards against changes within a timestamp tick, and every
// file here is seconds old at most. TestPyFactsRacyWindow covers it.
func pftestFreshFiles(t testing.TB) {
	old := pyFactsRacyWindow
	pyFactsRacyWindow = 0
	t.Cleanup(func() { pyFactsRacyWindow = old })
}

// pftestVenv makes a virtual environment of the real Python, without pip
// (fast), and returns its directory; copies puts a copy of the
// interpreter in it instead of a symlink.
func pftestVenv(t testing.TB, dir string, copies bool) string {
	t.Helper()
	args := []string{"-m", "venv", "--without-pip"}
	if copies {
		args = append(args, "--copies")
	}
	out, err := exec.Command(pftestRealPython(t), append(args, dir)...).CombinedOutput()
	require.NoError(t, err, "%s", out)
	return dir
}

// pftestSitePackages returns the venv's site-packages directory.
func pftestSitePackages(t testing.TB, venv string) string {
	t.Helper()
	m, err := filepath.Glob(filepath.Join(venv, "lib", "python3*", "site-packages"))
	require.NoError(t, err)
	require.Len(t, m, 1)
	return m[0]
}

// pftestResolve makes a fresh resolver (as a new process would), asks it
// for name, and returns the answer, its facts and how many times Python
// started.
func pftestResolve(t testing.TB, python, cacheDir, name string) (bool, *pyInfo, int64) {
	t.Helper()
	before := pyStarts.Load()
	r := NewPythonResolverCached(python, cacheDir).(*pyResolver)
	got, err := r.Resolve(context.Background(), name)
	require.NoError(t, err)
	return got, r.info.Load(), pyStarts.Load() - before
}

// pftestEntries lists the entries in a cache directory.
func pftestEntries(t testing.TB, cacheDir string) []string {
	t.Helper()
	m, err := filepath.Glob(filepath.Join(cacheDir, pyFactsSubdir, "*.json"))
	require.NoError(t, err)
	return m
}

// pfEnv is one test's world: a venv, a home, a working directory and a
// cache, all fresh.
type pfEnv struct {
	tmp, venv, site, home, work, cache string
	python                             string // the interpreter the resolvers run
}

func pftestEnv(t *testing.T, copies, system bool) *pfEnv {
	tmp := t.TempDir()
	e := &pfEnv{tmp: tmp, home: filepath.Join(tmp, "home"), work: filepath.Join(tmp, "work"), cache: filepath.Join(tmp, "cache")}
	require.NoError(t, os.MkdirAll(e.home, 0o755))
	require.NoError(t, os.MkdirAll(e.work, 0o755))
	e.venv = pftestVenv(t, filepath.Join(tmp, "venv"), copies)
	e.site = pftestSitePackages(t, e.venv)
	e.python = filepath.Join(e.venv, "bin", "python3")
	if system {
		e.python = pftestRealPython(t)
	}
	// Only what the test sets may vary: a developer's PYTHONPATH or
	// activated venv must not leak in.
	for _, k := range []string{"PYTHONPATH", "PYTHONHOME", "PYTHONNOUSERSITE", "PYTHONSAFEPATH", "PYTHONUSERBASE", "VIRTUAL_ENV", "PYENV_VERSION", "PYENV_DIR"} {
		t.Setenv(k, "")
		os.Unsetenv(k)
	}
	t.Setenv("HOME", e.home)
	t.Chdir(e.work)
	return e
}

// Each way an entry can go stale makes the next process start Python
// again, and only those: a process after it uses the rewritten entry.
func TestPyFactsCacheInvalidation(t *testing.T) {
	cases := []struct {
		name   string
		copies bool // the venv holds a copy of the interpreter
		system bool // run the real interpreter, not the venv's
		setup  func(t *testing.T, e *pfEnv)
		change func(t *testing.T, e *pfEnv)
		want   bool                                       // Python starts after the change
		check  func(t *testing.T, e *pfEnv, info *pyInfo) // facts after it
	}{
		{name: "nothing changed", change: func(*testing.T, *pfEnv) {}},
		{name: "unrelated environment variable", change: func(t *testing.T, _ *pfEnv) { t.Setenv("SERP_API_KEY", "x") }},
		{name: "working directory, nothing relative", change: func(t *testing.T, e *pfEnv) {
			t.Chdir(e.tmp)
		}},
		{name: "a package installed in a sys.path directory", want: true, change: func(t *testing.T, e *pfEnv) {
			rtestWrite(t, filepath.Join(e.site, "newpkg", "__init__.py"), "", 0o644)
		}},
		{name: "PYTHONPATH", want: true, change: func(t *testing.T, e *pfEnv) {
			t.Setenv("PYTHONPATH", e.tmp)
		}, check: func(t *testing.T, e *pfEnv, info *pyInfo) { assert.Contains(t, info.path, e.tmp) }},
		{name: "PYTHONNOUSERSITE", want: true, change: func(t *testing.T, _ *pfEnv) { t.Setenv("PYTHONNOUSERSITE", "1") }},
		{name: "PYTHONSAFEPATH", want: true, change: func(t *testing.T, _ *pfEnv) { t.Setenv("PYTHONSAFEPATH", "1") }},
		{name: "VIRTUAL_ENV", want: true, change: func(t *testing.T, e *pfEnv) { t.Setenv("VIRTUAL_ENV", e.venv) }},
		{name: "PYENV_VERSION", want: true, change: func(t *testing.T, _ *pfEnv) { t.Setenv("PYENV_VERSION", "3.12") }},
		{name: "PATH", want: true, change: func(t *testing.T, e *pfEnv) { t.Setenv("PATH", e.tmp+":"+os.Getenv("PATH")) }},
		{name: "HOME", want: true, change: func(t *testing.T, e *pfEnv) { t.Setenv("HOME", e.work) }},
		{name: "new .pth file", want: true, change: func(t *testing.T, e *pfEnv) {
			rtestWrite(t, filepath.Join(e.tmp, "extra", "extramod.py"), "", 0o644)
			rtestWrite(t, filepath.Join(e.site, "extra.pth"), filepath.Join(e.tmp, "extra")+"\n", 0o644)
		}, check: func(t *testing.T, e *pfEnv, info *pyInfo) {
			assert.Contains(t, info.path, filepath.Join(e.tmp, "extra"))
		}},
		{name: ".pth file edited in place", want: true, setup: func(t *testing.T, e *pfEnv) {
			for _, d := range []string{"a", "b"} {
				require.NoError(t, os.MkdirAll(filepath.Join(e.tmp, d), 0o755))
			}
			rtestWrite(t, filepath.Join(e.site, "edit.pth"), filepath.Join(e.tmp, "a")+"\n", 0o644)
		}, change: func(t *testing.T, e *pfEnv) {
			fi, err := os.Stat(e.site)
			require.NoError(t, err)
			// Same inode, same directory: only the file's own state shows it.
			f, err := os.OpenFile(filepath.Join(e.site, "edit.pth"), os.O_WRONLY|os.O_TRUNC, 0)
			require.NoError(t, err)
			_, err = f.WriteString(filepath.Join(e.tmp, "b") + "\n")
			require.NoError(t, err)
			require.NoError(t, f.Close())
			after, err := os.Stat(e.site)
			require.NoError(t, err)
			require.Equal(t, fi.ModTime(), after.ModTime(), "the directory must not show the edit")
		}, check: func(t *testing.T, e *pfEnv, info *pyInfo) {
			assert.Contains(t, info.path, filepath.Join(e.tmp, "b"))
			assert.NotContains(t, info.path, filepath.Join(e.tmp, "a"))
		}},
		{name: "pyvenv.cfg edited", want: true, change: func(t *testing.T, e *pfEnv) {
			cfg := filepath.Join(e.venv, "pyvenv.cfg")
			b, err := os.ReadFile(cfg)
			require.NoError(t, err)
			b = bytes.Replace(b, []byte("include-system-site-packages = false"), []byte("include-system-site-packages = true"), 1)
			require.NoError(t, os.WriteFile(cfg, b, 0o644))
		}, check: func(t *testing.T, e *pfEnv, info *pyInfo) {
			assert.Greater(t, len(info.path), 4, "system site-packages now on sys.path: %v", info.path)
		}},
		{name: "interpreter touched", copies: true, want: true, change: func(t *testing.T, e *pfEnv) {
			later := time.Now().Add(-time.Hour)
			require.NoError(t, os.Chtimes(e.python, later, later))
		}},
		{name: "interpreter replaced", copies: true, want: true, change: func(t *testing.T, e *pfEnv) {
			b, err := os.ReadFile(e.python)
			require.NoError(t, err)
			rtestWrite(t, e.python+".new", string(b), 0o755)
			require.NoError(t, os.Rename(e.python+".new", e.python))
		}},
		{name: "sitecustomize edited", want: true, setup: func(t *testing.T, e *pfEnv) {
			rtestWrite(t, filepath.Join(e.site, "sitecustomize.py"), "import colorsys\n", 0o644)
		}, change: func(t *testing.T, e *pfEnv) {
			f, err := os.OpenFile(filepath.Join(e.site, "sitecustomize.py"), os.O_WRONLY|os.O_TRUNC, 0)
			require.NoError(t, err)
			_, err = f.WriteString("import fractions\n")
			require.NoError(t, err)
			require.NoError(t, f.Close())
		}, check: func(t *testing.T, e *pfEnv, info *pyInfo) {
			assert.True(t, info.loaded["fractions"])
			assert.False(t, info.loaded["colorsys"])
		}},
		{name: "user site directory appears", system: true, want: true, change: func(t *testing.T, e *pfEnv) {
			out, err := exec.Command(e.python, "-c", "import site; print(site.getusersitepackages())").Output()
			require.NoError(t, err)
			us := strings.TrimSpace(string(out))
			require.True(t, strings.HasPrefix(us, e.home), "user site %s not under HOME", us)
			require.NoError(t, os.MkdirAll(us, 0o755))
		}, check: func(t *testing.T, e *pfEnv, info *pyInfo) {
			assert.True(t, strings.HasPrefix(info.path[len(info.path)-1], e.home) || strings.Contains(strings.Join(info.path, ":"), e.home))
		}},
		{name: "working directory, relative PYTHONPATH", want: true, setup: func(t *testing.T, e *pfEnv) {
			t.Setenv("PYTHONPATH", "lib")
		}, change: func(t *testing.T, e *pfEnv) {
			t.Chdir(e.tmp)
		}, check: func(t *testing.T, e *pfEnv, info *pyInfo) { assert.Contains(t, info.path, filepath.Join(e.tmp, "lib")) }},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			pftestFreshFiles(t)
			e := pftestEnv(t, tc.copies, tc.system)
			if tc.setup != nil {
				tc.setup(t, e)
			}
			got, _, starts := pftestResolve(t, e.python, e.cache, "json")
			require.True(t, got)
			require.EqualValues(t, 1, starts)
			require.Len(t, pftestEntries(t, e.cache), 1)
			// Unchanged, a new process does not start Python: what the
			// change below breaks was working.
			_, _, starts = pftestResolve(t, e.python, e.cache, "json")
			require.EqualValues(t, 0, starts, "the cache did not hit before the change")

			tc.change(t, e)
			got, info, starts := pftestResolve(t, e.python, e.cache, "json")
			require.True(t, got)
			want := int64(0)
			if tc.want {
				want = 1
			}
			assert.Equal(t, want, starts, "Python starts after the change")
			if tc.check != nil {
				tc.check(t, e, info)
			}
			_, _, starts = pftestResolve(t, e.python, e.cache, "json")
			assert.EqualValues(t, 0, starts, "the entry was not rewritten")
		})
	}
}

// pftestPyenv builds a pyenv root like a real one in the ways that
// matter: a shim from pyenv's template, a libexec/pyenv that picks the
// version as pyenv-version-name does (PYENV_VERSION, the nearest
// .python-version from PYENV_DIR or the working directory, else
// $PYENV_ROOT/version) and logs each start, and two versions A and B (venvs,
// so that their sys.path differs).
func pftestPyenv(t *testing.T) (root, shim string, starts func() int) {
	root = filepath.Join(t.TempDir(), "pyenv")
	shim = filepath.Join(root, "shims", "python3")
	rtestWrite(t, shim, fmt.Sprintf(`#!/usr/bin/env bash
set -e
[ -n "$PYENV_DEBUG" ] && set -x

program="${0##*/}"

export PYENV_ROOT="%s"
exec "%s/libexec/pyenv" exec "$program" "$@"
`, root, root), 0o755)
	log := filepath.Join(t.TempDir(), "starts.log")
	rtestWrite(t, filepath.Join(root, "libexec", "pyenv"), fmt.Sprintf(`#!/bin/sh
set -e
echo start >> '%s'
shift
program="$1"; shift
v="$PYENV_VERSION"
if [ -z "$v" ]; then
  d="${PYENV_DIR:-$PWD}"
  while :; do
    if [ -f "$d/.python-version" ]; then v=$(head -n1 "$d/.python-version"); break; fi
    [ "$d" = / ] && break
    d=$(dirname "$d")
  done
fi
[ -n "$v" ] || v=$(head -n1 "$PYENV_ROOT/version")
exec "$PYENV_ROOT/versions/$v/bin/$program" "$@"
`, log), 0o755)
	for _, v := range []string{"A", "B"} {
		pftestVenv(t, filepath.Join(root, "versions", v), false)
	}
	rtestWrite(t, filepath.Join(root, "version"), "A\n", 0o644)
	return root, shim, func() int {
		b, err := os.ReadFile(log)
		if os.IsNotExist(err) {
			return 0
		}
		require.NoError(t, err)
		return strings.Count(string(b), "start\n")
	}
}

// Behind a pyenv shim, whatever decides the version decides the entry.
func TestPyFactsCachePyenvShim(t *testing.T) {
	cases := []struct {
		name    string
		change  func(t *testing.T, root, work string)
		want    bool   // Python starts after the change
		version string // whose site-packages is on sys.path after it
	}{
		{name: "nothing changed", change: func(*testing.T, string, string) {}, version: "A"},
		{name: ".python-version in the working directory", want: true, version: "B", change: func(t *testing.T, _, work string) {
			rtestWrite(t, filepath.Join(work, ".python-version"), "B\n", 0o644)
		}},
		{name: ".python-version in a parent", want: true, version: "B", change: func(t *testing.T, _, work string) {
			rtestWrite(t, filepath.Join(filepath.Dir(work), ".python-version"), "B\n", 0o644)
		}},
		{name: "global version file", want: true, version: "B", change: func(t *testing.T, root, _ string) {
			rtestWrite(t, filepath.Join(root, "version"), "B\n", 0o644)
		}},
		{name: "PYENV_VERSION", want: true, version: "B", change: func(t *testing.T, _, _ string) {
			t.Setenv("PYENV_VERSION", "B")
		}},
		{name: "PYENV_DIR", want: true, version: "B", change: func(t *testing.T, _, work string) {
			other := filepath.Join(filepath.Dir(work), "other")
			rtestWrite(t, filepath.Join(other, ".python-version"), "B\n", 0o644)
			t.Setenv("PYENV_DIR", other)
		}},
		{name: "working directory", want: true, version: "A", change: func(t *testing.T, _, work string) {
			t.Chdir(filepath.Dir(work))
		}},
		{name: "a version installed", want: true, version: "A", change: func(t *testing.T, root, _ string) {
			require.NoError(t, os.Mkdir(filepath.Join(root, "versions", "C"), 0o755))
		}},
		{name: "shims rehashed", want: true, version: "A", change: func(t *testing.T, root, _ string) {
			shim := filepath.Join(root, "shims", "python3")
			b, err := os.ReadFile(shim)
			require.NoError(t, err)
			rtestWrite(t, shim+".new", string(b), 0o755)
			require.NoError(t, os.Rename(shim+".new", shim))
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			pftestFreshFiles(t)
			for _, k := range []string{"PYENV_VERSION", "PYENV_DIR", "PYTHONPATH"} {
				t.Setenv(k, "")
				os.Unsetenv(k)
			}
			root, shim, starts := pftestPyenv(t)
			require.Equal(t, root, pyenvShimRoot(shim), "the shim must be recognised")
			work := filepath.Join(t.TempDir(), "project", "work")
			require.NoError(t, os.MkdirAll(work, 0o755))
			t.Chdir(work)
			cache := t.TempDir()

			_, info, _ := pftestResolve(t, shim, cache, "json")
			require.Equal(t, 1, starts())
			require.Contains(t, strings.Join(info.path, ":"), filepath.Join(root, "versions", "A"))
			_, _, _ = pftestResolve(t, shim, cache, "json")
			require.Equal(t, 1, starts(), "the cache did not hit before the change")

			tc.change(t, root, work)
			got, info, _ := pftestResolve(t, shim, cache, "json")
			require.True(t, got)
			want := 1
			if tc.want {
				want = 2
			}
			assert.Equal(t, want, starts(), "starts after the change")
			assert.Contains(t, strings.Join(info.path, ":"), filepath.Join(root, "versions", tc.version, "lib"))
			_, _, _ = pftestResolve(t, shim, cache, "json")
			assert.Equal(t, want, starts(), "the entry was not rewritten")
		})
	}
}

// What is not cached: no cache directory (as before the cache existed), a
// wrapper the cache cannot see through, and files changed moments before
// the start.
func TestPyFactsCacheNotUsed(t *testing.T) {
	real := pftestRealPython(t)
	wrapper, _ := rtestWrapper(t, fmt.Sprintf("exec '%s' \"$@\"", real))
	cases := []struct {
		name   string
		python string
		cache  bool
		fresh  bool // lower the racy window
	}{
		{name: "no cache directory", python: real, fresh: true},
		{name: "unknown wrapper", python: wrapper, cache: true, fresh: true},
		{name: "files changed just now", python: "venv", cache: true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if tc.fresh {
				pftestFreshFiles(t)
			}
			python := tc.python
			if python == "venv" {
				python = filepath.Join(pftestVenv(t, filepath.Join(t.TempDir(), "venv"), false), "bin", "python3")
			}
			cache := ""
			if tc.cache {
				cache = t.TempDir()
			}
			for range 2 {
				got, _, starts := pftestResolve(t, python, cache, "json")
				assert.True(t, got)
				assert.EqualValues(t, 1, starts)
			}
			if cache != "" {
				assert.Empty(t, pftestEntries(t, cache))
			}
		})
	}
}

// A damaged, hostile or misplaced entry costs a start, never a wrong
// answer, a hang or a panic; afterwards the entry is good again unless its
// directory is not trusted.
func TestPyFactsCacheBadEntry(t *testing.T) {
	cases := []struct {
		name    string
		spoil   func(t *testing.T, dir, entry string, good []byte)
		healed  bool // a further process uses the rewritten entry
		checkFn func(t *testing.T, dir, entry string)
	}{
		{name: "truncated", healed: true, spoil: func(t *testing.T, _, entry string, good []byte) {
			require.NoError(t, os.WriteFile(entry, good[:len(good)/2], 0o600))
		}},
		{name: "empty", healed: true, spoil: func(t *testing.T, _, entry string, _ []byte) {
			require.NoError(t, os.WriteFile(entry, nil, 0o600))
		}},
		{name: "garbage", healed: true, spoil: func(t *testing.T, _, entry string, _ []byte) {
			require.NoError(t, os.WriteFile(entry, []byte("\x00\xff{not json"), 0o600))
		}},
		{name: "a recorded state altered", healed: true, spoil: func(t *testing.T, _, entry string, good []byte) {
			b := bytes.Replace(good, []byte(`"ino":`), []byte(`"ino":1`), 1)
			require.NotEqual(t, good, b)
			require.NoError(t, os.WriteFile(entry, b, 0o600))
		}},
		{name: "watch list emptied", healed: true, spoil: func(t *testing.T, _, entry string, good []byte) {
			f, err := pyFactsParse(good)
			require.NoError(t, err)
			f.Watch = nil
			b, err := pyFactsEncode(f)
			require.NoError(t, err)
			require.NoError(t, os.WriteFile(entry, b, 0o600))
		}},
		{name: "another key", healed: true, spoil: func(t *testing.T, _, entry string, good []byte) {
			f, err := pyFactsParse(good)
			require.NoError(t, err)
			f.Key = strings.Repeat("ab", 32)
			b, err := pyFactsEncode(f)
			require.NoError(t, err)
			require.NoError(t, os.WriteFile(entry, b, 0o600))
		}},
		{name: "unknown field", healed: true, spoil: func(t *testing.T, _, entry string, good []byte) {
			require.NoError(t, os.WriteFile(entry, bytes.Replace(good, []byte(`{"format"`), []byte(`{"x":1,"format"`), 1), 0o600))
		}},
		{name: "huge", healed: true, spoil: func(t *testing.T, _, entry string, _ []byte) {
			f, err := os.OpenFile(entry, os.O_WRONLY|os.O_TRUNC, 0)
			require.NoError(t, err)
			require.NoError(t, f.Truncate(1<<30)) // sparse
			require.NoError(t, f.Close())
		}},
		{name: "FIFO", healed: true, spoil: func(t *testing.T, _, entry string, _ []byte) {
			require.NoError(t, os.Remove(entry))
			require.NoError(t, syscall.Mkfifo(entry, 0o600))
		}},
		{name: "symlink to a good entry", healed: true, spoil: func(t *testing.T, _, entry string, good []byte) {
			elsewhere := filepath.Join(t.TempDir(), "planted.json")
			require.NoError(t, os.WriteFile(elsewhere, good, 0o600))
			require.NoError(t, os.Remove(entry))
			require.NoError(t, os.Symlink(elsewhere, entry))
		}, checkFn: func(t *testing.T, _, entry string) {
			fi, err := os.Lstat(entry)
			require.NoError(t, err)
			assert.True(t, fi.Mode().IsRegular(), "the link was replaced, not followed")
		}},
		{name: "a directory at the entry's path", spoil: func(t *testing.T, _, entry string, _ []byte) {
			require.NoError(t, os.Remove(entry))
			require.NoError(t, os.Mkdir(entry, 0o700))
			rtestWrite(t, filepath.Join(entry, "x"), "", 0o600) // so rename cannot replace it
		}},
		{name: "directory writable by others", spoil: func(t *testing.T, dir, _ string, _ []byte) {
			require.NoError(t, os.Chmod(dir, 0o777))
		}},
		{name: "directory is a symlink", spoil: func(t *testing.T, dir, _ string, _ []byte) {
			moved := filepath.Join(t.TempDir(), "moved")
			require.NoError(t, os.Rename(dir, moved))
			require.NoError(t, os.Symlink(moved, dir))
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			pftestFreshFiles(t)
			e := pftestEnv(t, false, false)
			_, _, starts := pftestResolve(t, e.python, e.cache, "json")
			require.EqualValues(t, 1, starts)
			entries := pftestEntries(t, e.cache)
			require.Len(t, entries, 1)
			good, err := os.ReadFile(entries[0])
			require.NoError(t, err)
			_, _, starts = pftestResolve(t, e.python, e.cache, "json")
			require.EqualValues(t, 0, starts, "the good entry was not used")

			tc.spoil(t, filepath.Join(e.cache, pyFactsSubdir), entries[0], good)
			done := make(chan struct{})
			go func() {
				defer close(done)
				got, _, starts := pftestResolve(t, e.python, e.cache, "json")
				assert.True(t, got)
				assert.EqualValues(t, 1, starts, "a spoilt entry must cost a start")
			}()
			select {
			case <-done:
			case <-time.After(20 * time.Second):
				t.Fatal("resolving blocked on the spoilt entry")
			}
			want := int64(1)
			if tc.healed {
				want = 0
			}
			_, _, starts = pftestResolve(t, e.python, e.cache, "json")
			assert.Equal(t, want, starts, "a process after the rewrite")
			if tc.checkFn != nil {
				tc.checkFn(t, filepath.Join(e.cache, pyFactsSubdir), entries[0])
			}
		})
	}
}

// The entry's directory and file are private.
func TestPyFactsCachePermissions(t *testing.T) {
	pftestFreshFiles(t)
	e := pftestEnv(t, false, false)
	cache := filepath.Join(e.tmp, "new", "cache") // does not exist yet
	pftestResolve(t, e.python, cache, "json")
	entries := pftestEntries(t, cache)
	require.Len(t, entries, 1)
	for path, want := range map[string]os.FileMode{
		filepath.Dir(entries[0]): 0o700 | os.ModeDir,
		entries[0]:               0o600,
	} {
		fi, err := os.Lstat(path)
		require.NoError(t, err)
		assert.Equal(t, want, fi.Mode(), path)
	}
	left, err := filepath.Glob(filepath.Join(cache, pyFactsSubdir, ".tmp-*"))
	require.NoError(t, err)
	assert.Empty(t, left, "temporary files left behind")
}

// With the real racy window, files changed just before the start keep the
// entry from being written (covered in TestPyFactsCacheNotUsed); once they
// are old enough, it is written. The times are moved back rather than
// waited for, except the ctime, which cannot be: so this checks the mtime
// half and that the window is what decides.
func TestPyFactsRacyWindow(t *testing.T) {
	f := &pyFactsCache{ok: true, key: strings.Repeat("0", 64), exe: "/x", shim: true, dir: filepath.Join(t.TempDir(), pyFactsSubdir)}
	file := filepath.Join(t.TempDir(), "f")
	rtestWrite(t, file, "", 0o644)
	info := &pyInfo{executable: file, suffixes: []string{".py"}}
	f.pre = []string{file}
	cases := []struct {
		window time.Duration
		ok     bool
	}{
		{window: time.Hour, ok: false},
		{window: 2 * time.Second, ok: false},
		{window: -time.Hour, ok: true},
	}
	for _, tc := range cases {
		t.Run(tc.window.String(), func(t *testing.T) {
			old := pyFactsRacyWindow
			pyFactsRacyWindow = tc.window
			defer func() { pyFactsRacyWindow = old }()
			err := f.save(info, nil, time.Now())
			if tc.ok {
				assert.NoError(t, err)
			} else {
				assert.ErrorContains(t, err, "too recently")
			}
		})
	}
}

func TestPyenvShimRoot(t *testing.T) {
	dir := t.TempDir()
	real := `#!/usr/bin/env bash
set -e
[ -n "$PYENV_DEBUG" ] && set -x

program="${0##*/}"

export PYENV_ROOT="/home/u/.pyenv"
SHIM_PATH=${0%/*}
exec "/home/u/.pyenv/libexec/pyenv" exec "$program" "$@"
`
	cases := []struct {
		name, content, want string
	}{
		{name: "pyenv shim", content: real, want: "/home/u/.pyenv"},
		{name: "plain wrapper", content: "#!/bin/sh\nexec /usr/bin/python3 \"$@\"\n"},
		{name: "root but another exec", content: "#!/bin/sh\nexport PYENV_ROOT=\"/r\"\nexec \"/elsewhere/libexec/pyenv\" exec python3\n"},
		{name: "relative root", content: "#!/bin/sh\nexport PYENV_ROOT=\"r\"\nexec \"r/libexec/pyenv\" exec python3\n"},
		{name: "not a script", content: "\x7fELF" + real[2:]},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(dir, strings.ReplaceAll(tc.name, " ", "_"))
			rtestWrite(t, path, tc.content, 0o755)
			assert.Equal(t, tc.want, pyenvShimRoot(path))
		})
	}
	assert.Empty(t, pyenvShimRoot(filepath.Join(dir, "missing")))
	assert.Empty(t, pyenvShimRoot(dir))
}

// pftestEntry is a valid entry for parser tests.
func pftestEntry() *pyFactsFile {
	return &pyFactsFile{
		Format: pyFactsFormat,
		Key:    strings.Repeat("0f", 32),
		Facts: pyFactsJSON{
			Path: []string{"/usr/lib/python3.11", "/usr/lib/python3/dist-packages"}, Builtin: []string{"_imp", "sys"},
			Frozen: []string{}, Loaded: []string{"site"}, Suffixes: []string{".so", ".py"},
		},
		Watch: []pyFactStat{
			{Path: "/usr/bin/python3", Dev: 1, Ino: 2, Mode: 0o100755, Size: 3, MtimeNs: 4, CtimeNs: 5},
			{Path: "/usr/bin/pyvenv.cfg", Missing: true},
		},
	}
}

func TestPyFactsParse(t *testing.T) {
	good, err := pyFactsEncode(pftestEntry())
	require.NoError(t, err)
	f, err := pyFactsParse(good)
	require.NoError(t, err)
	assert.Equal(t, pftestEntry().Facts, f.Facts)

	mutate := func(fn func(f *pyFactsFile)) []byte {
		f := pftestEntry()
		fn(f)
		b, err := json.Marshal(f) // not pyFactsEncode, which validates
		require.NoError(t, err)
		return append(b, '\n')
	}
	cases := []struct {
		name string
		in   []byte
		want string
	}{
		{"trailing data", append(bytes.Clone(good), "{}"...), "after the entry"},
		{"no newline", good[:len(good)-1], "canonical"},
		{"indented", bytes.ReplaceAll(good, []byte(`,"`), []byte(`, "`)), "canonical"},
		{"duplicate field", bytes.Replace(good, []byte(`{"format":1`), []byte(`{"format":1,"format":1`), 1), "canonical"},
		{"field spelt otherwise", bytes.Replace(good, []byte(`"format"`), []byte(`"FORMAT"`), 1), "canonical"},
		{"unknown field", bytes.Replace(good, []byte(`{"format"`), []byte(`{"x":0,"format"`), 1), "unknown field"},
		{"invalid UTF-8", bytes.Replace(good, []byte("site"), []byte("s\xffte"), 1), "canonical"},
		{"other format", mutate(func(f *pyFactsFile) { f.Format = 2 }), "format 2"},
		{"short key", mutate(func(f *pyFactsFile) { f.Key = "ab" }), "bad key"},
		{"upper-case key", mutate(func(f *pyFactsFile) { f.Key = strings.Repeat("0F", 32) }), "bad key"},
		{"relative path", mutate(func(f *pyFactsFile) { f.Facts.Path[0] = "lib" }), "not absolute"},
		{"unsorted set", mutate(func(f *pyFactsFile) { f.Facts.Builtin = []string{"sys", "_imp"} }), "not sorted"},
		{"duplicate in set", mutate(func(f *pyFactsFile) { f.Facts.Builtin = []string{"sys", "sys"} }), "not sorted"},
		{"NUL in a name", mutate(func(f *pyFactsFile) { f.Facts.Loaded = []string{"a\x00b"} }), "bad entry"},
		{"empty name", mutate(func(f *pyFactsFile) { f.Facts.Loaded = []string{""} }), "bad entry"},
		{"no suffixes", mutate(func(f *pyFactsFile) { f.Facts.Suffixes = nil }), "no import suffixes"},
		{"watch unsorted", mutate(func(f *pyFactsFile) { f.Watch[0], f.Watch[1] = f.Watch[1], f.Watch[0] }), "not sorted"},
		{"missing with state", mutate(func(f *pyFactsFile) { f.Watch[1].Ino = 7 }), "has a state"},
		{"relative watch", mutate(func(f *pyFactsFile) { f.Watch[1].Path = "pyvenv.cfg" }), "not absolute"},
		{"float", bytes.Replace(good, []byte(`"size":3`), []byte(`"size":3.0`), 1), "cannot unmarshal"},
		{"too big", append(bytes.Repeat([]byte(" "), int(pyFactsMaxFile)), good...), "over the limit"},
		{"null", []byte("null\n"), "format 0"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := pyFactsParse(tc.in)
			assert.ErrorContains(t, err, tc.want)
		})
	}
}

// FuzzPyFactsParse: the parser never panics, and accepts only what it
// would write itself.
func FuzzPyFactsParse(f *testing.F) {
	good, err := pyFactsEncode(pftestEntry())
	require.NoError(f, err)
	f.Add(good)
	f.Add(good[:len(good)/2])
	f.Add([]byte(`{"format":1}`))
	f.Add([]byte("null"))
	f.Fuzz(func(t *testing.T, b []byte) {
		parsed, err := pyFactsParse(b)
		if err != nil {
			return
		}
		again, err := pyFactsEncode(parsed)
		require.NoError(t, err, "an accepted entry must encode")
		require.Equal(t, string(b), string(again), "an accepted entry must round-trip")
		info := parsed.Facts.info()
		assert.Equal(t, parsed.Facts, pyFactsFromInfo(info), "facts must survive pyInfo")
	})
}

// BenchmarkPyFactsColdResolve is what a new process pays for its first
// py: answer, without and with a warm facts cache, for each kind of
// python3 this machine has; speedup-x is the ratio.
func BenchmarkPyFactsColdResolve(b *testing.B) {
	interps := map[string]string{}
	if p, err := exec.LookPath("python3"); err == nil && pyenvShimRoot(p) != "" {
		interps["pyenv-shim"] = p
	}
	if _, err := os.Stat("/usr/bin/python3"); err == nil {
		interps["usr-bin-python3"] = "/usr/bin/python3"
	}
	if len(interps) == 0 {
		b.Skip("neither a pyenv shim nor /usr/bin/python3 here")
	}
	for name, python := range interps {
		b.Run(name, func(b *testing.B) {
			cache := b.TempDir()
			ctx := context.Background()
			resolve := func(cacheDir string) time.Duration {
				start := time.Now()
				rs := NewResolvers(Options{Python: python, CacheDir: cacheDir})
				if ok, err := rs.Resolve(ctx, "py:json"); err != nil || !ok {
					b.Fatalf("py:json: %v %v", ok, err)
				}
				return time.Since(start)
			}
			resolve(cache) // warm it
			before := pyStarts.Load()
			var cold, warm time.Duration
			for b.Loop() {
				cold += resolve("")
				warm += resolve(cache)
			}
			if got := pyStarts.Load() - before; got != int64(b.N) {
				b.Fatalf("%d starts in %d iterations: the warm cache started Python", got, b.N)
			}
			b.ReportMetric(float64(cold.Microseconds())/float64(b.N)/1000, "nocache-ms/op")
			b.ReportMetric(float64(warm.Microseconds())/float64(b.N)/1000, "warmcache-ms/op")
			b.ReportMetric(float64(cold)/float64(warm), "speedup-x")
		})
	}
}

// The cache keeps a bounded number of entries, dropping the oldest
// written, and clears temporary files a crashed writer left.
func TestPyFactsPrune(t *testing.T) {
	old := pyFactsMaxEntries
	pyFactsMaxEntries = 4
	t.Cleanup(func() { pyFactsMaxEntries = old })
	cases := []struct {
		entries int
		want    []string
	}{
		{entries: 4, want: []string{"e0.json", "e1.json", "e2.json", "e3.json"}},
		{entries: 6, want: []string{"e3.json", "e4.json", "e5.json"}},
	}
	for _, tc := range cases {
		t.Run(fmt.Sprint(tc.entries), func(t *testing.T) {
			dir := t.TempDir()
			base := time.Now().Add(-24 * time.Hour)
			for i := range tc.entries {
				p := filepath.Join(dir, fmt.Sprintf("e%d.json", i))
				rtestWrite(t, p, "{}", 0o600)
				mt := base.Add(time.Duration(i) * time.Minute)
				require.NoError(t, os.Chtimes(p, mt, mt))
			}
			rtestWrite(t, filepath.Join(dir, ".tmp-old"), "", 0o600)
			require.NoError(t, os.Chtimes(filepath.Join(dir, ".tmp-old"), base, base))
			rtestWrite(t, filepath.Join(dir, ".tmp-new"), "", 0o600) // a writer at work
			pyFactsPrune(dir)
			m, err := filepath.Glob(filepath.Join(dir, "*.json"))
			require.NoError(t, err)
			for i := range m {
				m[i] = filepath.Base(m[i])
			}
			assert.Equal(t, tc.want, m)
			assert.NoFileExists(t, filepath.Join(dir, ".tmp-old"))
			assert.FileExists(t, filepath.Join(dir, ".tmp-new"))
		})
	}
}
