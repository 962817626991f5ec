package runtime

import (
	goruntime "runtime"
	"time"

	"github.com/gate-dev/gate/internal/host"
)

// lateLimit is how many budgets a run may take on the wall clock when the
// machine keeps it off the CPU: the budget counts what the run itself uses
// (see Probe.Run), and this bounds how long a caller can be kept waiting
// for an answer however loaded the machine is.
const lateLimit = 10

// measure makes call's deadline, start plus budget, follow what the run
// uses rather than the wall clock (see host.Call.Measure), up to lateLimit
// budgets after start. It locks the calling goroutine to its OS thread, so
// that the thread's CPU clock is the run's, and reports whether it did: the
// caller then unlocks once the run has ended. Where the thread's CPU time
// cannot be read it does nothing, and the deadline stays the wall clock's.
func measure(call *host.Call, budget time.Duration, start time.Time) bool {
	if !host.ThreadClock {
		return false
	}
	goruntime.LockOSThread()
	call.Measure(budget, start.Add(lateLimit*budget))
	return true
}
