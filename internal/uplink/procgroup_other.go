//go:build !unix

package uplink

import (
	"os"
	"os/exec"
	"syscall"
)

// detach does nothing where there are no process groups.
func detach(*exec.Cmd) {}

// signalGroup kills the command itself: there is no group to signal.
func signalGroup(leader int, _ syscall.Signal) {
	if p, err := os.FindProcess(leader); err == nil {
		_ = p.Kill()
	}
}

// groupAlive is false: only the command itself is known, and waited for.
func groupAlive(int) bool { return false }
