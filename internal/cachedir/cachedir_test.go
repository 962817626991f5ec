package cachedir

import (
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gate-dev/gate/internal/nohang"
)

func TestWriteThenRead(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "parent", "entries")
	path := filepath.Join(dir, "e")
	require.NoError(t, Write(dir, path, []byte("one")))
	require.NoError(t, Write(dir, path, []byte("two")), "replaced")
	b, err := Read(path, 10)
	require.NoError(t, err)
	assert.Equal(t, "two", string(b))

	fi, err := os.Stat(dir)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o700), fi.Mode().Perm())
	fi, err = os.Stat(path)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o600), fi.Mode().Perm())
	left, err := filepath.Glob(filepath.Join(dir, ".tmp-*"))
	require.NoError(t, err)
	assert.Empty(t, left, "temporary files")

	_, err = Read(path, 2)
	assert.Error(t, err, "over the size given")
}

// TestRefusesWhatItDidNotWrite: a symlink, a FIFO, a file or directory
// others may write to is never read or written through.
func TestRefusesWhatItDidNotWrite(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "entries")
	require.NoError(t, os.Mkdir(dir, 0o700))
	target := filepath.Join(t.TempDir(), "target")
	require.NoError(t, os.WriteFile(target, []byte("planted"), 0o600))

	link := filepath.Join(dir, "link")
	require.NoError(t, os.Symlink(target, link))
	_, err := Read(link, 100)
	assert.Error(t, err, "a symlink is not followed")
	require.NoError(t, Write(dir, link, []byte("mine")))
	b, err := os.ReadFile(target)
	require.NoError(t, err)
	assert.Equal(t, "planted", string(b), "the symlink was replaced, not written through")

	fifo := filepath.Join(dir, "fifo")
	require.NoError(t, syscall.Mkfifo(fifo, 0o600))
	nohang.Run(t, "Read of a FIFO", func() {
		_, err := Read(fifo, 100)
		assert.Error(t, err)
	})

	open := filepath.Join(dir, "open")
	require.NoError(t, os.WriteFile(open, []byte("x"), 0o600))
	require.NoError(t, os.Chmod(open, 0o622))
	_, err = Read(open, 100)
	assert.Error(t, err, "an entry others may write to")

	require.NoError(t, os.Chmod(dir, 0o777))
	assert.Error(t, CheckDir(dir), "a directory others may write to")
	assert.Error(t, Write(dir, filepath.Join(dir, "e"), []byte("x")))
	require.NoError(t, os.Chmod(dir, 0o700))

	linkDir := filepath.Join(t.TempDir(), "linkdir")
	require.NoError(t, os.Symlink(dir, linkDir))
	assert.Error(t, CheckDir(linkDir), "a symlink to a directory")
}

func TestPrune(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "entries")
	require.NoError(t, os.Mkdir(dir, 0o700))
	old := time.Now().Add(-2 * TempAge)
	for i := range 12 {
		p := filepath.Join(dir, fmt.Sprint("e", i))
		require.NoError(t, os.WriteFile(p, nil, 0o600))
		when := time.Now().Add(time.Duration(i-20) * time.Minute)
		require.NoError(t, os.Chtimes(p, when, when))
	}
	stale := filepath.Join(dir, ".tmp-stale")
	fresh := filepath.Join(dir, ".tmp-fresh")
	other := filepath.Join(dir, "README")
	for _, p := range []string{stale, fresh, other} {
		require.NoError(t, os.WriteFile(p, nil, 0o600))
	}
	require.NoError(t, os.Chtimes(stale, old, old))
	require.NoError(t, os.Chtimes(other, old, old))

	Prune(dir, 8, func(name string) bool { return len(name) > 1 && name[0] == 'e' })
	var kept []string
	for i := range 12 {
		if _, err := os.Stat(filepath.Join(dir, fmt.Sprint("e", i))); err == nil {
			kept = append(kept, fmt.Sprint("e", i))
		}
	}
	assert.Equal(t, []string{"e6", "e7", "e8", "e9", "e10", "e11"}, kept, "the newest three quarters of 8")
	assert.NoFileExists(t, stale)
	assert.FileExists(t, fresh)
	assert.FileExists(t, other, "not an entry: left alone")
}
