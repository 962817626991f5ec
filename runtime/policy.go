package runtime

import (
	"math"
	"time"
)

// Policy says how probe answers turn into what is listed: how many
// answers it takes to hide a listed tool or to bring a hidden one back,
// how soon a tool that is not available is probed again, and how long a
// tool that just flipped stays as it is. The zero Policy is the
// reference's table: every answer is taken at once, a hidden tool is
// re-probed after the TTL like any other, and nothing is held.
//
// The names are Kubernetes' (a probe's failureThreshold and
// successThreshold), so that people who run services recognise them.
type Policy struct {
	// FailureThreshold is how many answers in a row that are not
	// available (unavailable, or an error past the grace window) hide a
	// listed tool; 0 and 1 both mean the first. A graced answer is
	// available: grace applies first, the threshold after it.
	FailureThreshold int
	// SuccessThreshold is how many available answers in a row bring a
	// hidden tool back; 0 and 1 both mean the first.
	SuccessThreshold int
	// Retry is how soon a tool is probed again while it is failing:
	// hidden, or listed with a failure counted toward FailureThreshold.
	// 0 means the TTL. A shorter retry shows a service that is back
	// after a restart within seconds, while healthy tools keep the TTL.
	Retry time.Duration
	// HoldDown is how long a tool that just flipped stays as it is,
	// whatever its answers say: they are still counted, and once the
	// hold ends the next answer that agrees with them flips the tool.
	// Each flip of the tool list re-bills a model provider's prompt
	// cache; a hold-down trades freshness for fewer of them. 0: none.
	HoldDown time.Duration
}

// failures is the failure threshold, at least 1.
func (p *Policy) failures() int { return max(p.FailureThreshold, 1) }

// successes is the success threshold, at least 1.
func (p *Policy) successes() int { return max(p.SuccessThreshold, 1) }

// Pending is a flip under way: the latest answers disagree with what is
// served, but are not yet enough of them (Count < Of), or a hold-down
// keeps the tool as it is until HeldUntil. A tool with a Pending answer
// is served as it was.
type Pending struct {
	// State is what the latest answer said.
	State State `json:"state"`
	// Reason is the latest answer's reason.
	Reason string `json:"reason,omitempty"`
	// Count is how many answers in a row disagreed, the latest included.
	Count int `json:"count"`
	// Of is how many flip the tool: its failure threshold for a listed
	// tool, its success threshold for a hidden one.
	Of int `json:"of"`
	// HeldUntil, when not zero, is the end of the hold-down that keeps
	// the tool as it is although Count has reached Of.
	HeldUntil time.Time `json:"held_until,omitzero"`
	// At is when the latest answer's probe run started (the clock's time).
	At time.Time `json:"at"`
	// Code is the latest answer's code (see Code); left out when it was
	// available.
	Code Code `json:"code,omitempty"`
}

// policyOf is the policy that applies to e: its tool's own, or the
// registry's.
func (r *Registry) policyOf(e *entry) *Policy {
	if e.tool.Policy != nil {
		return e.tool.Policy
	}
	return &r.cfg.policy
}

// every is how long an answer served for a tool under pol lasts: the
// TTL, or the retry interval while the tool is failing (it is not
// available, or an answer is counted toward a flip).
func (r *Registry) every(available bool, pending *Pending, pol *Policy) time.Duration {
	if pol.Retry > 0 && (!available || pending != nil) {
		return pol.Retry
	}
	return r.cfg.ttl
}

// staleAt is when an answer served for a tool under pol should be
// probed again: every after its latest probe run (checkedAt, or the
// pending answer's), and no later than the end of a hold-down that keeps
// a flip waiting.
func (r *Registry) staleAt(checkedAt time.Time, available bool, pending *Pending, pol *Policy) time.Time {
	if pending != nil {
		checkedAt = pending.At
	}
	return heldUntil(checkedAt.Add(r.every(available, pending, pol)), pending)
}

// heldUntil is next, or the end of the hold-down of pending if that comes
// first.
func heldUntil(next time.Time, pending *Pending) time.Time {
	if pending != nil && !pending.HeldUntil.IsZero() && pending.HeldUntil.Before(next) {
		return pending.HeldUntil
	}
	return next
}

// hold decides whether the answer st, listed or not as listed says,
// flips e or waits: an answer that disagrees with what is served flips it
// once it is the policy's threshold-th in a row and no hold-down keeps the
// tool as it is; until then it is returned as a Pending, and counted.
// Called with r.mu held; nil means the answer is taken.
func (r *Registry) hold(e *entry, st *Status, listed int8, now time.Time) *Pending {
	pol := r.policyOf(e)
	if pol.failures() == 1 && pol.successes() == 1 && pol.HoldDown <= 0 {
		return nil // every answer is taken: nothing to count
	}
	if e.flips == nil {
		e.flips = &policyCount{}
	}
	if e.listed == 0 || e.listed == listed {
		return nil // the first answer, or one that agrees
	}
	f := e.flips
	of := pol.successes()
	if e.listed == 1 {
		of = pol.failures()
	}
	count := int(f.streak) + 1
	var held time.Time
	if pol.HoldDown > 0 && now.Before(f.flippedAt.Add(pol.HoldDown)) {
		held = f.flippedAt.Add(pol.HoldDown)
	}
	if count >= of && held.IsZero() {
		return nil
	}
	if count < math.MaxInt32 {
		f.streak = int32(count)
	}
	p := &Pending{State: st.State, Reason: st.Reason, Count: count, Of: of, At: now, Code: st.Code}
	if count >= of {
		p.HeldUntil = held
	}
	return p
}
