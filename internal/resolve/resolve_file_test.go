package resolve

import (
	"archive/zip"
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/gate-dev/gate/internal/nohang"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// rtestHostile is a directory of the files a resolver must never block on,
// read without bound, or follow forever.
type rtestHostile struct {
	dir, fifo, loop, big, root, zero, short string
}

func newRtestHostile(t *testing.T) rtestHostile {
	d := t.TempDir()
	h := rtestHostile{
		dir:   d,
		fifo:  filepath.Join(d, "fifo"),
		loop:  filepath.Join(d, "loop"),
		big:   filepath.Join(d, "big"),
		root:  filepath.Join(d, "root"),
		zero:  filepath.Join(d, "zero"),
		short: filepath.Join(d, "short"),
	}
	require.NoError(t, syscall.Mkfifo(h.fifo, 0o644))
	require.NoError(t, os.Symlink("loop", h.loop))
	f, err := os.Create(h.big)
	require.NoError(t, err)
	require.NoError(t, f.Truncate(100<<20)) // sparse: 100 MB of zeros that cost no disk
	require.NoError(t, f.Close())
	require.NoError(t, os.Symlink("/", h.root))
	require.NoError(t, os.Symlink("/dev/zero", h.zero))
	rtestWrite(t, h.short, "\x7fELF\x02", 0o644) // a library being written
	return h
}

func (h rtestHostile) all() []string {
	return []string{h.fifo, h.loop, h.big, h.root, h.zero, h.short, "/dev/zero"}
}

// Files are opened through internal/safefile, whose tests cover every
// kind of path; directories here.
func TestReadDirNamesIsBounded(t *testing.T) {
	h := newRtestHostile(t)
	// A directory listing stops at the cap and says it did.
	for i := range 5 {
		rtestWrite(t, filepath.Join(h.dir, "many", fmt.Sprint(i)), "", 0o644)
	}
	ents, complete, err := readDirNames(filepath.Join(h.dir, "many"), 3)
	require.NoError(t, err)
	assert.Len(t, ents, 3)
	assert.False(t, complete)
	ents, complete, err = readDirNames(filepath.Join(h.dir, "many"), 5)
	require.NoError(t, err)
	assert.Len(t, ents, 5)
	assert.True(t, complete)
	_, _, err = readDirNames(h.fifo, 5)
	assert.Error(t, err, "O_DIRECTORY refuses a FIFO instead of blocking on it")
}

// lib: with an absolute path opened anything with a blocking open(2):
// a FIFO hung the run for good.
func TestLibResolverHostileFiles(t *testing.T) {
	h := newRtestHostile(t)
	r := NewLibResolver()
	for _, p := range h.all() {
		nohang.Run(t, p, func() {
			got, err := r.Resolve(context.Background(), p) // no deadline: the resolver itself must not block
			require.NoError(t, err)
			assert.False(t, got)
		})
	}
}

func TestLibParseConfHostileIncludes(t *testing.T) {
	h := newRtestHostile(t)
	etc := t.TempDir()
	libs := t.TempDir()
	rtestWrite(t, filepath.Join(libs, "libconf.so.2"), rtestNativeELF(t), 0o644)
	conf := filepath.Join(etc, "ld.so.conf")
	rtestWrite(t, conf, "include ld.so.conf.d/*.conf\ninclude root/*\n", 0o644)
	d := filepath.Join(etc, "ld.so.conf.d")
	rtestWrite(t, filepath.Join(d, "50-good.conf"), libs+"\n", 0o644)
	require.NoError(t, syscall.Mkfifo(filepath.Join(d, "10-fifo.conf"), 0o644))
	require.NoError(t, os.Symlink(h.fifo, filepath.Join(d, "11-fifolink.conf")))
	require.NoError(t, os.Symlink("/dev/zero", filepath.Join(d, "20-zero.conf")))
	require.NoError(t, os.Symlink(h.big, filepath.Join(d, "30-big.conf")))
	require.NoError(t, os.Symlink("40-loop.conf", filepath.Join(d, "40-loop.conf")))
	require.NoError(t, os.Symlink("/", filepath.Join(d, "60-root.conf")))
	require.NoError(t, os.Symlink("/", filepath.Join(etc, "root")))

	nohang.Run(t, "parse", func() {
		assert.Equal(t, []string{libs}, libParseConf(conf, 0, map[string]bool{}))
	})
	nohang.Run(t, "resolve", func() {
		got, err := newLibResolver("", conf).Resolve(context.Background(), "libconf.so.2")
		require.NoError(t, err)
		assert.True(t, got)
	})
	// ld.so.conf itself may be any of them.
	for _, p := range h.all() {
		nohang.Run(t, p, func() {
			assert.Empty(t, libParseConf(p, 0, map[string]bool{}))
		})
	}
}

func TestBoundedGlob(t *testing.T) {
	d := t.TempDir()
	for _, n := range []string{"b.conf", "a.conf", "c.txt", "sub/x.conf"} {
		rtestWrite(t, filepath.Join(d, n), "", 0o644)
	}
	budget := 100
	assert.Equal(t, []string{filepath.Join(d, "a.conf"), filepath.Join(d, "b.conf")}, boundedGlob(filepath.Join(d, "*.conf"), &budget))
	assert.Equal(t, []string{filepath.Join(d, "sub", "x.conf")}, boundedGlob(filepath.Join(d, "*", "*.conf"), &budget))
	assert.Equal(t, []string{filepath.Join(d, "c.txt")}, boundedGlob(filepath.Join(d, "c.txt"), &budget))
	assert.Less(t, budget, 100)

	budget = 2
	assert.LessOrEqual(t, len(boundedGlob(filepath.Join(d, "*"), &budget)), 2)
	assert.Zero(t, budget)
	assert.Empty(t, boundedGlob(filepath.Join(d, "*"), &budget), "a spent budget reads nothing")
}

// rtestPyResolver is a Python resolver with a made-up report, so that the
// finder can be tested on hostile paths without a Python that would read
// them itself.
func rtestPyResolver(path ...string) *pyResolver {
	p := NewPythonResolver("no-python-needed").(*pyResolver)
	p.info.Store(&pyInfo{
		path: path, builtin: map[string]bool{}, frozen: map[string]bool{}, loaded: map[string]bool{},
		suffixes: []string{".cpython-311-x86_64-linux-gnu.so", ".so", ".py", ".pyc"},
	})
	return p
}

func TestPythonResolverHostileFiles(t *testing.T) {
	h := newRtestHostile(t)
	site := filepath.Join(h.dir, "site")
	rtestWrite(t, filepath.Join(site, "good.py"), "", 0o644)
	require.NoError(t, syscall.Mkfifo(filepath.Join(site, "fifomod.py"), 0o644))
	require.NoError(t, os.MkdirAll(filepath.Join(site, "fifopkg"), 0o755))
	require.NoError(t, syscall.Mkfifo(filepath.Join(site, "fifopkg", "__init__.py"), 0o644))
	require.NoError(t, os.Symlink("loopmod.py", filepath.Join(site, "loopmod.py")))
	require.NoError(t, os.Symlink(".", filepath.Join(site, "loopdir")))
	require.NoError(t, os.Symlink("/dev/zero", filepath.Join(site, "zero.py")))
	require.NoError(t, syscall.Mkfifo(filepath.Join(site, "fifo.zip"), 0o644))
	r := rtestPyResolver(h.fifo, h.loop, h.big, h.zero, h.short, "/dev/zero", filepath.Join(site, "fifo.zip"), site)

	cases := map[string]bool{
		"good":    true,
		"fifomod": false,
		"fifopkg": true, // a directory without a regular __init__: a namespace portion, as for Python
		"loopmod": false,
		"zero":    false,
		"nope":    false,
		"loopdir.loopdir.loopdir.loopdir.loopdir.loopdir.loopdir.loopdir.loopdir.loopdir.good": true,
		"loopdir.loopdir.loopdir.loopdir.loopdir.loopdir.loopdir.loopdir.loopdir.loopdir.nope": false,
	}
	for name, want := range cases {
		nohang.Run(t, name, func() {
			got, err := r.Resolve(context.Background(), name)
			require.NoError(t, err)
			assert.Equal(t, want, got, name)
		})
	}
}

// A directory too big to list is probed name by name, with the same
// answers.
func TestPythonResolverHugeDirectory(t *testing.T) {
	site := t.TempDir()
	for i := range 20 {
		rtestWrite(t, filepath.Join(site, fmt.Sprintf("mod%d.py", i)), "", 0o644)
	}
	rtestWrite(t, filepath.Join(site, "pkg", "__init__.py"), "", 0o644)
	rtestWrite(t, filepath.Join(site, "pkg", "sub.py"), "", 0o644)
	defer func(n int) { pyMaxListing = n }(pyMaxListing)
	pyMaxListing = 5

	r := rtestPyResolver(site)
	for name, want := range map[string]bool{"mod0": true, "mod19": true, "mod20": false, "pkg": true, "pkg.sub": true, "pkg.nope": false} {
		got, err := r.Resolve(context.Background(), name)
		require.NoError(t, err)
		assert.Equal(t, want, got, name)
	}
	l, _, err := r.listDir(site)
	require.NoError(t, err)
	assert.True(t, l.partial)
	assert.Nil(t, l.names, "nothing of a partial listing is kept")
}

// An archive whose index is over the cap is no archive, and a sparse
// 100 MB "archive" is read only at its end.
func TestPythonResolverZipBounds(t *testing.T) {
	h := newRtestHostile(t)
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for i := range 200 {
		_, err := zw.Create(fmt.Sprintf("zmod%d.py", i))
		require.NoError(t, err)
	}
	require.NoError(t, zw.Close())
	archive := filepath.Join(h.dir, "many.zip")
	require.NoError(t, os.WriteFile(archive, buf.Bytes(), 0o644))

	r := rtestPyResolver(h.big, archive)
	nohang.Run(t, "zip", func() {
		got, err := r.Resolve(context.Background(), "zmod199")
		require.NoError(t, err)
		assert.True(t, got)
	})

	defer func(n int) { pyMaxZipIndex = n }(pyMaxZipIndex)
	pyMaxZipIndex = 1024 // the index above is ~10 KB
	r = rtestPyResolver(archive)
	got, err := r.Resolve(context.Background(), "zmod0")
	require.NoError(t, err)
	assert.False(t, got)
}

func TestPythonResolverCacheIsBounded(t *testing.T) {
	root := t.TempDir()
	var dirs []string
	for i := range 10 {
		d := filepath.Join(root, fmt.Sprint(i))
		rtestWrite(t, filepath.Join(d, "x.py"), "", 0o644)
		dirs = append(dirs, d)
	}
	defer func(n int) { pyMaxCached = n }(pyMaxCached)
	pyMaxCached = 4
	r := rtestPyResolver(dirs...)
	got, err := r.Resolve(context.Background(), "nope")
	require.NoError(t, err)
	assert.False(t, got)
	n := 0
	r.dirs.Range(func(any, any) bool { n++; return true })
	assert.Equal(t, 4, n)
	assert.Equal(t, int32(4), r.cached.Load())
}
