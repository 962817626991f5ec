// Package cachedir keeps gate's own entries in a private directory inside
// the cache dir (Python's facts) so that a hostile file system cannot
// feed them back: the directory must be a real directory of this user
// that no one else may write to, an entry is read only if it is such a
// regular file itself (a symlink or FIFO planted at its name is never
// followed or opened), and an entry is replaced atomically, never written
// in place.
package cachedir

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/gate-dev/gate/internal/safefile"
)

// CheckDir accepts dir only if it is a real directory (not a symlink) of
// this user that no one else may write to: an entry decides what a probe
// is told, or which tools a model is offered, so it must be one we wrote.
func CheckDir(dir string) error {
	fi, err := os.Lstat(dir)
	if err != nil {
		return err
	}
	if !fi.IsDir() || fi.Mode().Perm()&0o022 != 0 || !OwnedByUs(fi) {
		return fmt.Errorf("%s: not a private directory of this user", dir)
	}
	return nil
}

// Read reads the entry at path if it is a regular file itself, of this
// user, writable by no one else and at most max bytes. The name is
// checked with Lstat and the file safefile opens must be the one Lstat
// saw, so a symlink swapped in between is caught too.
func Read(path string, max int64) ([]byte, error) {
	lfi, err := os.Lstat(path)
	if err != nil {
		return nil, err
	}
	if !lfi.Mode().IsRegular() || lfi.Mode().Perm()&0o022 != 0 || !OwnedByUs(lfi) {
		return nil, fmt.Errorf("%s: not a private regular file", path)
	}
	if lfi.Size() > max {
		return nil, fmt.Errorf("%s: %w", path, safefile.ErrTooLarge)
	}
	f, fi, err := safefile.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if !os.SameFile(lfi, fi) {
		return nil, fmt.Errorf("%s: replaced while being opened", path)
	}
	// Exactly the size seen, plus one byte to notice a file that grew.
	b := make([]byte, fi.Size()+1)
	n, err := io.ReadFull(f, b)
	switch err {
	case io.ErrUnexpectedEOF, io.EOF:
		return b[:n], nil
	case nil:
		return nil, fmt.Errorf("%s: grew while being read", path)
	}
	return nil, err
}

// Write replaces the entry at path, in dir, with b: written to a private
// temporary file beside it (".tmp-*", 0600), then renamed over it, so that
// a reader sees the old entry or the new one and never half of one, and a
// symlink at path is replaced rather than followed. dir is made (0700) if
// it does not exist, and must pass CheckDir if it does.
func Write(dir, path string, b []byte) error {
	if err := os.MkdirAll(filepath.Dir(dir), 0o700); err != nil {
		return err
	}
	if err := os.Mkdir(dir, 0o700); err != nil && !errors.Is(err, fs.ErrExist) {
		return err
	}
	if err := CheckDir(dir); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(dir, ".tmp-*") // 0600, O_EXCL
	if err != nil {
		return err
	}
	_, err = tmp.Write(b)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		os.Remove(tmp.Name())
		return err
	}
	return nil
}

// TempAge is how old a temporary file must be before Prune takes it for
// one a crashed writer left.
const TempAge = time.Hour

// Prune removes the oldest entries (the regular files whose names isEntry
// accepts, oldest written first) while there are more than max, down to
// three quarters of it so that pruning is rare, and temporary files left
// TempAge or more ago. Nothing else in dir is touched, and at most 16*max
// names are listed: the directory is ours, but need not stay small.
func Prune(dir string, max int, isEntry func(name string) bool) {
	f, err := os.Open(dir)
	if err != nil {
		return
	}
	defer f.Close()
	ents, err := f.ReadDir(16 * max)
	if err != nil && err != io.EOF {
		return
	}
	type aged struct {
		name  string
		mtime time.Time
	}
	var entries []aged
	for _, e := range ents {
		if !e.Type().IsRegular() {
			continue
		}
		fi, err := e.Info()
		if err != nil {
			continue
		}
		switch {
		case isEntry(e.Name()):
			entries = append(entries, aged{e.Name(), fi.ModTime()})
		case strings.HasPrefix(e.Name(), ".tmp-") && time.Since(fi.ModTime()) > TempAge:
			os.Remove(filepath.Join(dir, e.Name()))
		}
	}
	if len(entries) <= max {
		return
	}
	slices.SortFunc(entries, func(a, b aged) int { return a.mtime.Compare(b.mtime) })
	for _, e := range entries[:len(entries)-max*3/4] {
		os.Remove(filepath.Join(dir, e.name))
	}
}
