//go:build !linux

package safefile

import (
	"os"
	"syscall"
)

// openBeneath keeps rel beneath root with os.Root, which follows only
// links that stay beneath it; the file itself must not be a link.
func openBeneath(root, rel, path string) (*os.File, error) {
	r, err := os.OpenRoot(root)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	fi, err := r.Lstat(rel)
	switch {
	case err != nil:
		return nil, err
	case fi.Mode()&os.ModeSymlink != 0:
		return nil, linkError(path)
	case !fi.Mode().IsRegular():
		return nil, notRegular(path, fi)
	}
	return r.OpenFile(rel, os.O_RDONLY|syscall.O_NONBLOCK|syscall.O_NOCTTY, 0)
}
