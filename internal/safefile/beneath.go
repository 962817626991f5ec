package safefile

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// ErrLink is wrapped by the error for a path beneath a root that holds a
// symbolic link (OpenBeneath follows none).
var ErrLink = errors.New("a symbolic link on the way, which is not followed")

// ErrOutside is wrapped by the error for a relative path that leads out of
// its root ("..", or an absolute path).
var ErrOutside = errors.New("the path leads out of")

// OpenBeneath opens the regular file at rel, a relative path, under the
// directory root, following no symbolic link in rel: neither a folder
// nor the file itself may be a link, so that what is opened is the file
// that is there below root now, whatever was swapped in since someone
// looked. The root itself is opened by its path (links in it are
// followed: it is the path a user configured). As Open, it opens regular
// files only, without blocking, and checks the opened descriptor.
//
// On Linux it is one openat2(2) with RESOLVE_BENEATH and
// RESOLVE_NO_SYMLINKS, which the kernel resolves atomically; where openat2
// is missing (Linux before 5.6, or a sandbox refusing it) each folder is
// opened from the last with O_NOFOLLOW. Elsewhere it is os.Root, which
// keeps the path beneath root but follows links that stay there.
func OpenBeneath(root, rel string) (*os.File, os.FileInfo, error) {
	path := filepath.Join(root, rel)
	if filepath.IsAbs(rel) || !filepath.IsLocal(rel) {
		return nil, nil, outsideError(root, rel)
	}
	f, err := openBeneath(root, filepath.Clean(rel), path)
	if err != nil {
		return nil, nil, err
	}
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() {
		f.Close()
		if err == nil {
			err = notRegular(path, fi)
		}
		return nil, nil, err
	}
	return f, fi, nil
}

// ReadBeneath returns the contents of the regular file at rel under root
// (see OpenBeneath), refusing one of more than max bytes.
func ReadBeneath(root, rel string, max int64) ([]byte, error) {
	f, fi, err := OpenBeneath(root, rel)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readCapped(f, fi, filepath.Join(root, rel), max)
}

// components splits a clean relative path into its names.
func components(rel string) []string {
	return strings.Split(filepath.ToSlash(rel), "/")
}

func outsideError(root, rel string) error {
	return &os.PathError{Op: "open", Path: rel, Err: fmt.Errorf("%w %s", ErrOutside, root)}
}

func linkError(path string) error {
	return &os.PathError{Op: "open", Path: path, Err: fmt.Errorf("%w", ErrLink)}
}
