package host

import (
	"context"
	goruntime "runtime"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gate-dev/gate/internal/testnet"
)

// The rule: a measured run whose wall deadline has passed is stopped only
// once its thread's CPU plus its counted waits reach the budget; until
// then the deadline moves to when the rest would be spent, never past the
// limit. Sleeping in the test (not in a wait of the Call) is time off the
// CPU that the run did not use, as a busy machine takes it.
func TestMeasuredDeadline(t *testing.T) {
	const budget = 20 * time.Millisecond
	tests := []struct {
		name string
		// limit is how many budgets the deadline may move to.
		limit int
		// measured is false for a run without Measure: the wall clock's
		// deadline.
		measured bool
		// hold is the scenario: its sleeps keep the run off the CPU on
		// purpose (a machine that made it late), not waits for an event.
		hold    func(c *Call)
		stopped bool
	}{
		{name: "kept off the CPU", limit: 10, measured: true,
			hold: func(*Call) { time.Sleep(2 * budget) }},
		{name: "kept off the CPU past the limit", limit: 3, measured: true,
			hold: func(*Call) { time.Sleep(3 * budget) }, stopped: true},
		{name: "used its CPU", limit: 10, measured: true,
			hold: func(*Call) { spin(budget) }, stopped: true},
		{name: "waited its budget", limit: 10, measured: true,
			hold: func(c *Call) { c.Sleep(context.Background(), budget) }, stopped: true},
		{name: "a wait woken late counts only what it was allowed", limit: 10, measured: true,
			hold: func(c *Call) { c.waited(3*budget, budget/4); time.Sleep(2 * budget) }},
		{name: "CPU and waits add up", limit: 10, measured: true,
			hold: func(c *Call) { c.Sleep(context.Background(), budget/2); spin(budget/2 + budget/10) }, stopped: true},
		{name: "not measured", limit: 10, measured: false,
			hold: func(*Call) { time.Sleep(2 * budget) }, stopped: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			goruntime.LockOSThread()
			defer goruntime.UnlockOSThread()
			start := time.Now()
			c := &Call{Probe: "p", Deadline: start.Add(budget)}
			limit := start.Add(time.Duration(tt.limit) * budget)
			if tt.measured {
				c.Measure(budget, limit)
			}
			intr := interruption(func() {
				tt.hold(c)
				c.Check(context.Background(), "test")
			})
			end := time.Now()
			if tt.stopped {
				require.NotNil(t, intr, "the run was not stopped")
				assert.True(t, intr.Budget)
				assert.ErrorIs(t, intr, context.DeadlineExceeded)
				assert.False(t, c.Late(end))
				assert.False(t, c.Deadline.After(limit), "the deadline moved past the limit")
				return
			}
			require.Nil(t, intr, "stopped although the run used less than its budget")
			assert.True(t, c.Late(end), "a run that answers past its first deadline is late")
			assert.False(t, c.Overran(end))
			assert.True(t, c.Deadline.After(start.Add(budget)), "the deadline did not move")
			assert.False(t, c.Deadline.After(limit), "the deadline moved past the limit")
		})
	}
}

// TestWaitContextEnds: a wait for something that never comes ends, not
// before its timeout, and says it timed out, measured or not; a wait its
// caller cuts short did not time out.
func TestWaitContextEnds(t *testing.T) {
	goruntime.LockOSThread()
	defer goruntime.UnlockOSThread()
	const budget = 20 * time.Millisecond
	start := time.Now()
	measured := &Call{Deadline: start.Add(budget), Reserve: budget / 20}
	measured.Measure(budget, start.Add(10*budget))
	for _, c := range []*Call{measured, {Deadline: start.Add(budget)}} {
		ctx, cancel := c.waitContext(context.Background(), budget/2)
		<-ctx.Done()
		assert.True(t, timedOut(ctx))
		assert.ErrorIs(t, context.Cause(ctx), context.DeadlineExceeded)
		cancel()
		assert.False(t, time.Now().Before(start.Add(budget/2)), "ended before its timeout")
	}
	ctx, cancel := measured.waitContext(context.Background(), time.Hour)
	cancel()
	assert.False(t, timedOut(ctx), "a wait cut short by its caller did not time out")
}

// interruption runs f and returns the *Interrupt it panicked with, if any.
func interruption(f func()) (intr *Interrupt) {
	defer func() {
		if r := recover(); r != nil {
			intr = r.(*Interrupt)
		}
	}()
	f()
	return nil
}

// spin burns d of the calling thread's CPU.
func spin(d time.Duration) {
	start, _ := threadCPU()
	for {
		if now, _ := threadCPU(); now-start >= d {
			return
		}
	}
}

// TestWaitAtTheLateLimit: a measured run that the machine ran so late that
// it reached its late limit with budget left is stopped when it asks to
// wait, not told "no time left" (which a probe answers as "timed out");
// a run that spent its budget is told, as before.
func TestWaitAtTheLateLimit(t *testing.T) {
	goruntime.LockOSThread()
	defer goruntime.UnlockOSThread()
	const budget = 20 * time.Millisecond
	start := time.Now()
	late := &Call{Probe: "p", Deadline: start.Add(budget), Reserve: budget / 20}
	late.Measure(budget, start.Add(2*budget))
	time.Sleep(2 * budget) // the scenario: off the CPU until the late limit
	intr := interruption(func() { late.waitLimit("gate.dial") })
	require.NotNil(t, intr, "a run at its late limit was told to answer")
	assert.Equal(t, "gate.dial", intr.Where)
	assert.True(t, intr.Budget)

	spent := &Call{Probe: "p", Deadline: time.Now().Add(budget), Reserve: budget / 20}
	spent.Measure(budget, time.Now().Add(10*budget))
	spin(budget)
	var limit time.Duration
	require.Nil(t, interruption(func() { limit = spent.waitLimit("gate.dial") }))
	assert.LessOrEqual(t, limit, time.Duration(0))
}

// TestBlackHoleDialsChargedInFull: every wait a measured run spends on a
// dial that gets no answer counts against its budget in full, its grace
// past the timeout included, so that a probe dialling a black hole in a
// loop with 1 ms timeouts spends its budget as fast as the wall clock
// does. What is asserted is the charge: its own time, which is the wall
// time less what the machine kept the process from running meanwhile
// (the starvation clock's), so that the machine's speed does not change
// it; on an idle machine it is the wall time.
func TestBlackHoleDialsChargedInFull(t *testing.T) {
	goruntime.LockOSThread()
	defer goruntime.UnlockOSThread()
	const (
		budget  = 100 * time.Millisecond
		timeout = time.Millisecond
	)
	blackHole := testnet.BlackHole(t)
	c := testCall(t, Grants{Dial: []string{blackHole}})
	start := time.Now()
	c.Deadline = start.Add(budget)
	c.Reserve = budget / 20
	c.Measure(budget, start.Add(10*budget))
	grace := c.waitGrace()
	require.Positive(t, grace)
	waits := 0
	starvedBefore := starvation.now()
	intr := interruption(func() {
		for range 40 {
			began := time.Now()
			status := c.dial(context.Background(), blackHole, timeout)
			require.Equal(t, StatusTimedOut, status)
			if time.Since(began) >= timeout {
				waits++
			}
			c.Check(context.Background(), "test")
		}
	})
	end := time.Now()
	used, ok := c.used()
	require.True(t, ok)
	t.Logf("%d dials waited, %v charged, %v of wall clock, late=%v", waits, used, end.Sub(start), c.Late(end))
	require.Nil(t, intr, "the dials leave the run time to answer")
	require.Positive(t, waits)
	starved := starvation.now() - starvedBefore
	assert.GreaterOrEqual(t, used, time.Duration(waits)*(timeout+grace)-starved, "each wait is charged its timeout and its grace, less the machine's time (%v)", starved)
	assert.LessOrEqual(t, used, budget+c.Reserve, "no wait is allowed past the budget")
}
