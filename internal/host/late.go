package host

import (
	"context"
	"errors"
	"fmt"
	goruntime "runtime"
	"time"
)

// usage is what a measured run has used of its budget: the CPU of the
// thread it runs on and the time it spent in the waits it asked for. The
// time the machine kept it off the CPU (runnable but not running, or woken
// late from a wait) is neither, and does not count against the budget.
type usage struct {
	// budget is 0 for a run that is not measured: its deadline is the wall
	// clock's.
	budget time.Duration
	// cpuAtStart is the thread's CPU time when the run began, or when it
	// came back from its last wait; cpuBefore is the CPU the run used
	// before that.
	cpuAtStart, cpuBefore time.Duration
	// waited is the time counted for the run's waits, each at most what
	// the wait was allowed.
	waited time.Duration
	// due is the deadline the run started with; limit is the latest the
	// deadline may move to.
	due, limit time.Time
	// starvedAt is the starvation clock's reading when the wait under way
	// began (see starvation).
	starvedAt time.Duration
}

// Measure makes the run's deadline follow what the run itself uses rather
// than the wall clock alone. When the deadline passes, the run is stopped
// only if its thread's CPU time plus the time it waited on I/O (each wait
// counted up to what it was allowed) has reached budget; otherwise the
// deadline moves to when the rest of the budget would be spent, never past
// limit. So a run that the machine kept off the CPU keeps its answer (see
// Late), and a run that spins or waits past its budget is stopped as
// before.
//
// The caller has set Deadline to the run's start plus budget and locked its
// goroutine to its OS thread (runtime.LockOSThread) until the run ends, so
// that the thread's CPU clock is the run's; the run's waits unlock it for
// their duration (see beginWait). Where the thread's CPU time cannot be
// read (ThreadClock is false), Measure does nothing.
func (c *Call) Measure(budget time.Duration, limit time.Time) {
	cpu, ok := threadCPU()
	if !ok || budget <= 0 || c.Deadline.IsZero() {
		return
	}
	c.usage = usage{budget: budget, cpuAtStart: cpu, due: c.Deadline, limit: limit}
}

// Late reports whether a run that ended at end answered after the deadline
// it started with, because that deadline was moved for the time the
// machine kept the run off the CPU.
func (c *Call) Late(end time.Time) bool {
	return c.usage.budget > 0 && end.After(c.usage.due) && !end.After(c.Deadline)
}

// Overran reports whether a run that ended at end did so past its
// deadline, once the deadline has been moved for the time the machine kept
// the run off the CPU.
func (c *Call) Overran(end time.Time) bool {
	if c.Deadline.IsZero() || !end.After(c.Deadline) {
		return false
	}
	c.settle()
	return end.After(c.Deadline)
}

// used is what a measured run has used of its budget so far; ok is false
// for a run that is not measured.
func (c *Call) used() (d time.Duration, ok bool) {
	if c.usage.budget == 0 {
		return 0, false
	}
	cpu, ok := threadCPU()
	if !ok {
		return 0, false
	}
	return c.usage.cpuBefore + cpu - c.usage.cpuAtStart + c.usage.waited, true
}

// settle moves the deadline of a measured run to now plus what is left of
// its budget, when that is later, never past the limit (see Measure). The
// deadline only ever moves later: the run's usage grows no faster than the
// clock.
func (c *Call) settle() {
	used, ok := c.used()
	if !ok || used >= c.usage.budget {
		return
	}
	d := time.Now().Add(c.usage.budget - used)
	if d.After(c.usage.limit) {
		d = c.usage.limit
	}
	if d.After(c.Deadline) {
		c.Deadline = d
	}
}

// left is the time left in the budget, with the deadline settled first: a
// wait is allowed what the run has not used, however late the machine ran
// it so far.
func (c *Call) left() time.Duration {
	c.settle()
	return c.Remaining()
}

// waited counts a wait of wall duration took against the budget, at most
// allowed: a wake-up that the machine delayed past the wait's own bound is
// the machine's time, not the run's.
func (c *Call) waited(took, allowed time.Duration) {
	c.usage.waited += max(min(took, allowed), 0)
}

// beginWait marks the start of a wait and returns when it began; endWait
// must follow. A
// measured run's goroutine is unlocked from its thread for the wait: a
// wait is a string of hand-overs between goroutines (the dialer's, the
// HTTP transport's), and a locked goroutine resumes only once the kernel
// runs its own thread again, which a busy machine delays at every one of
// them. The CPU used so far is kept, and relock counts on from the thread
// the run resumes on; what the wait itself costs is counted as its time.
func (c *Call) beginWait() time.Time {
	if c.usage.budget > 0 {
		if cpu, ok := threadCPU(); ok {
			c.usage.cpuBefore += cpu - c.usage.cpuAtStart
			c.usage.cpuAtStart = cpu
		}
		goruntime.UnlockOSThread()
		c.usage.starvedAt = starvation.hold()
	}
	return time.Now()
}

// endWait counts the wait that began at began (see waited). A measured
// wait for the network is counted without the time the process was
// starved meanwhile (see starvation): the host's work on it (a TLS
// handshake, an HTTP exchange) waited for a CPU as much as for the peer.
// A sleep is counted whole: the probe chose to spend that time.
func (c *Call) endWait(began time.Time, allowed time.Duration, sleep bool) {
	took := time.Since(began)
	if c.usage.budget > 0 {
		if !sleep {
			took -= starvation.now() - c.usage.starvedAt
		}
		starvation.release()
	}
	c.waited(took, allowed)
}

// resume locks a measured run's goroutine to its thread again after a
// wait, once it may run, and moves its deadline for the time since the
// wait ended, which was the host's (see wait).
func (c *Call) resume() {
	c.relock()
	c.settle()
}

// relock locks a measured run's goroutine to its thread again, as
// beginWait found it: the engine unlocks it once when the run ends,
// however it ends, and a caller's own lock must survive that.
func (c *Call) relock() {
	if c.usage.budget > 0 {
		goruntime.LockOSThread()
		c.usage.cpuAtStart, _ = threadCPU()
	}
}

// errWaitTimedOut is the cause of a wait context that ran out (see
// waitContext).
var errWaitTimedOut = fmt.Errorf("wait timed out: %w", context.DeadlineExceeded)

// waitContext bounds a wait the probe asked for to d of waiting; cancel
// must be called, and context.Cause matches context.DeadlineExceeded once
// d is up. A measured run's wait (see Measure) is bounded by its own time,
// not by the machine's, never past the run's late limit:
//
//   - a timer that fires when the process was starved for more than the
//     tolerance since the wait began or last moved (see starvation), or
//     fires late by more (the process was kept off the CPU, and whatever
//     the wait was for may have come meanwhile, unseen), gives the wait
//     that time again;
//   - a timer that fires on time gives the wait the tolerance once more:
//     the Go scheduler runs timers at every switch but, while its Ps are
//     busy, looks at the network only now and then, so a connection made
//     in time may not have been seen yet.
//
// A wait for something that does not come ends on time on an idle machine
// and within the late limit on a busy one.
func (c *Call) waitContext(ctx context.Context, d time.Duration) (context.Context, context.CancelFunc) {
	limit := c.usage.limit
	if c.usage.budget == 0 {
		return context.WithTimeoutCause(ctx, d, errWaitTimedOut)
	}
	tolerance := c.waitGrace()
	ctx, cancel := context.WithCancelCause(ctx)
	due := time.Now().Add(d)
	// Each firing schedules the next, so due and counted are only ever
	// touched by one callback at a time.
	counted := starvation.now()
	graced := false
	var fire func()
	fire = func() {
		if ctx.Err() != nil {
			return
		}
		now, starved := time.Now(), starvation.now()
		again := max(now.Sub(due), starved-counted) // the process's time, not the wait's
		counted = starved
		if again <= tolerance {
			again = 0
			if !graced {
				again = tolerance
				graced = true
			}
		}
		if again > 0 && now.Before(limit) {
			due = now.Add(min(again, limit.Sub(now)))
			time.AfterFunc(due.Sub(now), fire)
			return
		}
		cancel(errWaitTimedOut)
	}
	time.AfterFunc(d, fire)
	return ctx, func() { cancel(context.Canceled) }
}

// waitGrace is how long a wait under waitContext may go on past its
// timeout when its timer fires on time: the tolerance, for a measured run
// (see waitContext), and nothing for a run that is not. The caller charges
// the wait up to its timeout and its grace: the grace is time the run
// waited, and a probe that dials a black hole in a loop must spend its
// budget at the rate the wall clock does. Only a timer's lateness past
// that (the machine's) is not charged. The timeout is clipped to the wait
// limit as before, so that an honest dial waits as long as it did: one
// that times out at that limit has spent the Reserve too, and answers in
// the allowance wait gives once per run (see extend).
func (c *Call) waitGrace() time.Duration {
	if c.usage.budget == 0 {
		return 0
	}
	return max(c.Reserve, time.Millisecond)
}

// timedOut reports whether a wait under waitContext ran out.
func timedOut(ctx context.Context) bool { return errors.Is(context.Cause(ctx), errWaitTimedOut) }
