//go:build linux

package host

import (
	"time"

	"golang.org/x/sys/unix"
)

// ThreadClock reports whether the calling OS thread's CPU time can be read,
// so that a run's deadline can follow what the run itself used (see
// Call.Measure).
const ThreadClock = true

// threadCPU is the CPU time, user and system, that the calling OS thread
// has used so far. The caller has locked its goroutine to the thread.
func threadCPU() (time.Duration, bool) {
	var ts unix.Timespec
	if err := unix.ClockGettime(unix.CLOCK_THREAD_CPUTIME_ID, &ts); err != nil {
		return 0, false
	}
	return time.Duration(ts.Nano()), true
}
