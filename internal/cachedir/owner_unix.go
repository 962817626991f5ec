//go:build unix

package cachedir

import (
	"io/fs"
	"os"
	"syscall"
)

// OwnedByUs reports whether fi belongs to the effective user.
func OwnedByUs(fi fs.FileInfo) bool {
	sys, ok := fi.Sys().(*syscall.Stat_t)
	return ok && int(sys.Uid) == os.Geteuid()
}
