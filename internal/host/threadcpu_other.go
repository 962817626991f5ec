//go:build !linux

package host

import "time"

// ThreadClock reports whether the calling OS thread's CPU time can be read;
// where it cannot, a run's deadline stays the wall clock's.
const ThreadClock = false

func threadCPU() (time.Duration, bool) { return 0, false }
