package uplink

import (
	"context"
	"sync"
)

// unfinished bounds, for one HTTP upstream session, the bytes gate holds
// of the upstream's messages that have begun and not ended: a JSON body
// until its end, an event of a stream until its blank line. Each message
// is capped (Config.WithMaxMessageBytes), but every call in flight has an
// answer of its own, and an upstream that sends each nearly whole and then
// stalls would make gate hold the cap once per call.
//
// Past the bound, a message longer than smallMessage is read no further
// until others end, but for the oldest such message, which is always read:
// so an honest upstream's answers all end, one after another, and one
// that stalls its messages stalls only its own calls (each bounded by its
// timeout). Messages that are small (pings, progress, short results) are
// never held back, so a session busy with large answers still answers its
// pings.
type unfinished struct {
	max int64 // the bound: four messages at the cap

	mu      sync.Mutex
	total   int64
	seq     uint64 // the last seq given
	large   map[*unfinishedMsg]struct{}
	waiting int           // bodies waiting for room
	moved   chan struct{} // closed, and replaced, when a message ends
}

// smallMessage is what of each message may always be read: more than any
// ping, cancellation or progress notification.
const smallMessage = MaxAnswer

// unfinishedMsg is the message one body is reading.
type unfinishedMsg struct {
	held int64  // its bytes read so far
	seq  uint64 // its place among the large ones; 0 while it is small
}

func newUnfinished(max int64) *unfinished {
	return &unfinished{max: max, large: map[*unfinishedMsg]struct{}{}, moved: make(chan struct{})}
}

// room returns how many bytes of p the body reading m may read now, at
// least one, waiting until it may read any; it returns early with the
// error of ctx, or ErrSessionOver once broken is closed.
func (u *unfinished) room(ctx context.Context, broken <-chan struct{}, m *unfinishedMsg, p int) (int, error) {
	for {
		u.mu.Lock()
		if m.held < smallMessage {
			u.mu.Unlock()
			return p, nil
		}
		if m.seq == 0 {
			u.seq++
			m.seq = u.seq
			u.large[m] = struct{}{}
		}
		n := u.max - u.total
		if u.oldest(m) || n >= int64(p) {
			n = int64(p)
		}
		if n > 0 {
			u.mu.Unlock()
			return int(n), nil
		}
		moved := u.moved
		u.waiting++
		u.mu.Unlock()
		var err error
		select {
		case <-moved:
		case <-broken:
			err = ErrSessionOver
		case <-ctx.Done():
			err = ctx.Err()
		}
		u.mu.Lock()
		u.waiting--
		u.mu.Unlock()
		if err != nil {
			return 0, err
		}
	}
}

// oldest reports whether m is the large message that began first. u.mu is
// held.
func (u *unfinished) oldest(m *unfinishedMsg) bool {
	for o := range u.large {
		if o.seq < m.seq {
			return false
		}
	}
	return true
}

// read counts n more bytes of m.
func (u *unfinished) read(m *unfinishedMsg, n int) {
	u.mu.Lock()
	m.held += int64(n)
	u.total += int64(n)
	u.mu.Unlock()
}

// end uncounts m, whose message ended or whose body closed, and wakes the
// bodies waiting for room.
func (u *unfinished) end(m *unfinishedMsg) {
	u.mu.Lock()
	defer u.mu.Unlock()
	u.total -= m.held
	m.held = 0
	if m.seq != 0 {
		delete(u.large, m)
		m.seq = 0
	}
	if u.waiting > 0 {
		close(u.moved)
		u.moved = make(chan struct{})
	}
}
