package runtime

import "time"

// answers takes a read's answers (see Registry.resolve): the Statuses of
// a Status call, or what ListAvailable keeps of them, which is far less.
type answers interface {
	// size is how many entries the read selected, before any answer.
	size(n int)
	// take is the answer for entry i, e, with the registry's lock held:
	// the cached ones in order, then the probed ones, in order.
	take(i int, e *entry, st Status)
}

// statusList keeps every answer, for Status and Refresh, each with when
// its tool is probed next.
type statusList struct {
	r    *Registry
	list []Status
}

func (l *statusList) size(n int) { l.list = make([]Status, n) }

func (l *statusList) take(i int, e *entry, st Status) {
	st.NextProbe = l.r.nextProbeOf(e, &st)
	l.list[i] = st
}

// nextProbeOf is Status.NextProbe of st, e's answer, with r.mu held.
func (r *Registry) nextProbeOf(e *entry, st *Status) time.Time {
	switch {
	case !st.HasProbe || e.flight != nil || !e.answered:
		return time.Time{}
	case r.cfg.background:
		return r.nextProbe(e)
	case st.Graced:
		return time.Time{} // not cached: the next read probes
	}
	return r.staleAt(st.CheckedAt, st.Available(), st.Pending, r.policyOf(e))
}

// discard keeps nothing, for a refresh that only probes.
type discard struct{}

func (discard) size(int) {}

func (discard) take(int, *entry, Status) {}

// listing keeps what ListAvailable needs of a read's answers: which tools
// are listed, and until when the list may be served again without a read.
// A Status a tool was 136 bytes a cold listing allocated, zeroed and
// copied only to read these.
type listing struct {
	r      *Registry
	listed []bool
	count  int // of listed tools
	// validUntil is when the first answer read goes stale; reusable is
	// false when an answer was not cached at all.
	validUntil time.Time
	reusable   bool
}

func (l *listing) size(n int) {
	l.listed = make([]bool, n)
	l.reusable = true
}

func (l *listing) take(i int, e *entry, st Status) {
	if st.Available() {
		l.listed[i] = true
		l.count++
	}
	switch {
	case !st.HasProbe, l.r.cfg.background:
		// In the background the refresher bumps the version with every
		// answer, so the list is good until then.
	case st.Graced:
		// Nothing was cached: the next read probes again, as PraisonAI's
		// registry does, so a recovery shows at once.
		l.reusable = false
	default:
		if until := l.r.staleAt(st.CheckedAt, st.Available(), st.Pending, l.r.policyOf(e)); until.Before(l.validUntil) {
			l.validUntil = until
		}
	}
}
