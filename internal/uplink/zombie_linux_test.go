package uplink

import (
	"os/exec"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// zombieWait bounds the wait for a command that exits at once to be seen
// as ended: only a hang reaches it.
const zombieWait = time.Minute

type noStderr struct{}

func (noStderr) Write(p []byte) (int, error) { return len(p), nil }
func (noStderr) Flush()                      {}
func (noStderr) LastLine() string            { return "" }

// TestExitedUnwaited: a command that runs is not ended; one that has
// exited and is not yet waited for is; once waited for, it is gone.
func TestExitedUnwaited(t *testing.T) {
	cmd := exec.Command("sh", "-c", "read x")
	stdin, err := cmd.StdinPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	pid := cmd.Process.Pid
	assert.False(t, exitedUnwaited(pid), "it runs, reading its stdin")
	require.NoError(t, stdin.Close())
	require.Eventually(t, func() bool { return exitedUnwaited(pid) }, zombieWait, time.Millisecond)
	require.Error(t, cmd.Wait(), "read at the end of stdin fails")
	assert.False(t, exitedUnwaited(pid), "waited for")
}

// TestSignalAfterItsOwnEnd: a command that exited on its own, before
// gate signalled it but before it was waited for (a handshake fails on
// its closed pipe first, and the session's close signals it), ended on
// its own: how it ended (status 127, a shell's "not found") is its
// Ending, not the nothing of a command gate stopped.
func TestSignalAfterItsOwnEnd(t *testing.T) {
	cmd := exec.Command("sh", "-c", "exit 127")
	detach(cmd)
	require.NoError(t, cmd.Start())
	forwarded := make(chan struct{})
	close(forwarded)
	p := &process{cmd: cmd, exited: make(chan struct{}), forwarded: forwarded, stderrLine: noStderr{}}
	require.Eventually(t, func() bool { return exitedUnwaited(cmd.Process.Pid) }, zombieWait, time.Millisecond)
	p.signal(syscall.SIGTERM)
	_ = cmd.Wait()
	close(p.exited)
	e := p.ended()
	assert.Equal(t, "exited with status 127", e.How)
	assert.Equal(t, 127, e.Status)

	// One that gate signalled while it ran is gate's to end.
	cmd = exec.Command("sh", "-c", "read x")
	detach(cmd)
	stdin, err := cmd.StdinPipe()
	require.NoError(t, err)
	defer stdin.Close()
	require.NoError(t, cmd.Start())
	p = &process{cmd: cmd, exited: make(chan struct{}), forwarded: forwarded, stderrLine: noStderr{}}
	p.signal(syscall.SIGKILL)
	_ = cmd.Wait()
	close(p.exited)
	assert.Equal(t, Ending{}, p.ended())
}
