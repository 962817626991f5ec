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
	"syscall"
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
//     took away meanwhile: the canary's scheduling delay, or the time the
//     run's thread spent runnable but off the CPU (its runqueue delay),
//     whichever is larger, plus the system time it spent serving the
//     run's faults. The canary sleeps, and the kernel favours waking
//     sleepers, so it sees little of the share a busy thread loses to four
//     busy loops.
//
// A first run also waits for the warm-up, which is bounded too: the whole
// call may take WarmupBudget more.
func runTimed(t *testing.T, p *Probe) Result {
	t.Helper()
	goruntime.LockOSThread() // the run executes on the calling goroutine
	defer goruntime.UnlockOSThread()
	stop := schedNoise(t)
	start := time.Now()
	before := threadUsage(t)
	res := p.Run(context.Background())
	used := threadUsage(t).since(before)
	took := time.Since(start)
	noise := stop()
	// The warm-up runs on another thread; this one only waits for it.
	require.LessOrEqual(t, used.user, p.Budget()+slack,
		"the run used %v of user CPU: more than its budget allows (%v, answered after %v; %v)", used.user, res.Outcome, res.Elapsed, used)
	pages := int64(p.engine().cfg.memoryPages()) * (pageSize / 4096)
	require.LessOrEqual(t, used.faults, pages+faultSlack,
		"the kernel served more page faults than the memory cap holds pages (%v)", used)
	machine := max(noise, used.waiting) + used.system
	assertAnsweredInTime(t, res.Elapsed, p.Budget(), machine, used)
	assertAnsweredInTime(t, took, WarmupBudget+p.Budget(), machine, "counting the warm-up it waited for", used)
	return res
}

// faultSlack is how many page faults a run may cause beyond its guest's
// memory: the host's own stack and heap growth on the run's path.
const faultSlack = 512

// usage is what the calling thread has used: user and system CPU, the
// time it waited runnable on a runqueue, and the page faults it caused.
type usage struct {
	user, system, waiting time.Duration
	faults                int64
}

func (u usage) since(before usage) usage {
	return usage{user: u.user - before.user, system: u.system - before.system,
		waiting: u.waiting - before.waiting, faults: u.faults - before.faults}
}

func (u usage) String() string {
	return fmt.Sprintf("user %v, system %v, runqueue %v, %d page faults", u.user, u.system, u.waiting, u.faults)
}

// threadUsage reads the calling thread's usage. Its runqueue delay comes
// from /proc/thread-self/schedstat, and is 0 where the kernel keeps none.
func threadUsage(t *testing.T) usage {
	t.Helper()
	var ru syscall.Rusage
	require.NoError(t, syscall.Getrusage(1 /* RUSAGE_THREAD */, &ru))
	u := usage{user: time.Duration(ru.Utime.Nano()), system: time.Duration(ru.Stime.Nano()),
		faults: ru.Minflt + ru.Majflt}
	if b, err := os.ReadFile("/proc/thread-self/schedstat"); err == nil {
		if f := strings.Fields(string(b)); len(f) >= 2 {
			if ns, err := strconv.ParseInt(f[1], 10, 64); err == nil {
				u.waiting = time.Duration(ns)
			}
		}
	}
	return u
}
