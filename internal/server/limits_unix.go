//go:build unix

package server

import "syscall"

// openFileLimit returns the soft RLIMIT_NOFILE (Go raises it to the hard
// limit at start-up, so it is usually that).
func openFileLimit() (uint64, bool) {
	var rl syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &rl); err != nil || rl.Cur == ^uint64(0) /* RLIM_INFINITY */ {
		return 0, false
	}
	return rl.Cur, true
}
