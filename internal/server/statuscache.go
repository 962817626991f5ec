package server

import (
	"sync"
	"sync/atomic"
	"time"
	"weak"

	"github.com/gate-dev/gate/runtime"
)

// statusMaxAge is how long a rendering of /v1/status is handed out while
// nothing it tells has changed. Only its age_seconds go stale meanwhile
// (they are as of the rendering), so a reader's ages are short by less
// than this; a change of anything else is rendered on the next request.
const statusMaxAge = time.Second

// statusState is what /v1/status tells besides the registries' answers,
// and the registries' versions, read before those answers: the answers
// are at least as new as the versions.
type statusState struct {
	gate           *runtime.Gate
	tools, servers uint64 // Registry.Version
	gen            uint64 // the hub's generation, which the answer tells
	ready          bool
	reloadedAt     time.Time
	reloadErr      error
}

// statusKey is a statusState as a rendering keeps it: the Gate weakly, so
// that a rendering does not keep a Gate that a reload retired in memory.
type statusKey struct {
	gate           weak.Pointer[runtime.Gate]
	tools, servers uint64
	gen            uint64
	ready          bool
	reloadedAt     time.Time
	// reloadErr is held, so that its memory, which its identity may be
	// the address of, is not reused by another error meanwhile.
	reloadErr error
}

func (st statusState) key() statusKey {
	return statusKey{gate: weak.Make(st.gate), tools: st.tools, servers: st.servers, gen: st.gen,
		ready: st.ready, reloadedAt: st.reloadedAt, reloadErr: st.reloadErr}
}

// same reports whether st is what k was read from. The counters only
// grow, readiness only comes, and a reload replaces the Gate and sets the
// time or sets its error, so equal values mean nothing changed in
// between. A reload error is the same one by identity (see
// problemCache); one without an identity is never the same, which costs
// a rendering per request while it stands.
func (k statusKey) same(st statusState) bool {
	if k.gate.Value() != st.gate || k.tools != st.tools || k.servers != st.servers || k.gen != st.gen ||
		k.ready != st.ready || !k.reloadedAt.Equal(st.reloadedAt) {
		return false
	}
	if k.reloadErr == nil || st.reloadErr == nil {
		return k.reloadErr == nil && st.reloadErr == nil
	}
	id := identity(st.reloadErr)
	return id != nil && id == identity(k.reloadErr)
}

// statusCache keeps the last rendering of /v1/status. A thousand tools
// render to hundreds of kilobytes, which takes milliseconds, while the
// answers change only when the refresher stores new ones: every reader
// gets the same bytes, rendered once per change of what they tell, and
// none older than statusMaxAge, for the ages.
type statusCache struct {
	last atomic.Pointer[statusRendering]
	// mu is held while rendering: readers that arrive meanwhile wait for
	// that rendering instead of each making (and holding) their own.
	mu sync.Mutex
	// begun counts the renderings begun. A reader that waited takes any
	// rendering begun after it arrived: that one read the state after the
	// reader's arrival, so it is as new as a rendering of its own, and
	// readers that arrive during a stream of changes do not render one
	// after the other.
	begun atomic.Uint64
}

type statusRendering struct {
	key  statusKey
	seq  uint64    // its place in begun
	at   time.Time // the time its ages are relative to
	body []byte
}

// fresh reports whether r may answer a reader that read st at now.
func (r *statusRendering) fresh(st statusState, now time.Time) bool {
	return r != nil && now.Sub(r.at) < statusMaxAge && r.key.same(st)
}

// render returns the rendering of the state now: the last one when it is
// fresh, one begun after the call, or a new one made by encode from the
// state it reads (read, the clock's time now). encode returns the body,
// the time its ages are as of (read after the answers it tells, so that
// no age is negative), and whether it may be kept (a rendering cut short
// by the reader's going away may not).
func (c *statusCache) render(read func() statusState, now func() time.Time, encode func(statusState) (body []byte, at time.Time, keep bool, err error)) ([]byte, error) {
	// arrived is read first: a rendering with a later place read the
	// state after this reader's.
	arrived := c.begun.Load()
	st, t := read(), now()
	last := c.last.Load()
	if last.fresh(st, t) {
		return last.body, nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if last := c.last.Load(); last != nil && (last.seq > arrived || last.fresh(st, t)) {
		return last.body, nil
	}
	seq := c.begun.Add(1)
	// The state may have changed while this reader waited: what is
	// rendered is read now.
	st = read()
	body, at, keep, err := encode(st)
	if err != nil {
		return nil, err
	}
	if keep {
		c.last.Store(&statusRendering{key: st.key(), seq: seq, at: at, body: body})
	}
	return body, nil
}
