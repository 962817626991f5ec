//go:build unix

package host

import "syscall"

// descriptorLimit is the process's RLIMIT_NOFILE soft limit now.
func descriptorLimit() uint64 {
	var lim syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
		return defaultDescriptorLimit
	}
	return uint64(lim.Cur)
}
