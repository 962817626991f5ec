package runtime

import (
	"context"
	"fmt"
	goruntime "runtime"
	"runtime/metrics"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gate-dev/gate/internal/testnet"
	"github.com/gate-dev/gate/internal/threadtime"
)

// The env probe of the load test gets a 10 ms budget (a manifest may lower
// it so far): a tenth of the default, so that a machine that keeps a run
// off the CPU for longer than its budget, which busy loops on two cores do
// many times a second, is met in every round. The tcp probe keeps the
// default: its dial waits for the kernel's loopback handshake and for the
// Go scheduler to see it done (which, with every P busy, it checks for
// every 10 ms), and a lateness there is the machine's that no clock of the
// run shows.
const envBudget = 10 * time.Millisecond

// spinBounds are the spinning probe's budget and how much CPU it may use
// past it: the work between two metering checks, the host's unwinding of
// the guest and the instantiation of a fresh instance, under a millisecond
// on their own. A guest whose deadline moved although it spent its budget
// would run on to the late limit, ten budgets of CPU on a machine that lets
// it, and the bound stands clear of that.
//
// The budget is 1 ms, so that a thousand runs cost a second of CPU. Under
// the race detector a thread's CPU clock also counts the detector's own
// work, and one run in CI used 11 ms of CPU, all of it user time, with no
// page faults and a deadline that held (it answered an overrun, not late):
// there the budget is 4 ms and the slack 12 ms, still well under the 40 ms
// a moved deadline would allow.
func spinBounds() (budget, slack time.Duration) {
	if raceEnabled {
		return 4 * time.Millisecond, 12 * time.Millisecond
	}
	return time.Millisecond, 3 * time.Millisecond
}

// TestAnswersUnderLoad runs an env probe (every run a fresh instance), a
// tcp probe of a live loopback listener and a spinning probe 1,000 times
// each (100 under -short, 200 under -race), with 4 and with 16 busy loops
// on the cores. The
// honest probes must answer "available" in every run; the spinning one
// must be stopped within its budget of CPU, measured on the thread it ran
// on, and within the late limit on the wall clock plus what the machine
// kept its thread waiting. A failed honest run is charged to the machine,
// not to the engine, only when the machine kept it off the CPU past the
// late limit; otherwise it is our bound that failed.
func TestAnswersUnderLoad(t *testing.T) {
	runs := 1000
	switch {
	case testing.Short():
		runs = 100
	case raceEnabled:
		runs = 200 // the race detector makes each run several times slower
	}
	lookup := envMap(map[string]string{"GATE_LOAD_VAR": "set"})
	honest := newEngine(t, NewEngineConfig().WithBudget(envBudget).WithLookupEnv(lookup).WithIdleMemoryLimit(0))
	env, err := honest.StandardProbe(context.Background(), "env", "env:GATE_LOAD_VAR", ProbeConfig{})
	require.NoError(t, err)
	reused := newEngine(t, NewEngineConfig())
	listener := testnet.Listen(t, "tcp", "127.0.0.1:0")
	tcp, err := reused.StandardProbe(context.Background(), "db", "tcp:"+listener.Addr().String(), ProbeConfig{})
	require.NoError(t, err)
	spinBudget, spinSlack := spinBounds()
	spinning := hostileProbe(t, newEngine(t, NewEngineConfig().WithBudget(spinBudget)), "loop_probe", ProbeConfig{})

	for _, loops := range []int{4, 16} {
		t.Run(fmt.Sprintf("%d busy loops", loops), func(t *testing.T) {
			busyLoops(t, loops)
			for _, p := range []*Probe{env, tcp} {
				began := time.Now()
				answers := runLoaded(t, p, runs, 4)
				var wrong []string
				machineLate, late := 0, 0
				for _, a := range answers {
					if a.res.Late {
						late++
					}
					switch {
					case a.res.Outcome == Available:
					case a.res.Elapsed >= lateLimit*p.Budget():
						machineLate++ // kept off the CPU past the late limit
					default:
						wrong = append(wrong, fmt.Sprintf("%v after %v, CPU %v, %v: %s", a.res.Outcome, a.res.Elapsed, a.cpu, a.used, a.res.Reason))
					}
				}
				t.Logf("%s: %d runs in %v, %d late, %d wrong, %d over the late limit, worst runqueue wait %v", p.Name(), runs, time.Since(began), late, len(wrong), machineLate, worstWait(answers))
				assert.Empty(t, wrong, "%s: honest runs that did not answer available, short of the late limit", p.Name())
				assert.Less(t, machineLate, runs/10, "%s: the machine kept a tenth of the runs off the CPU past the late limit", p.Name())
			}
			// One at a time: a run of this process that waits for a
			// Go P another run holds is late by as much, and the
			// runqueue waits of the process's threads show the machine's
			// part of that only when nothing else of ours runs.
			began := time.Now()
			spins := runLoaded(t, spinning, runs, 1)
			t.Logf("spinning: %d runs in %v", runs, time.Since(began))
			for i, a := range spins {
				require.Equal(t, Failed, a.res.Outcome, "run %d: %s", i, a.res.Reason)
				require.ErrorIs(t, a.res.Err, context.DeadlineExceeded, "run %d", i)
				require.False(t, a.res.Late, "run %d: an overrun is not a late answer", i)
				// CPU past the bound that the kernel spent on the thread
				// (page faults served slowly on a loaded machine: 12 ms
				// for 104 faults, once in CI), or that the process spent
				// assisting the garbage collector meanwhile (charged to
				// whichever goroutine allocates, an instantiation's
				// included), is the machine's; a guest that spun on past
				// its deadline shows as user time beyond both.
				if over := a.cpu - (spinBudget + spinSlack); over > 0 && (a.used.System >= over || a.gc.assist >= over) {
					t.Logf("run %d: %v of CPU, the %v past the bound the machine's (%v; %v)", i, a.cpu, over, a.used, a.gc)
				} else {
					require.LessOrEqual(t, a.cpu, spinBudget+spinSlack,
						"run %d: the spinning guest used %v of CPU, more than its budget allows (after %v; %v; %v)", i, a.cpu, a.res.Elapsed, a.used, a.gc)
				}
				assertAnsweredInTime(t, a.res.Elapsed, lateLimit*spinBudget, a.machine, "run %d: %v", i, a.used)
			}
		})
	}
}

// loadedAnswer is one run of a load test, what its thread used (cpu to
// the nanosecond, used as the kernel samples it), and the
// time the process's threads waited runnable meanwhile, all together: the
// most the machine can have made the run late by (see
// threadtime.Waits.TotalSince).
type loadedAnswer struct {
	res     Result
	cpu     time.Duration
	used    threadtime.Usage
	machine time.Duration
	gc      gcWork
}

// runLoaded runs p n times on as many goroutines as workers, each locked
// to its thread (a run executes on the calling goroutine), and reads what
// each run's thread used.
func runLoaded(t *testing.T, p *Probe, n, workers int) []loadedAnswer {
	t.Helper()
	answers := make([]loadedAnswer, n)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			goruntime.LockOSThread()
			defer goruntime.UnlockOSThread()
			for i := w; i < n; i += workers {
				waits := threadtime.ProcessWaits()
				gcBefore := readGCWork()
				before, err := threadtime.Thread()
				require.NoError(t, err)
				cpuBefore, err := threadtime.CPU()
				require.NoError(t, err)
				res := p.Run(context.Background())
				cpuAfter, err := threadtime.CPU()
				require.NoError(t, err)
				after, err := threadtime.Thread()
				require.NoError(t, err)
				answers[i] = loadedAnswer{res: res, cpu: cpuAfter - cpuBefore, used: after.Since(before), machine: waits.TotalSince(), gc: readGCWork().since(gcBefore)}
			}
		}()
	}
	wg.Wait()
	return answers
}

func worstWait(answers []loadedAnswer) time.Duration {
	var worst time.Duration
	for _, a := range answers {
		worst = max(worst, a.used.Waiting)
	}
	return worst
}

// TestLateAnswerRule drives the rule with a real probe whose env lookup,
// host code on the run's thread, holds the run up in ways the test
// chooses: sleeping is time off the CPU that the run did not use (as a
// busy machine takes it), spinning is CPU the run did use.
func TestLateAnswerRule(t *testing.T) {
	const budget = 10 * time.Millisecond
	tests := []struct {
		name    string
		stall   func()
		outcome Outcome
		late    bool
		// onTime: the probe holds nothing up, so it is late only if the
		// machine kept it off the CPU past its budget, as a loaded one may.
		onTime bool
	}{
		{name: "on time", stall: func() {}, outcome: Available, onTime: true},
		{name: "kept off the CPU past its budget", stall: func() { time.Sleep(3 * budget) }, outcome: Available, late: true},
		{name: "kept off the CPU past the late limit", stall: func() { time.Sleep(lateLimit * budget) }, outcome: Failed},
		{name: "used its budget of CPU", stall: func() { spinThread(2 * budget) }, outcome: Failed},
		{name: "used part of its budget, then kept off the CPU", stall: func() { spinThread(budget / 2); time.Sleep(2 * budget) }, outcome: Available, late: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			lookup := func(name string) (string, bool) {
				tt.stall()
				return "set", true
			}
			e := newEngine(t, NewEngineConfig().WithBudget(budget).WithLookupEnv(lookup).WithIdleMemoryLimit(0))
			p, err := e.StandardProbe(context.Background(), "env", "env:GATE_LATE_VAR", ProbeConfig{})
			require.NoError(t, err)
			res := p.Run(context.Background())
			assert.Equal(t, tt.outcome, res.Outcome, "reason: %s", res.Reason)
			late := tt.late
			if tt.onTime {
				late = res.Elapsed > budget
			}
			assert.Equal(t, late, res.Late, "elapsed %v", res.Elapsed)
			if tt.outcome == Failed {
				assert.ErrorIs(t, res.Err, context.DeadlineExceeded)
				assert.True(t, strings.Contains(res.Reason, "ran past its 10ms budget in gate.env"), res.Reason)
			}
			if tt.late {
				assert.Greater(t, res.Elapsed, budget)
			}
		})
	}
}

// spinThread burns d of the calling thread's CPU.
func spinThread(d time.Duration) {
	start, _ := threadtime.CPU()
	for {
		if now, _ := threadtime.CPU(); now-start >= d {
			return
		}
	}
}

// gcWork is what the Go runtime's collector did in the process: the
// cycles it finished and the CPU goroutines spent assisting it, which the
// runtime charges to whichever goroutine allocates, the run's included.
type gcWork struct {
	cycles uint64
	assist time.Duration
}

var gcSamples = []metrics.Sample{
	{Name: "/gc/cycles/total:gc-cycles"},
	{Name: "/cpu/classes/gc/mark/assist:cpu-seconds"},
}

func readGCWork() gcWork {
	s := slices.Clone(gcSamples)
	metrics.Read(s)
	return gcWork{cycles: s[0].Value.Uint64(), assist: time.Duration(s[1].Value.Float64() * float64(time.Second))}
}

func (g gcWork) since(before gcWork) gcWork {
	return gcWork{cycles: g.cycles - before.cycles, assist: g.assist - before.assist}
}

func (g gcWork) String() string {
	return fmt.Sprintf("%d GC cycles, %v assisting", g.cycles, g.assist)
}
