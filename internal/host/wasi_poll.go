package host

import (
	"math"
	"time"
)

// poll_oneoff is what Go's time.Sleep and its scheduler's idle wait, and
// wasi-libc's nanosleep and poll, become. Its clocks sleep through
// Call.Sleep, which gives the CPU slot back, never sleeps past the deadline
// and stops the guest when it gets there.

const (
	subscriptionSize = 48
	eventSize        = 32

	eventtypeClock   = 0
	eventtypeFdRead  = 1
	eventtypeFdWrite = 2

	subclockAbstime    = 1
	eventrwflagsHangup = 1

	// stdoutRoom is the room a poll reports on stdout and stderr, which
	// never fill up: what a Linux pipe holds.
	stdoutRoom = 64 << 10
)

// wasiPollOneoff validates every subscription before it sleeps or writes an
// event, so a malformed one is EINVAL with nothing written. It sleeps for
// the earliest clock unless a descriptor subscription can answer at once
// (the standard streams always can: stdin is at end of file, stdout and
// stderr always have room), then reports every event that is due, in the
// order of the subscriptions.
func wasiPollOneoff(w wasiCall, s []uint64) errno {
	n := int(uint32(s[2]))
	if n == 0 || n > WASIMaxSubscriptions {
		return errnoInval
	}
	in, ok1 := w.span(uint32(s[0]), uint64(n)*subscriptionSize)
	out, ok2 := w.span(uint32(s[1]), uint64(n)*eventSize)
	nevents, ok3 := w.span(uint32(s[3]), 4)
	if !ok1 || !ok2 || !ok3 {
		return errnoFault
	}

	start := time.Now()
	wait, first := time.Duration(math.MaxInt64), -1
	ready := false
	for i := range n {
		sub := in[i*subscriptionSize : (i+1)*subscriptionSize]
		switch sub[8] {
		case eventtypeClock:
			d, e := clockWait(sub, 0)
			if e != errnoSuccess {
				return e
			}
			if d < wait {
				wait, first = d, i
			}
			ready = ready || d == 0
		case eventtypeFdRead, eventtypeFdWrite:
			ready = true
		default:
			return errnoInval
		}
		if (i+1)%wasiChunkSubs == 0 {
			w.check()
		}
	}
	if !ready {
		w.c.Sleep(w.ctx, wait)
	}

	elapsed := time.Since(start)
	k := 0
	for i := range n {
		sub := in[i*subscriptionSize : (i+1)*subscriptionSize]
		ev := out[k*eventSize : (k+1)*eventSize]
		switch sub[8] {
		case eventtypeClock:
			// The clock slept for is reported even if a realtime clock
			// stepped back meanwhile: wasi-libc's nanosleep reads the
			// event without looking at the count.
			if d, _ := clockWait(sub, elapsed); d > 0 && !(i == first && !ready) {
				continue
			}
			writeEvent(ev, sub, errnoSuccess, 0, 0)
		case eventtypeFdRead:
			if le.Uint32(sub[16:]) == 0 {
				writeEvent(ev, sub, errnoSuccess, 0, eventrwflagsHangup) // end of file
			} else {
				writeEvent(ev, sub, errnoBadf, 0, 0)
			}
		case eventtypeFdWrite:
			if fd := le.Uint32(sub[16:]); fd == 1 || fd == 2 {
				writeEvent(ev, sub, errnoSuccess, stdoutRoom, 0)
			} else {
				writeEvent(ev, sub, errnoBadf, 0, 0)
			}
		}
		k++
	}
	le.PutUint32(nevents, uint32(k))
	return errnoSuccess
}

// clockWait is how long a clock subscription has yet to wait, elapsed after
// the poll started: its relative timeout less elapsed, or the time until
// its absolute one on its clock. Unknown clocks and flags are EINVAL.
func clockWait(sub []byte, elapsed time.Duration) (time.Duration, errno) {
	id, timeout, flags := le.Uint32(sub[16:]), le.Uint64(sub[24:]), le.Uint16(sub[40:])
	now, ok := clockNow(id)
	if !ok {
		return 0, errnoInval
	}
	switch flags {
	case 0:
		now = uint64(elapsed)
	case subclockAbstime:
	default:
		return 0, errnoInval
	}
	if timeout <= now {
		return 0, errnoSuccess
	}
	return time.Duration(min(timeout-now, math.MaxInt64)), errnoSuccess
}

// writeEvent fills one 32-byte event: userdata, error, type, and for a
// descriptor the bytes available and its flags.
func writeEvent(ev, sub []byte, e errno, nbytes uint64, flags uint16) {
	clear(ev)
	copy(ev[:8], sub[:8])
	le.PutUint16(ev[8:], uint16(e))
	ev[10] = sub[8]
	le.PutUint64(ev[16:], nbytes)
	le.PutUint16(ev[24:], flags)
}
