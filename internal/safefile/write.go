package safefile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
)

// Write puts b in a file at path, all at once: b goes to a temporary file
// beside it (".tmp-*"), which is given perm exactly (the umask does not
// apply), synced, and then moved into place. A reader, or a crash, sees
// the old file or the whole new one, never half of one.
//
// With replace false, nothing may be at path yet: not a file, not a
// directory, not even a dangling symbolic link; otherwise the error wraps
// fs.ErrExist and nothing was written. The temporary file is hard-linked
// to path, which the kernel refuses when the name is taken, so a file
// made at path meanwhile is never overwritten either (on a file system
// without hard links, path is looked at first and renamed to).
//
// With replace true, whatever is at path is replaced by rename(2): a
// symbolic link there is replaced, not followed, so Write never writes
// through a link to somewhere else.
func Write(path string, b []byte, perm fs.FileMode, replace bool) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), ".tmp-*") // 0600, O_EXCL
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // after a link, the name left over; after a rename, nothing
	_, err = tmp.Write(b)
	if err == nil {
		err = tmp.Chmod(perm)
	}
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	if replace {
		return os.Rename(tmp.Name(), path)
	}
	err = os.Link(tmp.Name(), path)
	if err == nil || errors.Is(err, fs.ErrExist) {
		return existError(path, err)
	}
	// No hard links here (EPERM on vfat, ENOTSUP elsewhere): look, then rename.
	switch _, lerr := os.Lstat(path); {
	case lerr == nil:
		return existError(path, fs.ErrExist)
	case !errors.Is(lerr, fs.ErrNotExist):
		return lerr
	}
	return os.Rename(tmp.Name(), path)
}

// existError is the error for a name that is taken, naming path alone
// (a link's error names the temporary file too); other errors pass.
func existError(path string, err error) error {
	if err == nil {
		return nil
	}
	if errors.Is(err, fs.ErrExist) {
		return &os.PathError{Op: "write", Path: path, Err: fs.ErrExist}
	}
	return err
}
