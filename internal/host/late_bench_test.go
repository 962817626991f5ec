package host

import (
	goruntime "runtime"
	"testing"
	"time"
)

// BenchmarkMeasure is what measuring adds to every run: locking the
// goroutine to its thread, reading the thread's CPU clock once, and
// unlocking (a run that ends before its deadline reads nothing more).
// docs/BENCHMARKS.md compares it with a reused run.
func BenchmarkMeasure(b *testing.B) {
	var c Call
	for b.Loop() {
		goruntime.LockOSThread()
		now := time.Now()
		c.Deadline = now.Add(100 * time.Millisecond)
		c.Measure(100*time.Millisecond, now.Add(time.Second))
		if c.Overran(now) || c.Late(now) {
			b.Fatal("late")
		}
		goruntime.UnlockOSThread()
	}
}
