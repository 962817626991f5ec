package host

import (
	"crypto/rand"
	"time"
)

// The WASI clocks a probe may read. The CPU-time clocks were dropped from
// WASI; gate answers EINVAL for them, as wazero did.
const (
	clockRealtime  = 0
	clockMonotonic = 1
)

// The monotonic clock counts from when the process started, shared by
// every probe, from one second rather than zero: Go's runtime throws
// "nanotime returning zero" if its first reading is 0.
var monotonicStart = time.Now()

const monotonicBase = uint64(time.Second)

// clockNow reads a WASI clock in nanoseconds, or reports an unknown id.
func clockNow(id uint32) (uint64, bool) {
	switch id {
	case clockRealtime:
		return uint64(time.Now().UnixNano()), true
	case clockMonotonic:
		return monotonicBase + uint64(time.Since(monotonicStart)), true
	}
	return 0, false
}

func wasiClockResGet(w wasiCall, s []uint64) errno {
	if _, ok := clockNow(uint32(s[0])); !ok {
		return errnoInval
	}
	b, ok := w.span(uint32(s[1]), 8)
	if !ok {
		return errnoFault
	}
	le.PutUint64(b, 1) // Go reads both clocks in nanoseconds
	return errnoSuccess
}

// clock_time_get ignores the precision, as every runtime does.
func wasiClockTimeGet(w wasiCall, s []uint64) errno {
	now, ok := clockNow(uint32(s[0]))
	if !ok {
		return errnoInval
	}
	b, ok := w.span(uint32(s[2]), 8)
	if !ok {
		return errnoFault
	}
	le.PutUint64(b, now)
	return errnoSuccess
}

// random_get fills the buffer from crypto/rand in chunks, checking the
// budget after each: 32 MiB of random bytes take longer than a budget.
func wasiRandomGet(w wasiCall, s []uint64) errno {
	n := uint32(s[1])
	if n == 0 {
		return errnoSuccess
	}
	b, ok := w.span(uint32(s[0]), uint64(n))
	if !ok {
		return errnoFault
	}
	for len(b) > 0 {
		k := min(len(b), wasiChunkBytes)
		if _, err := rand.Read(b[:k]); err != nil {
			return errnoIO
		}
		b = b[k:]
		w.check()
	}
	return errnoSuccess
}
