//go:build unix && !linux

package uplink

import (
	"os/exec"
	"syscall"
)

// detach puts an upstream command in a process group of its own (see the
// Linux version); there is no parent-death signal here, so an upstream
// outlives a gate that dies without closing it.
func detach(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}
