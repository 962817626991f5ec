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

	"github.com/gate-dev/gate/internal/host"
	"github.com/gate-dev/gate/internal/threadtime"
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
	// No default on-disk cache: a test of compiling (its timeout, its
	// observer, its cost) must compile, not load what an earlier run of
	// the suite left in the user's cache. The cache's own tests set it.
	os.Setenv(cacheDirEnv, "")
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
// the machine imposed meanwhile: the canary's, or the longest any thread
// of this process waited runnable, whichever is larger. The canary
// sleeps, and the kernel favours waking sleepers, so it sees little of
// what a busy thread loses to busy loops; a run whose guest thread, timer
// or garbage collector waited on a runqueue was late by that much.
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
	waits := threadtime.ProcessWaits()
	return func() time.Duration {
		ours := waits.MaxSince()
		stdin.Close()
		require.True(t, out.Scan(), "the scheduling canary did not report")
		ns, err := strconv.ParseInt(strings.TrimSpace(out.Text()), 10, 64)
		require.NoError(t, err)
		require.NoError(t, cmd.Wait())
		return max(time.Duration(ns), ours)
	}
}

// assertAnsweredInTime checks that a run answered within its budget plus
// slack plus whatever delay the machine imposed on everyone meanwhile.
func assertAnsweredInTime(t testing.TB, took, budget, noise time.Duration, msgAndArgs ...any) {
	t.Helper()
	require.LessOrEqual(t, took, budget+slack+noise,
		append([]any{"answered %v after a %v budget (scheduling noise %v)", took, budget, noise}, msgAndArgs...)...)
}

// runTimed runs p once and checks the engine's bound in ways that a
// loaded machine cannot fool:
//
//   - the thread the run executed on used at most the budget plus slack of
//     user CPU: a guest that escaped its budget keeps running its own
//     instructions, loaded machine or not;
//   - the kernel's work on the run's behalf is bounded by the memory cap,
//     not by time: the page faults it served are at most the cap's 4 KiB
//     pages (plus the host's own few). Supplying a fresh page is the one
//     piece of a guest's work no metering check can split (see
//     internal/linmem), and its price is the machine's: 2 µs here, 17 µs the
//     first time a Firecracker VM's memory is touched (the host backs it
//     lazily), so all of a 32 MiB memory took 140 ms of system time on a
//     fresh CI machine;
//   - the answer came within the budget plus slack plus what the machine
//     took away meanwhile: the scheduling delay schedNoise saw, or the
//     starvation the host's clock summed where more (a wait is given
//     that time back), plus the system time the run's thread spent
//     serving its faults.
//
// A first run also waits for the warm-up, which is bounded too: the whole
// call may take warmupBudget more, plus the time the machine kept the
// warm-up off the CPU (which its budget does not count: see Probe.Run),
// at most all the process's threads' runqueue waits together.
func runTimed(t *testing.T, p *Probe) Result {
	t.Helper()
	goruntime.LockOSThread() // the run executes on the calling goroutine
	defer goruntime.UnlockOSThread()
	stop := schedNoise(t)
	waits := threadtime.ProcessWaits()
	start := time.Now()
	starvedAt := host.Starved()
	before := threadUsage(t)
	res := p.Run(context.Background())
	used := threadUsage(t).Since(before)
	took := time.Since(start)
	waited := waits.TotalSince()
	noise := stop()
	// The warm-up runs on another thread; this one only waits for it.
	require.LessOrEqual(t, used.User, p.Budget()+slack,
		"the run used %v of user CPU: more than its budget allows (%v, answered after %v; %v)", used.User, res.Outcome, res.Elapsed, used)
	pages := int64(p.engine().cfg.memoryPages()) * (pageSize / 4096)
	require.LessOrEqual(t, used.Faults, pages+faultSlack,
		"the kernel served more page faults than the memory cap holds pages (%v)", used)
	// A measured run's waits are given back the time the process was
	// starved meanwhile, as the host's starvation clock summed it (up to
	// the late limit), so what the machine took is that sum where it is
	// more than the worst single delay.
	machine := max(noise, host.Starved()-starvedAt) + used.System
	assertAnsweredInTime(t, res.Elapsed, p.Budget(), machine, used)
	assertAnsweredInTime(t, took, warmupBudget+p.Budget(), max(noise, waited)+used.System, "counting the warm-up it waited for", used)
	return res
}

// faultSlack is how many page faults a run may cause beyond its guest's
// memory: the host's own stack and heap growth on the run's path.
const faultSlack = 512

// threadUsage reads the calling thread's usage; the caller has locked its
// goroutine to the thread.
func threadUsage(t *testing.T) threadtime.Usage {
	t.Helper()
	u, err := threadtime.Thread()
	require.NoError(t, err)
	return u
}
