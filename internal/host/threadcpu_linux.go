//go:build linux

package host

import (
	"bytes"
	"os"
	"strconv"
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

// threadID is the calling OS thread's id, for threadRunnable to ask about
// it from another thread.
func threadID() int { return unix.Gettid() }

// threadRunnable reports whether the thread is running or waiting for a
// CPU, as opposed to sleeping. A run's thread, locked to the run's
// goroutine, sleeps while the run waits on I/O; once the wait is over the
// thread is woken, and it stays runnable for as long as the machine keeps
// it off the CPU.
func threadRunnable(tid int) bool {
	b, err := os.ReadFile("/proc/self/task/" + strconv.Itoa(tid) + "/stat")
	if err != nil {
		return false
	}
	// The state follows the command name, which is in parentheses and may
	// hold anything: "pid (comm) S ...".
	i := bytes.LastIndexByte(b, ')')
	return i >= 0 && i+2 < len(b) && b[i+2] == 'R'
}
