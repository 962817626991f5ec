package runtime

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	goruntime "runtime"
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

// runTimed runs p once and checks the engine's bound two ways that a
// loaded machine cannot fool:
//
//   - the thread the run executed on used at most the budget plus slack of
//     CPU: a guest that escaped its budget keeps using CPU, loaded machine
//     or not;
//   - the answer came within the budget plus slack plus what the machine
//     took away meanwhile: the canary's scheduling delay, or the time the
//     run's own thread spent off the CPU, whichever is larger. The canary
//     sleeps, and the kernel favours waking sleepers, so it sees little of
//     the share a busy thread loses to four busy loops: a page-touching
//     guest's last stretch before its check took 4-5 times as long then.
//
// A first run also waits for the warm-up, which is bounded too: the whole
// call may take WarmupBudget more.
func runTimed(t *testing.T, p *Probe) Result {
	t.Helper()
	goruntime.LockOSThread() // the run executes on the calling goroutine
	defer goruntime.UnlockOSThread()
	stop := schedNoise(t)
	start := time.Now()
	cpuBefore := threadCPU(t)
	res := p.Run(context.Background())
	cpu := threadCPU(t) - cpuBefore
	took := time.Since(start)
	noise := stop()
	// The warm-up runs on another thread; this one only waits for it.
	require.LessOrEqual(t, cpu, p.Budget()+slack,
		"the run used %v of CPU: more than its budget allows (%v, answered after %v)", cpu, res.Outcome, res.Elapsed)
	machine := max(noise, res.Elapsed-cpu)
	assertAnsweredInTime(t, res.Elapsed, p.Budget(), machine)
	assertAnsweredInTime(t, took, WarmupBudget+p.Budget(), machine, "counting the warm-up it waited for")
	return res
}
