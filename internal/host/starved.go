package host

import (
	"sync"
	"sync/atomic"
	"time"
)

// starvedTick is how often the starvation clock looks at the time: finer
// than any wait's tolerance (a twentieth of a probe's budget), so that
// what it misses of a wait's end is the tolerance's to cover.
const starvedTick = time.Millisecond

// starvation is the process's starvation clock: the time, summed, that
// it was kept from running a goroutine that was due to run. A wait's
// timeout covers the wait's own time, and a wait whose work was held off
// the CPU meanwhile (the machine ran other processes, or the host's other
// runs held every processor) has not had its time: a TLS handshake that
// needed 5 ms of CPU on a machine that gave the process a fifth of a core
// took 25 ms, 20 of them the machine's.
//
// It is measured, not guessed: a goroutine that asks to run every
// starvedTick and counts how late it ran each time. It runs only while a
// measured wait holds it (see hold), so an idle gate never wakes for it.
var starvation starvedClock

// starvedClock is a starvation clock (see starvation).
type starvedClock struct {
	mu    sync.Mutex
	users int
	stop  chan struct{}
	// starved is the time counted so far, in nanoseconds; it only grows.
	starved atomic.Int64
}

// hold starts the clock for a wait, if no other wait has it running, and
// returns its reading; release must follow, once.
func (s *starvedClock) hold() time.Duration {
	s.mu.Lock()
	s.users++
	if s.users == 1 {
		s.stop = make(chan struct{})
		go s.run(s.stop)
	}
	s.mu.Unlock()
	return s.now()
}

// release ends a hold; the last stops the clock.
func (s *starvedClock) release() {
	s.mu.Lock()
	s.users--
	if s.users == 0 {
		close(s.stop)
	}
	s.mu.Unlock()
}

// now is the clock's reading: subtract an earlier one for the time the
// process was starved in between.
func (s *starvedClock) now() time.Duration { return time.Duration(s.starved.Load()) }

// Starved reads the process's starvation clock: the time, summed, that
// the process was kept from running while a measured wait held the
// clock, and so the most any wait was given back; subtract an earlier
// reading for the time in between. A test bounds a run's answer by it.
func Starved() time.Duration { return starvation.now() }

// run counts, until stop is closed, how late each tick comes: a tick that
// came late (or ticks dropped) means the process could not run this
// goroutine for that long.
func (s *starvedClock) run(stop <-chan struct{}) {
	t := time.NewTicker(starvedTick)
	defer t.Stop()
	last := time.Now()
	for {
		select {
		case <-stop:
			return
		case <-t.C:
			now := time.Now()
			if late := now.Sub(last) - starvedTick; late > 0 {
				s.starved.Add(int64(late))
			}
			last = now
		}
	}
}
