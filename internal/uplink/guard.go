package uplink

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"
)

// Guard is what gate keeps of one upstream session below the SDK: why the
// session broke, when the upstream broke one of gate's bounds (a message
// over the cap, a write past its deadline, a ping not answered), and how
// much of what the upstream sent still waits for gate. The SDK's own
// error for the same event is vaguer or, when the event only fails one
// call, absent: the session ends on the guard's word, with its reason.
type Guard struct {
	once   sync.Once
	err    error
	broken chan struct{}
	// counted says whether a notification the upstream sent is one gate
	// acts on, the only ones Flow counts.
	counted func(method string, params json.RawMessage) bool
	// Flow is what the upstream sent that waits for gate; Cancels, the
	// cancellations owed it.
	Flow    Inflow
	Cancels Cancellations
}

// NewGuard returns the guard of a new session, which reads no further while
// maxPending of the upstream's requests, or of its notifications that
// counted says gate acts on, wait for gate.
func NewGuard(maxPending int, counted func(method string, params json.RawMessage) bool) *Guard {
	g := &Guard{broken: make(chan struct{}), counted: counted, Cancels: Cancellations{wake: make(chan struct{}, 1)}}
	g.Flow = Inflow{max: maxPending, done: g.broken, wake: make(chan struct{}, 1)}
	return g
}

// Cancellations counts the notifications/cancelled the SDK owes the
// upstream (one for each call in flight, until it is answered: a call
// gate gives up on has the SDK send one, on a goroutine of its own) and
// those the transport has written. A session closed before they are written loses them (the
// SDK sends nothing on a session being closed), and the upstream's tools
// then run on: an HTTP upstream's DELETE even waits for them.
type Cancellations struct {
	owed, sent atomic.Int64
	wake       chan struct{} // cap 1: one was sent
}

// Owe counts a call sent, which owes a cancellation until it is answered.
func (c *Cancellations) Owe() { c.owed.Add(1) }

// Settle uncounts a call Owe counted that was answered, or that ended
// with no cancellation to send.
func (c *Cancellations) Settle() { c.owed.Add(-1) }

func (c *Cancellations) sentOne() {
	c.sent.Add(1)
	select {
	case c.wake <- struct{}{}:
	default:
	}
}

// Flushed waits until every cancellation owed has been sent, or until
// deadline.
func (c *Cancellations) Flushed(deadline time.Time) {
	t := time.NewTimer(time.Until(deadline))
	defer t.Stop()
	for c.sent.Load() < c.owed.Load() {
		select {
		case <-c.wake:
		case <-t.C:
			return
		}
	}
}

// Fail ends the session for err; the first reason is the one kept.
func (g *Guard) Fail(err error) {
	g.once.Do(func() {
		g.err = err
		close(g.broken)
	})
}

// Reason is why the session broke, or nil while it has not.
func (g *Guard) Reason() error {
	select {
	case <-g.broken:
		return g.err
	default:
		return nil
	}
}

// Broken is closed once the session has broken (Fail).
func (g *Guard) Broken() <-chan struct{} { return g.broken }

// ErrSessionOver is the guard's reason once gate itself ends a session:
// it only unblocks what still waits on the guard.
var ErrSessionOver = errors.New("the session is over")

// messageTooLarge is the reason of a session whose upstream sent a message
// over the cap.
func messageTooLarge(max int) error {
	return fmt.Errorf("it sent a message over gate's cap of %d bytes (it was not read further)", max)
}

// Inflow counts what an upstream sent that gate has not finished with:
// its requests not yet answered, and its notifications not yet handled.
// The SDK queues both without bound (a goroutine per request, a slice of
// notifications); the transports stop reading the upstream while either
// count is at the cap, so a flood waits in the upstream's own pipe or
// socket, and an upstream that also stops reading its answers is failed
// by the write deadline rather than fed for ever.
type Inflow struct {
	max  int
	done <-chan struct{} // the session is over: waiting stops
	wake chan struct{}   // cap 1: a count went down

	mu           sync.Mutex
	calls, notes int
}

// wait returns once the upstream may be read again, or with an error once
// the session is over.
func (f *Inflow) wait(ctx context.Context) error {
	for {
		if !f.full() {
			return nil
		}
		select {
		case <-f.wake:
		case <-f.done:
			return ErrSessionOver
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// full reports whether either count is at the cap.
func (f *Inflow) full() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.calls >= f.max || f.notes >= f.max
}

// received counts a request (call) or a notification the upstream sent.
func (f *Inflow) received(call bool) {
	f.mu.Lock()
	if call {
		f.calls++
	} else {
		f.notes++
	}
	f.mu.Unlock()
}

// answered counts one answer written to the upstream; Handled, one
// notification gate is done with.
func (f *Inflow) answered() { f.less(&f.calls) }
func (f *Inflow) Handled()  { f.less(&f.notes) }

func (f *Inflow) less(n *int) {
	f.mu.Lock()
	if *n > 0 {
		*n--
	}
	f.mu.Unlock()
	select {
	case f.wake <- struct{}{}:
	default:
	}
}

// Throttled describes the counts when reading is held, for the reason of
// a session that then stopped answering; "" when it is not.
func (f *Inflow) Throttled() string {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.calls < f.max && f.notes < f.max {
		return ""
	}
	return fmt.Sprintf("; gate had stopped reading it, holding %d of its requests and %d of its notifications (the cap is %d)", f.calls, f.notes, f.max)
}
