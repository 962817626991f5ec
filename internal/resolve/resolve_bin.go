package resolve

import (
	"context"
	"github.com/gate-dev/gate/hostfuncs"
	"os"
	"path/filepath"
)

// NewBinResolver returns the resolver for "bin:" specs: whether a program
// is on pathEnv (a PATH value, split on os.PathListSeparator, which is read
// once here).
//
// A bare name is searched like exec.LookPath: the first PATH directory
// holding a regular file of that name with any execute bit wins; a
// directory or a non-executable file of that name is skipped and the search
// goes on, as the shell does. An absolute name checks that one file. A
// relative name with a slash is an error wrapping grants.ErrBadSpec.
//
// Empty and relative PATH entries are ignored, although a shell would take
// an empty entry as ".": the answer would otherwise depend on gate's own
// working directory, and exec.LookPath refuses such results too (ErrDot).
//
// Execute permission is judged from the mode bits, not from access(2) for
// the current user, so a 0700 file owned by someone else still counts.
func NewBinResolver(pathEnv string) hostfuncs.Resolver {
	var dirs []string
	seen := map[string]bool{}
	for _, d := range filepath.SplitList(pathEnv) {
		// A repeated entry cannot change the answer, only cost a stat.
		if d = filepath.Clean(d); filepath.IsAbs(d) && !seen[d] {
			seen[d] = true
			dirs = append(dirs, d)
		}
	}
	return &binResolver{dirs: dirs}
}

type binResolver struct {
	dirs []string // absolute PATH directories, in order
}

func (b *binResolver) Resolve(ctx context.Context, name string) (bool, error) {
	if err := ctx.Err(); err != nil {
		return false, err
	}
	if err := resolverCheckPathName("bin", name); err != nil {
		return false, err
	}
	_, ok, err := binLookPath(ctx, b.dirs, name)
	return ok, err
}

// binLookPath returns the path of the executable name, searching dirs
// unless name is absolute. It is shared with the Python resolver so that
// "python3" is found by the same rules as "bin:python3".
func binLookPath(ctx context.Context, dirs []string, name string) (string, bool, error) {
	if filepath.IsAbs(name) {
		return name, binIsExecutable(name), nil
	}
	for _, d := range dirs {
		if err := ctx.Err(); err != nil {
			return "", false, err
		}
		p := d + "/" + name
		if binIsExecutable(p) {
			return p, true, nil
		}
	}
	return "", false, nil
}

// binIsExecutable reports whether path (following symlinks) is a regular
// file with an execute bit. Stat errors mean "not here": the caller moves
// on to the next directory, as exec.LookPath does.
func binIsExecutable(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.Mode().IsRegular() && fi.Mode().Perm()&0o111 != 0
}
