//go:build unix

package uplink

import (
	"errors"
	"syscall"
)

// signalGroup sends sig to the process group that leader made: every
// process in it, the leader too while it runs.
func signalGroup(leader int, sig syscall.Signal) {
	_ = syscall.Kill(-leader, sig)
}

// groupAlive reports whether some process of leader's group still runs
// (or has ended and not been reaped yet).
func groupAlive(leader int) bool {
	return !errors.Is(syscall.Kill(-leader, 0), syscall.ESRCH)
}
