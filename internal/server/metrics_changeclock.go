package server

import (
	"sync"
	"time"

	"github.com/gate-dev/gate/runtime"
)

// changeClock remembers, for each tool, server and skill, its last state
// and when it took it, for the last_change_timestamp_seconds series. The
// service's events stamp a flip with the time of the probe run that made
// it; a scrape that finds a state the events did not tell of (a change
// between unavailable and error, which is no flip, or one before Watch)
// stamps it with the run behind the answer, or the scrape's time. Only
// the entries the last scrape found are kept, so a reload that drops one
// drops its stamp too.
type changeClock struct {
	mu     sync.Mutex
	stamps map[entryKey]stamp
	round  uint64 // the scrape under way; a stamp not seen in it is dropped
}

type entryKey struct{ kind, name string }

type stamp struct {
	state string
	at    time.Time
	round uint64
}

func newChangeClock() *changeClock {
	return &changeClock{stamps: map[entryKey]stamp{}}
}

// event stamps a tool's, server's or skill's flip.
func (c *changeClock) event(e runtime.Event) {
	if e.Pending != nil || e.At.IsZero() {
		return
	}
	switch e.Type {
	case "tool", "server", "skill":
	default:
		return
	}
	k := entryKey{e.Type, e.Name}
	c.mu.Lock()
	defer c.mu.Unlock()
	if e.State == "removed" {
		delete(c.stamps, k)
		return
	}
	if s, ok := c.stamps[k]; ok {
		c.stamps[k] = stamp{state: e.State, at: e.At, round: s.round}
	} else if len(c.stamps) < maxStamps {
		c.stamps[k] = stamp{state: e.State, at: e.At}
	}
}

// maxStamps bounds what events stamp between two scrapes; a scrape keeps
// one stamp per entry of the manifest whatever this is.
const maxStamps = 1 << 16

// begin starts a scrape; since is called for every entry it finds, then
// end drops the stamps of entries it did not find. The collector holds
// its own lock across them.
func (c *changeClock) begin() {
	c.mu.Lock()
	c.round++
	c.mu.Unlock()
}

// since returns when kind's name took state, stamping it now (at checked,
// the run behind the answer, or else at now) if state is new.
func (c *changeClock) since(kind, name, state string, checked, now time.Time) time.Time {
	k := entryKey{kind, name}
	c.mu.Lock()
	defer c.mu.Unlock()
	s, ok := c.stamps[k]
	if !ok || s.state != state {
		s = stamp{state: state, at: checked}
		if checked.IsZero() {
			s.at = now
		}
	}
	s.round = c.round
	c.stamps[k] = s
	return s.at
}

func (c *changeClock) end() {
	c.mu.Lock()
	defer c.mu.Unlock()
	for k, s := range c.stamps {
		if s.round != c.round {
			delete(c.stamps, k)
		}
	}
}
