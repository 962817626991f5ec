package gateway

import (
	"os/exec"
	"syscall"
)

// detach puts an upstream command in a process group of its own, so that a
// terminal's Ctrl-C reaches gate (which then closes it in order) rather
// than every upstream at once, and has the kernel kill it if gate dies
// without closing it.
func detach(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}
