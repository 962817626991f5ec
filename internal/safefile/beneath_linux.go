package safefile

import (
	"errors"
	"fmt"
	"os"
	"sync/atomic"

	"golang.org/x/sys/unix"
)

// openat2Missing is set once openat2 answered that it is not there (ENOSYS),
// or that a sandbox refuses it (EPERM): OpenBeneath then walks. Tests set
// it to cover the walk.
var openat2Missing atomic.Bool

const (
	pathFlags = unix.O_PATH | unix.O_CLOEXEC
	readFlags = unix.O_RDONLY | unix.O_NONBLOCK | unix.O_NOCTTY | unix.O_CLOEXEC
)

func openBeneath(root, rel, path string) (*os.File, error) {
	dir, err := unix.Open(root, unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, &os.PathError{Op: "open", Path: root, Err: err}
	}
	defer unix.Close(dir)
	if !openat2Missing.Load() {
		f, err := openat2(dir, rel, path)
		if !errors.Is(err, unix.ENOSYS) && !errors.Is(err, unix.EPERM) {
			return f, err
		}
		openat2Missing.Store(true)
	}
	return walkBeneath(dir, rel, path)
}

// openat2 resolves rel beneath dir in the kernel, refusing every link.
func openat2(dir int, rel, path string) (*os.File, error) {
	resolve := uint64(unix.RESOLVE_BENEATH | unix.RESOLVE_NO_SYMLINKS | unix.RESOLVE_NO_MAGICLINKS)
	open := func(flags int) (int, error) {
		for {
			fd, err := unix.Openat2(dir, rel, &unix.OpenHow{Flags: uint64(flags), Resolve: resolve})
			if err != unix.EINTR && err != unix.EAGAIN { // EAGAIN: a rename raced the lookup
				return fd, err
			}
		}
	}
	return openChecked(open, path)
}

// walkBeneath opens each folder of rel from the last, without following a
// link, then the file.
func walkBeneath(dir int, rel, path string) (*os.File, error) {
	names := components(rel)
	cur := dir
	defer func() {
		if cur != dir {
			unix.Close(cur)
		}
	}()
	for _, name := range names[:len(names)-1] {
		next, err := unix.Openat(cur, name, pathFlags|unix.O_NOFOLLOW|unix.O_DIRECTORY, 0)
		if err != nil {
			if isLink(cur, name) {
				return nil, linkError(path)
			}
			return nil, &os.PathError{Op: "open", Path: path, Err: err}
		}
		if cur != dir {
			unix.Close(cur)
		}
		cur = next
	}
	last := names[len(names)-1]
	return openChecked(func(flags int) (int, error) { return unix.Openat(cur, last, flags|unix.O_NOFOLLOW, 0) }, path)
}

// openChecked opens the file with open twice: first without opening it
// (O_PATH: no device driver sees an open, and a FIFO does not block), to
// see that it is a regular file and not a link, then for reading, making
// sure that it is the same file.
func openChecked(open func(flags int) (int, error), path string) (*os.File, error) {
	pfd, err := open(pathFlags)
	if err != nil {
		return nil, beneathError(path, err)
	}
	pf := os.NewFile(uintptr(pfd), path)
	defer pf.Close()
	want, err := pf.Stat()
	switch {
	case err != nil:
		return nil, err
	case want.Mode()&os.ModeSymlink != 0:
		return nil, linkError(path)
	case !want.Mode().IsRegular():
		return nil, notRegular(path, want)
	}
	fd, err := open(readFlags)
	if err != nil {
		return nil, beneathError(path, err)
	}
	f := os.NewFile(uintptr(fd), path)
	got, err := f.Stat()
	if err != nil || !os.SameFile(want, got) {
		f.Close()
		if err == nil {
			err = &os.PathError{Op: "open", Path: path, Err: errors.New("the file was replaced while it was opened")}
		}
		return nil, err
	}
	return f, nil
}

func beneathError(path string, err error) error {
	switch {
	case errors.Is(err, unix.ELOOP):
		return linkError(path)
	case errors.Is(err, unix.EXDEV): // a ".." that openat2 caught
		return &os.PathError{Op: "open", Path: path, Err: fmt.Errorf("%w its root", ErrOutside)}
	}
	return &os.PathError{Op: "open", Path: path, Err: err}
}

func isLink(dir int, name string) bool {
	var st unix.Stat_t
	return unix.Fstatat(dir, name, &st, unix.AT_SYMLINK_NOFOLLOW) == nil && st.Mode&unix.S_IFMT == unix.S_IFLNK
}
