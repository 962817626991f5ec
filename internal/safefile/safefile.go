// Package safefile opens and reads the files a user or a probe names
// (probe modules, the files the import resolvers look at) the one way that
// is safe whatever the path turns out to be: a FIFO (a plain open blocks
// until a writer comes, forever), a device such as /dev/zero (a plain read
// never ends), a directory, or a file far larger than any real one. It
// opens regular files only, without blocking, checks the opened file too
// (the path can be swapped between a stat and an open), and reads at most
// a cap. Write is the one way to write such a file: whole or not at all,
// never through a symbolic link.
package safefile

import (
	"errors"
	"fmt"
	"io"
	"os"
	"syscall"
)

// ErrNotRegular is wrapped by the error for a path that is not a regular
// file (after symlinks): a directory, a FIFO, a socket or a device.
var ErrNotRegular = errors.New("not a regular file")

// ErrTooLarge is wrapped by the error for a file over the cap.
var ErrTooLarge = errors.New("file too large")

// Open opens the regular file at path (after symlinks) for reading, and
// returns it with its FileInfo. Anything else is refused before it is
// opened, so that no device sees an open(2) (some act on one), and again
// through the opened descriptor, because the path may be swapped between
// the two looks.
func Open(path string) (*os.File, os.FileInfo, error) {
	fi, err := os.Stat(path)
	if err != nil {
		// The caller asked to open the file; say so ("open x: no such
		// file"), not which call found out.
		var pe *os.PathError
		if errors.As(err, &pe) {
			pe.Op = "open"
		}
		return nil, nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, nil, notRegular(path, fi)
	}
	// O_NONBLOCK: opening a FIFO for reading blocks until a writer opens
	// it; a regular file ignores the flag. O_NOCTTY: a terminal swapped in
	// must not become ours.
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK|syscall.O_NOCTTY, 0)
	if err != nil {
		return nil, nil, err
	}
	if fi, err = f.Stat(); err != nil || !fi.Mode().IsRegular() {
		f.Close()
		if err == nil {
			err = notRegular(path, fi)
		}
		return nil, nil, err
	}
	return f, fi, nil
}

// Read returns the contents of the regular file at path (see Open),
// refusing one of more than max bytes. The error names the path and says
// why.
func Read(path string, max int64) ([]byte, error) {
	f, fi, err := Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readCapped(f, fi, path, max)
}

// readCapped reads the opened file f, of FileInfo fi, refusing more than
// max bytes.
func readCapped(f *os.File, fi os.FileInfo, path string, max int64) ([]byte, error) {
	if fi.Size() > max {
		return nil, &os.PathError{Op: "read", Path: path, Err: fmt.Errorf("%w: %d bytes, over the limit of %d", ErrTooLarge, fi.Size(), max)}
	}
	// The size can change under us (an editor writing it): read one byte
	// past the cap to notice, never more. The buffer starts at the size
	// fstat gave (and one byte to see the end): growing it by doubling
	// from 512 bytes would copy a large manifest over and over.
	b := make([]byte, 0, fi.Size()+1)
	for int64(len(b)) <= max {
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)] // let append pick the growth
		}
		n, err := f.Read(b[len(b):min(int64(cap(b)), max+1)])
		b = b[:len(b)+n]
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, &os.PathError{Op: "read", Path: path, Err: err}
		}
	}
	if int64(len(b)) > max {
		return nil, &os.PathError{Op: "read", Path: path, Err: fmt.Errorf("%w: it grew past the limit of %d bytes while being read", ErrTooLarge, max)}
	}
	return b, nil
}

func notRegular(path string, fi os.FileInfo) error {
	return &os.PathError{Op: "open", Path: path, Err: fmt.Errorf("%w (%s)", ErrNotRegular, kind(fi.Mode()))}
}

func kind(m os.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&os.ModeNamedPipe != 0:
		return "a FIFO"
	case m&os.ModeSocket != 0:
		return "a socket"
	case m&os.ModeCharDevice != 0:
		return "a character device"
	case m&os.ModeDevice != 0:
		return "a block device"
	}
	return "not a regular file"
}
