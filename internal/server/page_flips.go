package server

import (
	"sync"
	"time"

	"github.com/gate-dev/gate/runtime"
)

// flipLogSize is how many recent changes the status page can tell of,
// and look back through for when a tool, server or skill last changed:
// a bounded ring, so that a flapping tool costs a fixed amount of memory
// however long gate serves.
const flipLogSize = 256

// flipLog keeps the service's recent changes for the status page (GET /):
// what flipped lately, and since when each thing is in its state. An
// event a policy held back (Pending) is not a change and is not kept.
type flipLog struct {
	mu sync.Mutex
	// started is when the log began: a thing that did not change since
	// has been in its state at least since then.
	started time.Time
	ring    [flipLogSize]flip
	next    int    // where the next event goes
	total   uint64 // events kept so far, dropped ones included
}

// flip is a kept change and the generation its event made.
type flip struct {
	runtime.Event
	gen uint64
}

func newFlipLog(now time.Time) *flipLog { return &flipLog{started: now} }

// record keeps e, the event of generation gen, dropping the oldest change
// when the ring is full.
func (l *flipLog) record(e runtime.Event, gen uint64) {
	if e.Pending != nil {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.ring[l.next] = flip{e, gen}
	l.next = (l.next + 1) % flipLogSize
	l.total++
}

// flipKey names a thing that changes: its event type and name.
type flipKey struct{ typ, name string }

// flipView is what the page reads of the log at once.
type flipView struct {
	// recent are the kept changes, newest first.
	recent []runtime.Event
	// last is the time of each thing's latest kept change.
	last map[flipKey]time.Time
	// horizon is how far back the log is complete: a thing without a
	// kept change has been in its state since at least then.
	horizon time.Time
	// complete: nothing was dropped, so horizon is when the log began.
	complete bool
}

// view copies the log's changes up to generation gen, newest first: the
// page tells those, and its script applies the later ones from the
// stream, so that each is listed once.
func (l *flipLog) view(gen uint64) flipView {
	l.mu.Lock()
	defer l.mu.Unlock()
	n := int(min(l.total, flipLogSize))
	v := flipView{recent: make([]runtime.Event, 0, n), last: make(map[flipKey]time.Time, n), horizon: l.started, complete: l.total <= flipLogSize}
	if !v.complete {
		// The oldest kept change: anything unchanged since was so before.
		v.horizon = l.ring[l.next].At
	}
	for i := 1; i <= n; i++ {
		f := l.ring[(l.next-i+flipLogSize)%flipLogSize]
		if f.gen > gen {
			continue
		}
		e := f.Event
		v.recent = append(v.recent, e)
		k := flipKey{e.Type, e.Name}
		if _, seen := v.last[k]; !seen {
			v.last[k] = e.At
		}
	}
	return v
}
