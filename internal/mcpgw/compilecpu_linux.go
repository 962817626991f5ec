//go:build linux

package mcpgw

import (
	"time"

	"golang.org/x/sys/unix"
)

// compileCPU returns a reader of the CPU time the calling OS thread has
// used from now on, readable from any goroutine: a compile runs on a
// thread of its own (locked) and the listing that waits for it reads the
// thread's clock. The caller has locked its goroutine to the thread. nil
// where the clock cannot be read: the wait is then the wall clock's.
func compileCPU() func() time.Duration {
	// The kernel names a thread's CPU clock after its id (the encoding
	// of MAKE_THREAD_CPUCLOCK: per-thread, scheduler time), which any
	// thread of the process may read.
	clock := int32((^unix.Gettid())<<3 | 6)
	read := func() (time.Duration, bool) {
		var ts unix.Timespec
		if err := unix.ClockGettime(clock, &ts); err != nil {
			return 0, false
		}
		return time.Duration(ts.Nano()), true
	}
	start, ok := read()
	if !ok {
		return nil
	}
	return func() time.Duration {
		now, ok := read()
		if !ok {
			// The thread has ended, and the compile with it.
			return 0
		}
		return now - start
	}
}
