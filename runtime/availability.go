package runtime

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/gate-dev/gate/hostfuncs"
)

// State is a tool's availability as reported by Status.
type State string

const (
	// StateAvailable: listed for the model.
	StateAvailable State = "available"
	// StateUnavailable: hidden, because the probe said so.
	StateUnavailable State = "unavailable"
	// StateError: hidden, because the probe raised with no recent success
	// to fall back on.
	StateError State = "error"
)

// Status is one tool's answer, and where it came from.
type Status struct {
	Name   string
	State  State
	Reason string
	// Err is the probe's error for StateError and for a graced answer.
	Err error
	// Latency is how long the probe run behind this answer took; 0 for a
	// tool without a probe.
	Latency time.Duration
	// Cached: the answer was reused without running the probe now.
	Cached bool
	// Graced: the probe raised and the tool is served on its last good
	// answer.
	Graced bool
	// HasProbe is false for a tool that is always available.
	HasProbe bool
	// CheckedAt is when the probe run behind this answer started (the
	// clock's time); zero for a tool without a probe.
	CheckedAt time.Time
	// Pending, when not nil, is a flip under way (see Policy): the latest
	// answers disagree with this one, which is still served. Every reader
	// of the answer shares it: read it, do not modify it.
	Pending *Pending
	// Late: the probe run behind this answer came after its budget on the
	// wall clock because the machine kept it off the CPU; it used less
	// than its budget, and its answer stands (see Result.Late).
	Late bool
	// Code is the stable reason of an unavailable answer or an error (see
	// Code), and the error's for a graced answer; "" when available.
	Code Code
	// Probe names the tool's probe for people, as its manifest wrote it:
	// the shorthand ("env:GITHUB_TOKEN") or the module's path relative to
	// the working directory. It is "" for a tool without a probe and for
	// one registered in code (Registry.Register), whose probe only the
	// host app can name. Open sets it once, when it builds the probe.
	Probe string
	// Denied are the requests that the grants of the probe run behind this
	// answer refused (Result.Denied), the run's own for a graced answer;
	// nil when none, as for nearly every answer. A probe denied what it
	// needs often says something vaguer ("not configured"): this says
	// what to grant. Shared by every reader of the answer: read it, do not
	// modify it.
	Denied []hostfuncs.Denial
	// NextProbe is the soonest the registry probes the tool again of its
	// own accord (the clock's time; see Registry.Now): with a background
	// refresh, when the refresher takes it, ahead of the answer's expiry;
	// otherwise when the answer goes stale. Retry intervals and hold-downs
	// are in it. Until then the answer cannot change, except by a forced
	// Refresh or a reload. Zero when the registry cannot say: a tool
	// without a probe (its answer never changes), a probe under way, or an
	// answer that is not reused (the next read probes). Set by Status and
	// Refresh only.
	NextProbe time.Time
}

// Available reports whether the tool is listed.
func (s Status) Available() bool { return s.State == StateAvailable }

// ListAvailable returns the tools that can run now, in registration order.
// Fresh answers come from the cache; stale ones are probed, together (see
// startProbes).
// The returned slice is shared with other callers until the answer
// changes: read it, do not modify it.
func (r *Registry) ListAvailable(ctx context.Context) []Tool {
	now := r.cfg.clock.Now()
	if s := r.snap.Load(); s != nil && s.version == r.version.Load() && now.Before(s.validUntil) {
		r.observeRead(0)
		return s.tools
	}
	version := r.version.Load()
	l := &listing{r: r, validUntil: now.Add(100 * 365 * 24 * time.Hour)} // nothing cached: valid until a change
	entries, probed := r.resolve(ctx, now, nil, false, l)
	r.observeRead(probed)
	tools := make([]Tool, 0, l.count)
	for i, e := range entries {
		if l.listed[i] {
			tools = append(tools, e.tool)
		}
	}
	if l.reusable && ctx.Err() == nil {
		r.snap.Store(&snapshot{version: version, validUntil: l.validUntil, tools: tools})
	}
	return tools
}

// Status answers for the named tools (all of them when none are named),
// from the cache where it is fresh and by probing where it is not; an
// unknown name is an error. Refresh ignores the cache.
func (r *Registry) Status(ctx context.Context, names ...string) ([]Status, error) {
	return r.status(ctx, names, false)
}

// Refresh probes the named tools (all of them when none are named) now,
// whatever their cached answers, and returns the new answers.
func (r *Registry) Refresh(ctx context.Context, names ...string) ([]Status, error) {
	return r.status(ctx, names, true)
}

func (r *Registry) status(ctx context.Context, names []string, force bool) ([]Status, error) {
	if len(names) > 0 {
		r.mu.Lock()
		for _, n := range names {
			if _, ok := r.entries[n]; !ok {
				r.mu.Unlock()
				return nil, fmt.Errorf("no %s named %q", r.cfg.kind, n)
			}
		}
		r.mu.Unlock()
	}
	statuses := statusList{r: r}
	_, probed := r.resolve(ctx, r.cfg.clock.Now(), names, force, &statuses)
	r.observeRead(probed)
	return statuses.list, nil
}

// RefreshDue probes, together, every tool whose answer is about to
// expire, and waits for them; a service calls it every tick (see
// WithBackgroundRefresh). A tool is due a fifth of its TTL before its
// answer expires, less a jitter of up to a tenth of the TTL fixed per
// tool, so that tools registered together are not probed together; a
// tool served on its last good answer is due again by the end of its
// grace window at the latest. It returns how many tools it probed.
func (r *Registry) RefreshDue(ctx context.Context) int {
	now := r.cfg.clock.Now()
	r.mu.Lock()
	var due []string
	for _, e := range r.order {
		if e.tool.Probe != nil && e.flight == nil && (!e.answered || !now.Before(r.nextProbe(e))) {
			due = append(due, e.tool.Name)
		}
	}
	r.mu.Unlock()
	if len(due) > 0 {
		r.resolve(ctx, now, due, true, discard{})
	}
	return len(due)
}

// nextProbe is when a refresher should probe e again: ahead of its
// answer's expiry (the TTL, or the retry interval while it is failing) by
// a fifth of that interval less the jitter, by the end of its grace
// window if it is served graced, and when a hold-down that keeps a flip
// waiting ends.
func (r *Registry) nextProbe(e *entry) time.Time {
	current := e.current()
	latest := current.CheckedAt
	if current.Pending != nil {
		latest = current.Pending.At
	}
	every := r.every(current.Available(), current.Pending, r.policyOf(e))
	margin := every/5 + time.Duration(uint64(every/10)*uint64(nameHash(e.tool.Name)%1024)/1024)
	next := latest.Add(every - margin)
	if current.Graced {
		if end := e.lastSuccess.Add(r.cfg.ttl + r.cfg.grace); end.Before(next) {
			next = end
		}
	}
	return heldUntil(next, current.Pending)
}

// nameHash is FNV-1a: a stable spread of names for the jitter.
func nameHash(s string) uint32 {
	h := uint32(2166136261)
	for i := 0; i < len(s); i++ {
		h ^= uint32(s[i])
		h *= 16777619
	}
	return h
}

// resolve answers for the selected entries, which it returns, and hands
// each answer to out (see answers): tools without a probe are available,
// fresh cached answers are reused, and every other tool is probed, each
// by one flight that all callers share, all flights at once (see
// startProbes). Probes run outside the lock, and the entries are read
// under it lockChunk at a time, so that a read of 10,000 tools does not
// keep the probes' answers (settle) waiting for all of them.
func (r *Registry) resolve(ctx context.Context, now time.Time, names []string, force bool, out answers) ([]*entry, int) {
	r.mu.Lock()
	var entries []*entry
	if names == nil {
		entries = append(entries, r.order...)
	} else {
		for _, n := range names {
			if e, ok := r.entries[n]; ok {
				entries = append(entries, e)
			}
		}
	}
	out.size(len(entries))
	flights := make([]*flight, len(entries))
	var waits []chan struct{} // for flights another read started, if any
	var jobs []probeJob
	var slab []flight // this read's flights, allocated together
	for i, e := range entries {
		if i > 0 && i%lockChunk == 0 {
			r.mu.Unlock()
			r.mu.Lock()
		}
		switch {
		case e.tool.Probe == nil:
			out.take(i, e, Status{Name: e.tool.Name, State: StateAvailable, Probe: e.label})
		case !force && r.cfg.background && e.answered:
			st := e.current()
			st.Cached = true
			out.take(i, e, st)
		case !force && e.pending() == nil && e.hasCache && now.Before(r.staleAt(e.last.checkedAt, e.last.available(), nil, r.policyOf(e))):
			st := e.last.status(e)
			st.Cached = true
			out.take(i, e, st)
		case !force && e.pending() != nil && now.Before(r.staleAt(e.flips.pending.At, e.listed == 1, e.flips.pending, r.policyOf(e))):
			// A flip under way: the answer served is the one before it.
			st := e.current()
			st.Cached = true
			out.take(i, e, st)
		default:
			f := e.flight
			if f == nil {
				if len(slab) == 0 {
					slab = make([]flight, len(entries)-i)
				}
				f, slab = &slab[0], slab[1:]
				e.flight = f
				if jobs == nil {
					jobs = make([]probeJob, 0, len(entries)-i)
				}
				jobs = append(jobs, probeJob{e, f})
			} else {
				if f.done == nil {
					f.done = make(chan struct{})
				}
				if waits == nil {
					waits = make([]chan struct{}, len(entries))
				}
				waits[i] = f.done
			}
			flights[i] = f
		}
	}
	r.mu.Unlock()
	// This read's own flights are waited for all together (see
	// startProbes), others' one by one.
	if all := r.startProbes(context.WithoutCancel(ctx), jobs, now); all != nil {
		select {
		case <-all:
		case <-ctx.Done():
		}
	}

	probed := 0
	for i, f := range flights {
		if f == nil {
			continue
		}
		probed++
		if !f.finished.Load() && waits != nil && waits[i] != nil {
			select {
			case <-waits[i]:
			case <-ctx.Done():
			}
		}
	}
	if probed == 0 {
		return entries, 0
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	for i, f := range flights {
		if i > 0 && i%lockChunk == 0 {
			r.mu.Unlock()
			r.mu.Lock()
		}
		switch {
		case f == nil:
		case f.finished.Load():
			out.take(i, entries[i], entries[i].current())
		default:
			out.take(i, entries[i], Status{Name: entries[i].tool.Name, State: StateError, HasProbe: true, Probe: entries[i].label,
				Err: ctx.Err(), Reason: "gave up waiting for the probe: " + ctx.Err().Error(), Code: CodeCanceled})
		}
	}
	return entries, probed
}

// lockChunk is how many entries a read handles under one hold of the
// registry's lock.
const lockChunk = 256

// observeRead tells the observer about a read that had to wait for probed
// probes (0: all answers from the cache).
func (r *Registry) observeRead(probed int) {
	if r.cfg.observer != nil {
		r.cfg.observer.Read(r.cfg.kind, probed)
	}
}

// probe runs e's probe once and applies the answer, following the
// behaviour table of PraisonAI's tool registry, except that the grace
// window ends at last success + TTL + grace, not last success + grace
// (see registryConfig.WithGrace):
//
//   - available: cached for the TTL; the last success is stamped;
//   - unavailable: cached for the TTL; never served from last-good;
//   - error within the grace window (now before last success + TTL +
//     grace): the last good answer is served, nothing is cached and the
//     last success is not refreshed, so the window cannot be stretched;
//   - error otherwise: hidden and cached for the TTL, with a warning.
func (r *Registry) probe(ctx context.Context, e *entry, f *flight, now time.Time) {
	r.settle(ctx, e, f, now, e.tool.Probe.Run(ctx))
}

// settle applies res, the answer of a run of e's probe that started at
// now, as probe describes, and ends the flight f.
func (r *Registry) settle(ctx context.Context, e *entry, f *flight, now time.Time, res Result) {
	st := Status{Name: e.tool.Name, HasProbe: true, Latency: res.Elapsed, CheckedAt: now, Reason: res.Reason, Code: res.Code,
		Probe: e.label, Denied: res.Denied}
	st.Late = res.Late
	var log func()
	name := e.tool.Name

	// The messages are made only for a logger that wants them: formatting
	// one a tool was a tenth of a cold listing, for a discarding logger.
	debug := r.logger.Enabled(ctx, slog.LevelDebug)
	r.mu.Lock()
	switch res.Outcome {
	case Available:
		st.State = StateAvailable
		e.hasCache = true
		e.hasSuccess, e.lastSuccess = true, now
	case Unavailable:
		st.State = StateUnavailable
		e.hasCache = true
		if res.Reason != "" && debug {
			log = func() { r.logger.Debug(fmt.Sprintf("%s '%s' unavailable: %s", r.noun, name, res.Reason)) }
		}
	default:
		st.Err = res.Err
		if e.hasSuccess && now.Before(e.lastSuccess.Add(r.cfg.ttl+r.cfg.grace)) {
			st.State, st.Graced = StateAvailable, true
			log = func() {
				if !debug {
					return
				}
				r.logger.Debug(fmt.Sprintf("Availability check failed for %s '%s' but serving last-good within grace window: %s", r.cfg.kind, name, res.Reason))
			}
		} else {
			st.State = StateError
			e.hasCache = true
			log = func() {
				r.logger.Warn(fmt.Sprintf("Availability check failed for %s '%s': %s", r.cfg.kind, name, res.Reason))
			}
		}
	}
	listed := int8(-1)
	if st.Available() {
		listed = 1
	}
	pending := r.hold(e, &st, listed, now)
	switch {
	case pending != nil:
		// The tool stays as it was; the answer waits in e.flips.
		e.flips.pending = pending
		st = e.current()
	case st.Graced:
		graced := st // a copy, so that st stays off the heap
		e.graced = &graced
	default:
		e.last, e.graced = answerOf(st), nil
	}
	if pending == nil {
		if f := e.flips; f != nil {
			f.streak, f.pending = 0, nil
			if e.listed != 0 && e.listed != listed {
				f.flippedAt = now
			}
		}
	}
	e.answered = true
	e.flight = nil
	var change *Change
	if !e.gone {
		r.version.Add(1)
		switch {
		case pending != nil:
			change = &Change{Kind: r.cfg.kind, Name: name, Available: e.listed == 1, State: st.State, Reason: st.Reason, Graced: st.Graced, At: now, Pending: pending, Code: st.Code}
		case e.listed != 0 && e.listed != listed:
			change = &Change{Kind: r.cfg.kind, Name: name, Available: listed == 1, State: st.State, Reason: st.Reason, Graced: st.Graced, At: now, Code: st.Code}
		}
		if pending == nil {
			e.listed = listed
		}
	}
	waiters := f.done
	r.mu.Unlock()
	// Log before waking the waiters, outside the lock (a handler may be
	// slow), so that a reader's answer and its log line go together.
	if log != nil {
		log()
	}
	if r.cfg.observer != nil {
		r.cfg.observer.Probed(r.cfg.kind, res, st)
	}
	// The answer is recorded first, so a read that a subscriber makes
	// once told shows the change; readers that waited for this probe get
	// their answer after the subscribers have heard.
	if change != nil {
		r.notify(change)
	}
	f.finished.Store(true)
	if waiters != nil {
		close(waiters)
	}
}

// Change is a tool (or server) whose availability flipped: it was listed
// and now is not, or the other way round. A graced answer counts as
// listed.
type Change struct {
	Kind      string // "tool" or "server"
	Name      string
	Available bool // listed now
	State     State
	Reason    string
	Graced    bool
	// At is the clock's time of the probe run that noticed.
	At time.Time
	// Pending is nil for a flip. Only a Service's events see the others:
	// an answer that disagrees with what is served, counted toward the
	// tool's threshold or held by its hold-down (see Policy); the tool is
	// served as it was (Available, State and Reason are what is served).
	Pending *Pending
	// Code is the Code of the Status served (see Status.Code).
	Code Code
}

// Subscribe calls fn for every Change from now on, in the order the
// registry noticed them, one call at a time, from the goroutine that ran
// the probe; so fn should be quick (hand the change to a channel if it is
// not), and must not subscribe or unsubscribe. The answer is recorded
// before fn is called, so a read made once fn has been called shows the
// change, and readers that waited for the probe get their answer after fn
// has returned; a read that did not wait (the probe was a refresh ahead of
// expiry) may show it a moment before. The first answer about a tool is
// not a change: read ListAvailable or Status for the starting point.
// Changes are noticed when a probe runs: when a read finds an answer
// stale, or when a refresher re-probes it before it expires (RefreshDue,
// which a Gate with OnChange subscribers and a Service's Run call every
// tick). fn hears of flips only, never of a Pending answer. The returned
// function unsubscribes.
func (r *Registry) Subscribe(fn func(Change)) (unsubscribe func()) {
	return r.subscribe(fn, false)
}

// subscribe is Subscribe, and with pending set fn also hears of answers
// that did not flip the tool because of its policy.
func (r *Registry) subscribe(fn func(Change), pending bool) (unsubscribe func()) {
	r.subsMu.Lock()
	defer r.subsMu.Unlock()
	if r.subs == nil {
		r.subs = map[int]subscriber{}
	}
	id := r.nextSub
	r.nextSub++
	r.subs[id] = subscriber{fn, pending}
	return func() {
		r.subsMu.Lock()
		delete(r.subs, id)
		r.subsMu.Unlock()
	}
}

type subscriber struct {
	fn      func(Change)
	pending bool
}

func (r *Registry) notify(c *Change) {
	r.subsMu.Lock()
	defer r.subsMu.Unlock()
	for _, s := range r.subs {
		if c.Pending == nil || s.pending {
			s.fn(*c)
		}
	}
}
