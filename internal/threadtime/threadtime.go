// Package threadtime is a test helper that tells a bound the code failed
// from a machine that was late. It reads what the calling OS thread used
// (user and system CPU, page faults, and the time it waited runnable on a
// runqueue) and how long each of this process's threads waited runnable.
// A test that bounds work by CPU time, or allows an answer to be as late
// as the kernel kept the process's threads off the CPU, passes on a
// loaded machine and still fails when the code does more than it may.
//
// Linux only: the runqueue delays come from /proc's schedstat files, and
// are 0 where the kernel keeps none.
package threadtime

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// Usage is what one thread has used since it started.
type Usage struct {
	User, System time.Duration
	// Waiting is the time the thread spent runnable but off the CPU.
	Waiting time.Duration
	// Faults counts the page faults the kernel served the thread.
	Faults int64
}

// Since is the usage between before and u.
func (u Usage) Since(before Usage) Usage {
	return Usage{User: u.User - before.User, System: u.System - before.System,
		Waiting: u.Waiting - before.Waiting, Faults: u.Faults - before.Faults}
}

// CPU is the user and system time together.
func (u Usage) CPU() time.Duration { return u.User + u.System }

func (u Usage) String() string {
	return fmt.Sprintf("user %v, system %v, runqueue %v, %d page faults", u.User, u.System, u.Waiting, u.Faults)
}

// Thread reads the calling thread's usage. The caller locks its goroutine
// to the thread (runtime.LockOSThread) for as long as it measures.
func Thread() (Usage, error) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(1 /* RUSAGE_THREAD */, &ru); err != nil {
		return Usage{}, fmt.Errorf("getrusage: %w", err)
	}
	return Usage{User: time.Duration(ru.Utime.Nano()), System: time.Duration(ru.Stime.Nano()),
		Waiting: runqueueDelay("/proc/thread-self/schedstat"), Faults: ru.Minflt + ru.Majflt}, nil
}

// CPU reads the CPU time, user and system, that the calling thread has
// used, to the nanosecond: Usage's times are sampled at the kernel's tick
// (4 ms at 250 Hz), too coarse for a budget of a few milliseconds. The
// caller locks its goroutine to the thread.
func CPU() (time.Duration, error) {
	var ts unix.Timespec
	if err := unix.ClockGettime(unix.CLOCK_THREAD_CPUTIME_ID, &ts); err != nil {
		return 0, fmt.Errorf("clock_gettime: %w", err)
	}
	return time.Duration(ts.Nano()), nil
}

// Waits is each of the process's threads' runqueue delay so far, by
// thread id.
type Waits map[string]time.Duration

// ProcessWaits reads the runqueue delay of every thread of the process.
func ProcessWaits() Waits {
	w := Waits{}
	dirs, _ := filepath.Glob("/proc/self/task/*")
	for _, d := range dirs {
		w[filepath.Base(d)] = runqueueDelay(filepath.Join(d, "schedstat"))
	}
	return w
}

// MaxSince is the longest any one thread of the process has waited
// runnable since before was read; a thread started since counts from 0.
// An answer that needed that thread (a guest's, a timer's, one a
// stop-the-world waited for) was late by as much through no fault of its
// own.
func (before Waits) MaxSince() time.Duration {
	var worst time.Duration
	for id, now := range ProcessWaits() {
		worst = max(worst, now-before[id])
	}
	return worst
}

// TotalSince is the time all the process's threads together have waited
// runnable since before was read. A chain of hand-overs (a thread waiting
// for a Go P that another thread, itself waiting for a CPU, holds) is
// late by at most as much.
func (before Waits) TotalSince() time.Duration {
	var total time.Duration
	for id, now := range ProcessWaits() {
		total += now - before[id]
	}
	return total
}

// runqueueDelay reads the second field of a schedstat file: the
// nanoseconds the thread has waited on a runqueue.
func runqueueDelay(path string) time.Duration {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0
	}
	f := strings.Fields(string(b))
	if len(f) < 2 {
		return 0
	}
	ns, err := strconv.ParseInt(f[1], 10, 64)
	if err != nil {
		return 0
	}
	return time.Duration(ns)
}
