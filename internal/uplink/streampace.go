package uplink

import (
	"context"
	"time"
)

// What an upstream's event stream brings that is no message (blank lines,
// comments, fields gate ignores, events whose data is no JSON-RPC message)
// is paced: past idleBurst bytes of it, gate reads the stream no faster
// than idleRate, so that an upstream that streams nothing costs gate no
// more CPU than that, and only its own stream waits. Messages are not
// paced, nor is an event past MaxAnswer (it may be an answer, and the
// message cap bounds it); a server's keep-alive comment every few seconds
// is far under.
const (
	idleRate  = 16 << 10 // bytes a second
	idleBurst = 256 << 10
)

// idlePace is one stream's account of what it brought that was no
// message: owed, in bytes, goes down at idleRate, never below nothing.
type idlePace struct {
	owed float64
	at   time.Time
}

func (p *idlePace) settle(now time.Time) {
	if !p.at.IsZero() {
		p.owed = max(0, p.owed-now.Sub(p.at).Seconds()*idleRate)
	}
	p.at = now
}

// charge counts n bytes that were no message.
func (p *idlePace) charge(n int) {
	p.settle(time.Now())
	p.owed += float64(n)
}

// maxFraming is what of a message event's other lines (event:, id:,
// retry:) is given back once it ends: more than any framing takes, and
// too little to carry a flood of comments before each message.
const maxFraming = 256

// refund gives back n bytes charged for what turned out to be a message.
func (p *idlePace) refund(n int) {
	p.settle(time.Now())
	p.owed = max(0, p.owed-float64(n))
}

// wait returns once the stream may be read again: at once while it owes
// at most idleBurst, else once time has paid for the rest; with an error
// once ctx or the session (done) has ended.
func (p *idlePace) wait(ctx context.Context, done <-chan struct{}) error {
	p.settle(time.Now())
	over := p.owed - idleBurst
	if over <= 0 {
		return nil
	}
	timer := time.NewTimer(time.Duration(over / idleRate * float64(time.Second)))
	defer timer.Stop()
	select {
	case <-timer.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	case <-done:
		return ErrSessionOver
	}
}
