//go:build unix

package manifest

import (
	"fmt"
	"os"
	"runtime"
	"syscall"
)

// executableIdentity describes the running program by its path, device,
// inode, size and modification time: a rebuilt or reinstalled gate is a
// new file (go build and go install write a new one), so it never reads
// what an older build cached. On Linux the file at the path must also be
// the one running (/proc/self/exe): a program replaced while it runs
// would otherwise write entries under its successor's identity.
func executableIdentity() (string, bool) {
	exe, err := os.Executable()
	if err != nil {
		return "", false
	}
	fi, err := os.Stat(exe)
	if err != nil || !fi.Mode().IsRegular() {
		return "", false
	}
	sys, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return "", false
	}
	if runtime.GOOS == "linux" {
		running, err := os.Stat("/proc/self/exe")
		if err != nil || !os.SameFile(fi, running) {
			return "", false
		}
	}
	return fmt.Sprintf("%s\x00%d\x00%d\x00%d\x00%d", exe, uint64(sys.Dev), uint64(sys.Ino), fi.Size(), fi.ModTime().UnixNano()), true
}
