package host

import (
	"os"
	"os/exec"
	goruntime "runtime"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"golang.org/x/sys/unix"

	"github.com/gate-dev/gate/internal/testnet"
	"github.com/gate-dev/gate/internal/testsvc"
)

// TestStarvedMachineKeepsTLSAnswers: a measured run's TLS connect and
// HTTPS request to an honest peer answer as on an idle machine when the
// machine gives the process a sliver of one CPU, so that the handshakes
// (the host's work, and the peer's, in this process) take many times
// their CPU on the wall clock. That time is the machine's, not the
// probe's: the waits are bounded by the time the process could run (the
// starvation clock's), never cut at the probe's timeout on the wall
// clock, and end by the run's late limit. On the wall clock's timeout
// both answered "timed out".
func TestStarvedMachineKeepsTLSAnswers(t *testing.T) {
	ch := testnet.TLSChains(t)
	g := newGuest(t)
	addr := testsvc.ServeTLSWith(t, ch.Honest, testnet.AnswerNoContent)
	grants := Grants{Dial: []string{"127.0.0.1:*"}, HTTP: []string{"https://127.0.0.1:*"}}
	starveOnOneCPU(t, 16)
	for _, via := range []string{"connect", "http"} {
		t.Run(via, func(t *testing.T) {
			goruntime.LockOSThread()
			defer goruntime.UnlockOSThread()
			const budget = 40 * time.Millisecond
			c := budgetCall(t, grants, budget)
			c.Net = &Net{RootCAs: ch.Roots}
			limit := time.Now().Add(20 * budget)
			c.Measure(budget, limit)
			defer c.End()
			starved := starvation.now()
			var status int32
			if via == "connect" {
				status = g.connect(t, c, "tls:"+addr, 0, 0)
			} else {
				status = g.http(t, c, "GET https://"+addr+"/\n", 0, 0)
			}
			t.Logf("status %d after %v; the process was starved %v meanwhile", status, time.Since(limit.Add(-20*budget)), starvation.now()-starved)
			if intr := c.Interrupted(); intr != nil && !time.Now().Before(limit) {
				t.Skipf("the machine kept the run off the CPU past its late limit: %v", intr)
			}
			require.Positive(t, status, "%s", g.lastError(t, c))
		})
	}
}

// starveOnOneCPU holds the test process, every thread of it, to one CPU,
// with hogs busy processes beside it there, until the test ends: a
// machine that gives the process a sliver of a CPU, whatever the machine.
func starveOnOneCPU(t *testing.T, hogs int) {
	var was unix.CPUSet
	require.NoError(t, unix.SchedGetaffinity(0, &was))
	var one unix.CPUSet
	for cpu := range 1024 {
		if was.IsSet(cpu) {
			one.Set(cpu)
			break
		}
	}
	threads := func() []int {
		entries, err := os.ReadDir("/proc/self/task")
		require.NoError(t, err)
		var tids []int
		for _, e := range entries {
			if tid, err := strconv.Atoi(e.Name()); err == nil {
				tids = append(tids, tid)
			}
		}
		return tids
	}
	// A thread made meanwhile takes its maker's set: pin until none is
	// left out.
	for range 3 {
		for _, tid := range threads() {
			_ = unix.SchedSetaffinity(tid, &one) // a thread may have ended
		}
	}
	t.Cleanup(func() {
		for _, tid := range threads() {
			_ = unix.SchedSetaffinity(tid, &was)
		}
	})
	for range hogs {
		hog := exec.Command("sh", "-c", "while :; do :; done")
		require.NoError(t, hog.Start())
		t.Cleanup(func() {
			hog.Process.Kill()
			hog.Wait()
		})
	}
}
