package mcpgw

import (
	"fmt"
	"sync"
	"time"

	"github.com/gate-dev/gate/internal/manifest"
)

// States of a server's breaker, as the gateway publishes and exports them
// (docs/MCP.md, "The breaker").
const (
	BreakerClosed   = "closed"    // calls go through; failures in a row are counted
	BreakerOpen     = "open"      // the server's tools are hidden
	BreakerHalfOpen = "half_open" // the tools are offered again; the next answer decides
)

// maxCooldownDoublings caps how often a failed trial doubles the
// cool-down: 8 times the manifest's at most (4 minutes at the default), so
// that a server down for hours is tried every few minutes, not once a day.
const maxCooldownDoublings = 3

// health is what one forwarded call says of its upstream, for the
// upstream's breaker.
type health int

const (
	// healthNone: the call says nothing of the upstream (the client
	// cancelled it, gate refused it or never sent it, gate is shutting
	// down).
	healthNone health = iota
	// healthOK: the upstream answered, whatever it answered: a result,
	// one with isError, a JSON-RPC error. A tool's own answer is not its
	// server's health.
	healthOK
	// healthFault: the server's own failure, whoever saw it: a
	// connection to it could not be made, the session was lost mid-call,
	// gate's own ping failed at the transport (a 5xx, a reset). Any
	// client's call, or gate's ping, shows it alike.
	healthFault
	// healthCallFault: a client's call answered with an HTTP 5xx, or
	// whose connection broke during it. It may be the server's failure,
	// or what that client's arguments make of one tool or of a proxy: it
	// counts only when more than one client sees it (breaker.record).
	healthCallFault
)

// A call that timed out, or was answered a 4xx or a 429, is none of
// these: it is that call's failure, which its client is told, and says
// nothing of the server (a busy server that answers pings is alive). So
// no one client can hide a server from the others.

// breakerPolicy is the breaker settings of one server: the gateway's
// (Config.WithBreaker), overridden by its manifest entry's breaker table.
type breakerPolicy struct {
	failures         int // 0: no breaker
	window, cooldown time.Duration
}

// policyFor is the breaker policy of a server whose manifest entry has b
// (nil when it has no breaker table).
func (c Config) policyFor(b *manifest.Breaker) breakerPolicy {
	p := breakerPolicy{failures: c.breakerFailures, window: c.breakerWindow, cooldown: c.breakerCooldown}
	if b != nil {
		if b.Failures != nil {
			p.failures = *b.Failures
		}
		if b.Window != nil {
			p.window = *b.Window
		}
		if b.Cooldown != nil {
			p.cooldown = *b.Cooldown
		}
	}
	return p
}

// probeAnswer is the last answer of a server's probe, as the breaker
// reads it.
type probeAnswer struct {
	has       bool // the server has a probe
	available bool
	at        time.Time // when the probe run behind the answer started
}

// breakerChange is a change of a breaker's state, to publish.
type breakerChange struct {
	state string
	why   string
}

// breaker is the circuit breaker of one upstream's forwarded calls. It
// opens after policy.failures failures in a row (healthFault,
// healthCallFault) within policy.window, when at least one of them is
// the server's own (healthFault) or they come from two clients or more;
// open, it hides the upstream's tools. It closes when the
// server's probe, having said unavailable since it opened, says available
// again. When no probe saw the failure (the server has none, or its probe
// cannot see what the calls saw), it half-opens once the cool-down has
// passed and the upstream's session is ready: the tools are offered, and
// the next answer closes it, or the next failure opens it again with the
// cool-down doubled. It is pure: the clock is the caller's.
type breaker struct {
	mu    sync.Mutex
	state string
	// fails are the failures in a row, oldest first, none older than
	// policy.window before the newest.
	fails []failure
	// Set while open or half-open.
	openedAt  time.Time
	retryAt   time.Time // when a trial may begin
	woken     time.Time // the retryAt settle last asked to be woken at
	confirmed bool      // a probe run since it opened said unavailable
	trips     int       // failed trials since it last closed
	why       string    // why it opened
}

// failure is one failure in a row: when, and the client whose call saw
// it (nil for the server's own, healthFault).
type failure struct {
	at  time.Time
	who any
}

func newBreaker() *breaker { return &breaker{state: BreakerClosed} }

// record counts one verdict at now, and returns the change of state it
// made, if any. fault says what failed; who is the client whose call saw
// a healthCallFault (its session).
func (b *breaker) record(now time.Time, p breakerPolicy, h health, fault string, who any) (breakerChange, bool) {
	if h == healthNone || p.failures <= 0 {
		return breakerChange{}, false
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.state == BreakerOpen {
		// The answers of calls sent before it opened say nothing new.
		return breakerChange{}, false
	}
	if h == healthOK {
		if b.state == BreakerHalfOpen {
			b.close()
			return breakerChange{state: BreakerClosed, why: "a trial call was answered"}, true
		}
		b.fails = b.fails[:0]
		return breakerChange{}, false
	}
	if h == healthFault {
		who = nil
	}
	keep := 0
	for keep < len(b.fails) && now.Sub(b.fails[keep].at) > p.window {
		keep++
	}
	b.fails = append(b.fails[keep:], failure{at: now, who: who})
	if n := len(b.fails) - p.failures; n > 0 {
		// Only the last policy.failures decide: one client's own run of
		// failures is bounded too.
		b.fails = append(b.fails[:0], b.fails[n:]...)
	}
	if !b.servers() {
		// One client's calls alone never hide a server from the others.
		return breakerChange{}, false
	}
	if b.state == BreakerHalfOpen {
		b.trips++
		return b.open(now, p, fmt.Sprintf("a trial call failed too (last: %s)", fault)), true
	}
	if len(b.fails) < p.failures {
		return breakerChange{}, false
	}
	return b.open(now, p, fmt.Sprintf("%d calls in a row failed (last: %s)", len(b.fails), fault)), true
}

// alive counts an answer to gate's own ping: a closed breaker's failures
// in a row end, as they end with a call's answer. It does not close a
// half-open one: a call decides that.
func (b *breaker) alive() {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.state == BreakerClosed {
		b.fails = b.fails[:0]
	}
}

// servers reports whether the failures in a row are the server's: one
// of them is its own (healthFault), or they come from two clients or
// more.
func (b *breaker) servers() bool {
	var first any
	for _, f := range b.fails {
		switch {
		case f.who == nil:
			return true
		case first == nil:
			first = f.who
		case f.who != first:
			return true
		}
	}
	return false
}

func (b *breaker) open(now time.Time, p breakerPolicy, why string) breakerChange {
	b.state, b.openedAt, b.confirmed, b.why = BreakerOpen, now, false, why
	b.retryAt = now.Add(p.cooldown << min(b.trips, maxCooldownDoublings))
	b.fails = b.fails[:0]
	return breakerChange{state: BreakerOpen, why: why}
}

func (b *breaker) close() {
	b.state, b.trips, b.why, b.confirmed = BreakerClosed, 0, "", false
	b.fails = b.fails[:0]
}

// settle moves an open breaker on at now, given the server's last probe
// answer and whether its session is ready; it returns the change it made,
// if any, and when it should be settled again (zero: only when something
// else changes, or it asked for that time already).
func (b *breaker) settle(now time.Time, p breakerPolicy, probe probeAnswer, ready bool) (change breakerChange, changed bool, wake time.Time) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.state == BreakerClosed {
		return breakerChange{}, false, time.Time{}
	}
	if p.failures <= 0 {
		b.close()
		return breakerChange{state: BreakerClosed, why: "the breaker was turned off"}, true, time.Time{}
	}
	if b.state != BreakerOpen {
		return breakerChange{}, false, time.Time{}
	}
	if probe.has && !probe.at.Before(b.openedAt) {
		if !probe.available {
			b.confirmed = true
		} else if b.confirmed {
			b.close()
			return breakerChange{state: BreakerClosed, why: "its probe says available again"}, true, time.Time{}
		}
	}
	if b.confirmed {
		// The probe saw the failure: its next "available" closes it.
		return breakerChange{}, false, time.Time{}
	}
	if now.Before(b.retryAt) {
		if b.woken.Equal(b.retryAt) {
			return breakerChange{}, false, time.Time{} // already asked
		}
		b.woken = b.retryAt
		return breakerChange{}, false, b.retryAt
	}
	if !ready {
		// The session coming back pokes the gateway.
		return breakerChange{}, false, time.Time{}
	}
	b.state = BreakerHalfOpen
	return breakerChange{state: BreakerHalfOpen, why: fmt.Sprintf("the cool-down of %v passed: the next call is a trial", b.retryAt.Sub(b.openedAt))}, true, time.Time{}
}

// hiding returns why the breaker hides its server's tools, or "" when it
// does not.
func (b *breaker) hiding() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.state != BreakerOpen {
		return ""
	}
	return b.why
}

// changesAt is when the breaker's cool-down ends and, its session ready,
// it half-opens: set while it is open and no probe has confirmed the
// failure (one that has waits for the probe); zero otherwise.
func (b *breaker) changesAt() time.Time {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.state != BreakerOpen || b.confirmed {
		return time.Time{}
	}
	return b.retryAt
}

// current returns the breaker's state.
func (b *breaker) current() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.state
}
