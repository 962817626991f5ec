package uplink

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// process is a stdio upstream's command, started in a process group of its
// own over pipes gate made and holds the only parent ends of: gate waits
// for the command, never for a pipe (a child of the command may hold its
// stdout or stderr open for ever), and stopping it stops the group.
type process struct {
	cmd                   *exec.Cmd
	stdin, stdout, stderr *os.File // gate's ends

	exited     chan struct{} // closed once the command has been waited for
	forwarded  chan struct{} // closed once its stderr is read to the end
	signalled  atomic.Bool   // gate signalled it before it ended
	stopOnce   sync.Once
	stderrLine StderrLog
}

// groupPoll is how often stop looks whether a group it signalled is gone.
const groupPoll = 10 * time.Millisecond

// startProcess starts cmd with its stdin, stdout and stderr on new pipes;
// what it writes on stderr goes to stderrLog, a line at a time, read
// whether or not the log keeps up.
func startProcess(cmd *exec.Cmd, stderrLog StderrLog) (*process, error) {
	var parent, child [3]*os.File
	closeAll := func(fs []*os.File) {
		for _, f := range fs {
			if f != nil {
				_ = f.Close()
			}
		}
	}
	for i := range parent {
		r, w, err := os.Pipe()
		if err != nil {
			closeAll(parent[:])
			closeAll(child[:])
			return nil, err
		}
		if i == 0 { // stdin: the command reads
			child[i], parent[i] = r, w
		} else {
			parent[i], child[i] = r, w
		}
	}
	cmd.Stdin, cmd.Stdout, cmd.Stderr = child[0], child[1], child[2]
	detach(cmd)
	err := cmd.Start()
	closeAll(child[:]) // the command has its own copies
	if err != nil {
		closeAll(parent[:])
		return nil, err
	}
	p := &process{
		cmd: cmd, stdin: parent[0], stdout: parent[1], stderr: parent[2],
		exited: make(chan struct{}), forwarded: make(chan struct{}), stderrLine: stderrLog,
	}
	go func() {
		defer close(p.exited)
		_ = cmd.Wait()
	}()
	go func() {
		defer close(p.forwarded)
		_, _ = io.Copy(stderrLog, p.stderr)
		stderrLog.Flush()
	}()
	return p, nil
}

// waitExit reports whether the command ends within d.
func (p *process) waitExit(d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-p.exited:
		return true
	case <-t.C:
		return false
	}
}

// hasExited reports whether the command has ended and been waited for.
func (p *process) hasExited() bool {
	select {
	case <-p.exited:
		return true
	default:
		return false
	}
}

// signal sends sig to the command's process group. A command that had
// ended on its own before (waited for, or not yet: a handshake fails on
// its closed pipe a moment before it is) is not one that gate ended.
func (p *process) signal(sig syscall.Signal) {
	if !p.hasExited() && !exitedUnwaited(p.cmd.Process.Pid) {
		p.signalled.Store(true)
	}
	signalGroup(p.cmd.Process.Pid, sig)
}

// stop ends the command as MCP asks a client to (its stdin closed, then
// SIGTERM, then SIGKILL), each step to the whole group and given grace,
// and then whatever of the group outlived the command: at most twice
// grace in all, and grace more for a command the kernel keeps from
// dying. It closes gate's ends of the pipes, so that nothing of
// gate waits on a pipe the group's survivors hold. It may be called again
// and from several goroutines; each call returns once the first is done.
func (p *process) stop(grace time.Duration) {
	p.stopOnce.Do(func() {
		deadline := time.Now().Add(2 * grace)
		_ = p.stdin.Close()
		if !p.waitExit(grace) {
			p.signal(syscall.SIGTERM)
			if !p.waitExit(time.Until(deadline)) {
				p.signal(syscall.SIGKILL)
			}
		}
		p.endGroup(deadline)
		// After SIGKILL the command ends at once, unless the kernel holds
		// it (an uninterruptible wait): gate does not wait on it longer.
		p.waitExit(grace)
		_ = p.stdout.Close()
		_ = p.stderr.Close()
		<-p.forwarded // its read ends with the close
	})
}

// endGroup ends the processes of the command's group that outlived it:
// SIGTERM, then SIGKILL at the deadline if some are still there.
func (p *process) endGroup(deadline time.Time) {
	leader := p.cmd.Process.Pid
	if !groupAlive(leader) {
		return
	}
	signalGroup(leader, syscall.SIGTERM)
	t := time.NewTicker(groupPoll)
	defer t.Stop()
	for time.Now().Before(deadline) {
		<-t.C
		if !groupAlive(leader) {
			return
		}
	}
	signalGroup(leader, syscall.SIGKILL)
}

// kill ends the group at once (SIGKILL) and stops reading it.
func (p *process) kill() {
	p.signal(syscall.SIGKILL)
	_ = p.stdin.Close()
	_ = p.stdout.Close()
}

// Ending is how a stdio upstream's command ended on its own.
type Ending struct {
	// How says it: "exited with status 3", "was killed by signal 9
	// (killed)"; "" while it runs, or when gate ended it.
	How string
	// Status is its exit status when How is not "": -1 when a signal
	// ended it.
	Status int
	// LastLine is its last line on stderr, as gate's log has it.
	LastLine string
}

// ended says how the command ended on its own: the zero Ending while it
// runs, or when gate ended it.
func (p *process) ended() Ending {
	if !p.hasExited() || p.signalled.Load() {
		return Ending{}
	}
	// What it wrote just before it ended may still be in the pipe: read
	// to the end, or for as long as a child keeps the pipe open, briefly.
	t := time.NewTimer(stderrSettle)
	select {
	case <-p.forwarded:
	case <-t.C:
	}
	t.Stop()
	st := p.cmd.ProcessState
	e := Ending{How: "ended", Status: st.ExitCode(), LastLine: p.stderrLine.LastLine()}
	if ws, ok := st.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		e.How = fmt.Sprintf("was killed by signal %d (%s)", int(ws.Signal()), ws.Signal())
	} else if st.Exited() {
		e.How = fmt.Sprintf("exited with status %d", st.ExitCode())
	}
	return e
}

// stderrSettle bounds how long ended waits for the last of an ended
// command's stderr.
const stderrSettle = 200 * time.Millisecond

// StartFailure is a command that could not be started, and why.
type StartFailure struct{ why string }

func (e *StartFailure) Error() string { return e.why }

// startError says why a command could not be started.
func startError(argv0 string, err error) error {
	var ee *exec.Error
	why := fmt.Sprintf("the command %q cannot be started: %v", argv0, err)
	switch {
	case errors.As(err, &ee) && errors.Is(ee.Err, exec.ErrNotFound):
		why = fmt.Sprintf("the command %q is not found on gate's PATH", argv0)
	case errors.Is(err, fs.ErrNotExist):
		why = fmt.Sprintf("the command %q does not exist", argv0)
	case errors.Is(err, fs.ErrPermission):
		why = fmt.Sprintf("the command %q cannot be run: permission denied", argv0)
	}
	return &StartFailure{why}
}
