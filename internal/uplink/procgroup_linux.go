package uplink

import (
	"os/exec"
	"syscall"
)

// detach puts an upstream command in a process group of its own: a
// terminal's Ctrl-C reaches gate, which then closes it in order, rather
// than every upstream at once; and gate can signal the group, the
// command's own children with it, which a signal to the command alone
// would leave running. The kernel kills the command if gate dies without
// closing it (PR_SET_PDEATHSIG); only the command: its own children
// outlive a gate killed with SIGKILL, which nothing in gate can prevent.
// Every other end of gate closes the whole group.
func detach(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}
