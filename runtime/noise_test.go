package runtime

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// The deadline tests compare how late a probe answers with how late the
// machine itself lets anyone run. On a shared 2-core machine (CI, a laptop
// compiling in the background) the kernel can keep any thread off the CPU
// for tens or hundreds of milliseconds; that is not the engine's overshoot,
// and a test that charged it to the engine would fail at random. A
// separate process, so that a runaway guest in this one cannot slow it
// down, sleeps 1 ms at a time and reports the worst lateness it saw.

const canaryEnv = "GATE_TEST_SCHED_CANARY"

func TestMain(m *testing.M) {
	if os.Getenv(canaryEnv) != "" {
		canary()
		return
	}
	os.Exit(m.Run())
}

// canary sleeps 1 ms at a time until its stdin closes, then prints the
// worst lateness in nanoseconds.
func canary() {
	done := make(chan struct{})
	go func() {
		io.Copy(io.Discard, os.Stdin)
		close(done)
	}()
	fmt.Println("ready")
	var worst time.Duration
	for {
		select {
		case <-done:
			fmt.Println(int64(worst))
			return
		default:
		}
		t0 := time.Now()
		time.Sleep(time.Millisecond)
		if late := time.Since(t0) - time.Millisecond; late > worst {
			worst = late
		}
	}
}

// schedNoise starts the canary; stop returns the worst scheduling delay
// it saw meanwhile.
func schedNoise(t testing.TB) (stop func() time.Duration) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), canaryEnv+"=1")
	stdin, err := cmd.StdinPipe()
	require.NoError(t, err)
	stdout, err := cmd.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	out := bufio.NewScanner(stdout)
	require.True(t, out.Scan(), "the scheduling canary did not start")
	require.Equal(t, "ready", out.Text())
	return func() time.Duration {
		stdin.Close()
		require.True(t, out.Scan(), "the scheduling canary did not report")
		ns, err := strconv.ParseInt(strings.TrimSpace(out.Text()), 10, 64)
		require.NoError(t, err)
		require.NoError(t, cmd.Wait())
		return time.Duration(ns)
	}
}

// assertAnsweredInTime checks that a run answered within its budget plus
// slack plus whatever delay the machine imposed on everyone meanwhile.
func assertAnsweredInTime(t testing.TB, took, budget, noise time.Duration, msgAndArgs ...any) {
	t.Helper()
	require.LessOrEqual(t, took, budget+slack+noise,
		append([]any{"answered %v after a %v budget (scheduling noise %v)", took, budget, noise}, msgAndArgs...)...)
}
