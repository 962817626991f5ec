package mcpgw

import "syscall"

// ProtectProcess makes this process undumpable (prctl PR_SET_DUMPABLE 0):
// the kernel then lets no process of the same user read its
// /proc/PID/environ, mem, maps or fd, nor attach to it with ptrace; only
// a process with CAP_SYS_PTRACE (root, in the usual setup) still can. A
// stdio upstream runs as gate's user, as its child: without this it reads
// every variable gate was started with from /proc/<gate>/environ,
// whatever env and pass_env give it. gatectl calls it first thing; a Go
// program that embeds the gateway and runs stdio upstreams should call it
// early in main, before it holds secrets. It also turns off core dumps of
// the process, and a debugger can no longer attach to it without
// privileges. The commands it starts are dumpable again (execve resets
// the flag): it protects this process, not them.
func ProtectProcess() error {
	if _, _, errno := syscall.RawSyscall(syscall.SYS_PRCTL, syscall.PR_SET_DUMPABLE, 0, 0); errno != 0 {
		return errno
	}
	return nil
}
