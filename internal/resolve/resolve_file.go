package resolve

import (
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
)

// The resolvers read files that a probe can point them at: a "lib:" path,
// an ld.so.conf include, a directory or archive on Python's path. Any of
// those may be a FIFO (whose open(2) waits for a writer that never comes),
// a device (/dev/zero never ends), a symlink loop, a huge file or one
// being written. Files are opened and read through internal/safefile
// (regular files only, without blocking, up to a cap); directories here,
// with O_DIRECTORY, which fails rather than opens anything else, up to a
// cap on entries.

// readDirNames returns up to max entries of the directory dir, and whether
// that was all of them.
func readDirNames(dir string, max int) ([]fs.DirEntry, bool, error) {
	f, err := os.OpenFile(dir, os.O_RDONLY|syscall.O_DIRECTORY|syscall.O_NONBLOCK|syscall.O_NOCTTY, 0)
	if err != nil {
		return nil, false, err
	}
	defer f.Close()
	var out []fs.DirEntry
	for len(out) < max {
		ents, err := f.ReadDir(min(256, max-len(out)))
		out = append(out, ents...)
		if err == io.EOF {
			return out, true, nil
		}
		if err != nil {
			return nil, false, err
		}
	}
	// Exactly max entries may still be all of them.
	more, err := f.ReadDir(1)
	return out, len(more) == 0 && err == io.EOF, nil
}

// boundedGlob is filepath.Glob that reads at most *budget directory
// entries in all, across calls that share the budget. What it cannot read
// within the budget it does not match.
func boundedGlob(pattern string, budget *int) []string {
	if !strings.ContainsAny(pattern, `*?[\`) {
		if _, err := os.Lstat(pattern); err != nil {
			return nil
		}
		return []string{pattern}
	}
	dir, file := filepath.Split(pattern)
	dir = filepath.Clean(dir)
	dirs := []string{dir}
	if strings.ContainsAny(dir, `*?[\`) {
		dirs = boundedGlob(dir, budget)
	}
	var out []string
	for _, d := range dirs {
		if *budget <= 0 {
			break
		}
		ents, _, err := readDirNames(d, *budget)
		if err != nil {
			continue
		}
		*budget -= len(ents)
		var names []string
		for _, e := range ents {
			if ok, err := filepath.Match(file, e.Name()); ok && err == nil {
				names = append(names, e.Name())
			}
		}
		sort.Strings(names)
		for _, n := range names {
			out = append(out, filepath.Join(d, n))
		}
	}
	return out
}
