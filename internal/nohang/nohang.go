// Package nohang is a test helper for steps that must not hang (an open
// that could wait for a FIFO's writer, a read of /dev/zero, a walk that
// could block): it fails the test when the step is still running after
// Limit, far longer than any of them needs, so that only a real hang
// trips it, however loaded the machine.
package nohang

import (
	"testing"
	"time"
)

// Limit is how long a step may take before the test calls it hung.
const Limit = 20 * time.Second

// Run runs f and fails the test if it has not returned within Limit. A
// hung f is left behind: nothing can stop it.
func Run(t testing.TB, what string, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() {
		defer close(done)
		f()
	}()
	select {
	case <-done:
	case <-time.After(Limit):
		t.Fatalf("%s: still running after %v, so it hangs", what, Limit)
	}
}
