package runtime

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gate-dev/gate/hostfuncs"
)

// DefaultTTL and DefaultGrace are how long an answer is reused and how
// long a last good answer survives failing re-probes after its TTL.
const (
	DefaultTTL   = 30 * time.Second
	DefaultGrace = 30 * time.Second
)

// Tool is something a model may call: its name, description and the JSON
// Schema of its parameters, as the model's API wants them, and the probe
// that says whether it can run now (nil: always).
type Tool struct {
	Name        string
	Description string
	// Parameters is a JSON Schema object; nil means no parameters.
	Parameters json.RawMessage
	Probe      Prober
	// Policy, when not nil, is how this tool's answers turn into what is
	// listed, in place of the registry's (GateConfig.WithPolicy).
	Policy *Policy
}

// Clock tells the registry the time. Tests pass a clock they move by hand
// to walk through TTLs and grace windows.
type Clock interface {
	Now() time.Time
}

type systemClock struct{}

func (systemClock) Now() time.Time { return time.Now() }

// registryConfig configures a Registry; like EngineConfig it is immutable
// and each With method returns a changed copy.
type registryConfig struct {
	ttl, grace time.Duration
	clock      Clock
	logger     *slog.Logger
	kind       string
	background bool
	observer   Observer
	policy     Policy
}

// newRegistryConfig returns the defaults: TTL and grace of 30 s, the
// system clock, no logger (nothing is logged), and "tool" as the noun in
// log messages. Its With methods are GateConfig's (documented there),
// and the two a Gate and a Service set themselves.
func newRegistryConfig() registryConfig {
	return registryConfig{ttl: DefaultTTL, grace: DefaultGrace, clock: systemClock{}, kind: "tool"}
}

func (c registryConfig) WithTTL(d time.Duration) registryConfig   { c.ttl = d; return c }
func (c registryConfig) WithGrace(d time.Duration) registryConfig { c.grace = d; return c }
func (c registryConfig) WithClock(clock Clock) registryConfig     { c.clock = clock; return c }
func (c registryConfig) WithLogger(l *slog.Logger) registryConfig { c.logger = l; return c }
func (c registryConfig) WithPolicy(p Policy) registryConfig       { c.policy = p; return c }
func (c registryConfig) WithObserver(o Observer) registryConfig   { c.observer = o; return c }

// WithKind sets the noun in log messages and errors: "tool" or "server".
func (c registryConfig) WithKind(kind string) registryConfig { c.kind = kind; return c }

// WithBackgroundRefresh makes reads never wait for a probe once a tool
// has an answer: they serve its latest answer (fresh or not), and
// RefreshDue, called by a long-running service, re-probes each tool before
// its answer expires. The availability rules are unchanged (TTL, grace,
// negative caching); only who runs the probes is. Off by default: a
// one-shot reader (gatectl check) probes what is stale itself.
func (c registryConfig) WithBackgroundRefresh(on bool) registryConfig { c.background = on; return c }

// Observer is told what a registry does, for metrics. Its methods are
// called synchronously (the registry's lock is not held) and must be
// quick.
type Observer interface {
	// Probed reports one probe run: the outcome, and the answer the
	// registry made of it (st.Graced when it served last-good).
	Probed(kind string, res Result, st Status)
	// Read reports one read (ListAvailable, Status): probed is how many
	// probes it had to run or wait for, 0 when every answer came from the
	// cache.
	Read(kind string, probed int)
}

// Registry holds tools (or servers) and decides which are available now.
// It caches every probe's answer for the TTL, serves a recent good answer
// through a failing re-probe for the grace window, never runs a probe under
// its lock, runs at most one probe per tool at a time however many callers
// wait, and probes the stale tools together, up to the places among the
// runs in flight (EngineConfig.WithMaxRuns): a read of many stale tools
// whose probes all wait out their budgets takes a budget for each
// max-runs of them, and no answer depends on how many there are. A read of fresh answers
// takes no lock and allocates nothing. It is safe for concurrent use.
type Registry struct {
	cfg    registryConfig
	logger *slog.Logger
	noun   string // "Tool" or "Server", for messages

	mu      sync.Mutex
	entries map[string]*entry
	order   []*entry
	// spare are entries reserved for the tools a Gate is about to
	// register, allocated together (see reserve).
	spare []entry

	version atomic.Uint64 // bumped whenever what ListAvailable or Status returns may change (Version)
	snap    atomic.Pointer[snapshot]

	// nativeRuns are the places of the NativeProbe runs in flight (see
	// startProbes), made with the first.
	nativeOnce sync.Once
	nativeRuns cpuSlots

	subsMu  sync.Mutex // orders deliveries; guards subs
	subs    map[int]subscriber
	nextSub int
}

// entry is one registered tool and its availability state, guarded by
// Registry.mu.
type entry struct {
	tool Tool
	// label is Status.Probe: what the manifest wrote for the tool's probe,
	// "" for a tool registered in code.
	label string

	listed      int8 // 0 not yet answered, 1 available, -1 hidden: for Change
	answered    bool // last is set
	gone        bool // unregistered, replaced or cleared: its answers change nothing listed
	hasCache    bool // last is the cached answer, from last.checkedAt
	hasSuccess  bool
	lastSuccess time.Time
	// last is the latest answer that was not graced, which a fresh cache
	// serves; graced is the latest answer if it was graced (rare, so kept
	// apart: a registry may hold 10,000 entries, and a Status is nearly
	// twice the size of an answer).
	last   answer
	graced *Status
	flight *flight

	// flips is what the tool's policy counts; nil while its policy takes
	// every answer at once (the default), which needs no count.
	flips *policyCount
}

// policyCount is what a policy counts between answers.
type policyCount struct {
	// streak counts the answers in a row that disagree with what is
	// served, toward the policy's threshold; pending is the latest of
	// them, nil when the latest answer agreed.
	streak    int32
	pending   *Pending
	flippedAt time.Time // the last flip, for the hold-down
}

// pending is the flip under way, if any.
func (e *entry) pending() *Pending {
	if e.flips == nil {
		return nil
	}
	return e.flips.pending
}

// current is the answer served now, graced or not, with the flip under
// way if there is one.
func (e *entry) current() Status {
	var st Status
	if e.graced != nil {
		st = *e.graced
	} else {
		st = e.last.status(e)
	}
	st.Pending = e.pending()
	return st
}

// answer is a probed tool's Status as its entry keeps it: the name is the
// tool's, it has a probe, and it was not graced.
type answer struct {
	state     uint8 // an index into answerStates
	late      bool  // Status.Late, kept so that a cached read says it too
	reason    string
	err       error
	latency   time.Duration
	checkedAt time.Time
	code      Code
	// denied is Status.Denied, nil when none: a pointer, as nearly every
	// answer has none and an entry is counted in bytes.
	denied *[]hostfuncs.Denial
}

var answerStates = [...]State{StateAvailable, StateUnavailable, StateError}

func answerOf(st Status) answer {
	a := answer{late: st.Late, reason: st.Reason, err: st.Err, latency: st.Latency, checkedAt: st.CheckedAt, code: st.Code}
	if len(st.Denied) > 0 {
		denied := st.Denied
		a.denied = &denied
	}
	switch st.State { // the index of st.State in answerStates
	case StateUnavailable:
		a.state = 1
	case StateError:
		a.state = 2
	}
	return a
}

func (a answer) available() bool { return answerStates[a.state] == StateAvailable }

// status is a as e's Status.
func (a answer) status(e *entry) Status {
	st := Status{Name: e.tool.Name, State: answerStates[a.state], Late: a.late, Reason: a.reason, Err: a.err,
		Latency: a.latency, HasProbe: true, CheckedAt: a.checkedAt, Code: a.code, Probe: e.label}
	if a.denied != nil {
		st.Denied = *a.denied
	}
	return st
}

// flight is one probe run that any number of callers wait for. The read
// that starts it waits for its whole batch (see startProbes); done is made
// (under Registry.mu) only by a read that waits for a flight it did not
// start, and closed when the flight finishes. Its answer is its entry's
// from then on: what settle made of it (e.current()), or a later run's if
// another has settled since, which a reader reads under Registry.mu. A
// flight that kept a Status of its own was a cold listing's largest
// allocation, 152 bytes a tool, and a copy under the lock.
type flight struct {
	finished atomic.Bool // the entry has the answer, and subscribers have heard
	done     chan struct{}
}

// snapshot is the answer of the last full read, reused while nothing has
// changed and no cached answer in it has expired.
type snapshot struct {
	version    uint64
	validUntil time.Time
	tools      []Tool
}

// NewRegistry returns an empty registry.
func newRegistry(cfg registryConfig) *Registry {
	if cfg.clock == nil {
		cfg.clock = systemClock{}
	}
	logger := cfg.logger
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	noun := "Tool"
	if cfg.kind == "server" {
		noun = "Server"
	}
	return &Registry{cfg: cfg, logger: logger, noun: noun, entries: map[string]*entry{}}
}

// Register adds t. A name that exists is refused (ErrExists) unless
// overwrite is set. Overwriting with a different probe evicts the cached
// answer and the last success, so a broken replacement cannot ride its
// predecessor's health; re-registering the same probe instance keeps them.
func (r *Registry) Register(t Tool, overwrite bool) error {
	return r.register(t, "", overwrite)
}

// register is Register with the label Status.Probe reports (Open's, from
// the manifest).
func (r *Registry) register(t Tool, label string, overwrite bool) error {
	if t.Name == "" {
		return fmt.Errorf("register %s: empty name", r.cfg.kind)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	old, exists := r.entries[t.Name]
	switch {
	case exists && !overwrite:
		return fmt.Errorf("register %s %q: %w (pass overwrite to replace it)", r.cfg.kind, t.Name, ErrExists)
	case exists && sameProbe(old.tool.Probe, t.Probe):
		old.tool, old.label = t, label
	case exists:
		e := &entry{tool: t, label: label}
		old.gone = true
		r.entries[t.Name] = e
		for i, o := range r.order {
			if o == old {
				r.order[i] = e
			}
		}
	default:
		var e *entry
		if len(r.spare) > 0 {
			e, r.spare = &r.spare[0], r.spare[1:]
			e.tool, e.label = t, label
		} else {
			e = &entry{tool: t, label: label}
		}
		r.entries[t.Name] = e
		r.order = append(r.order, e)
	}
	r.version.Add(1)
	if r.logger.Enabled(context.Background(), slog.LevelDebug) {
		r.logger.Debug(fmt.Sprintf("Registered %s: %s", r.cfg.kind, t.Name))
	}
	return nil
}

// sameProbe reports whether a and b are the same probe instance. Probes
// of types that cannot be compared (a func-backed type) count as different.
func sameProbe(a, b Prober) (same bool) {
	defer func() {
		if recover() != nil {
			same = false
		}
	}()
	return a == b
}

// reserve makes room for n more tools, so that registering a manifest's
// 10,000 does not grow the map and the order again and again.
func (r *Registry) reserve(n int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.entries) == 0 {
		r.entries = make(map[string]*entry, n)
	}
	r.order = slices.Grow(r.order, n)
	// One allocation for n entries rather than n: a tenth of a 50,000-tool
	// check's allocations were entries.
	r.spare = make([]entry, n)
}

// Unregister removes the tool and its cached state; false if it was not
// registered.
func (r *Registry) Unregister(name string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	e, ok := r.entries[name]
	if !ok {
		return false
	}
	delete(r.entries, name)
	e.gone = true
	for i, o := range r.order {
		if o == e {
			r.order = append(r.order[:i:i], r.order[i+1:]...)
			break
		}
	}
	r.version.Add(1)
	return true
}

// Clear removes every tool and all cached state.
func (r *Registry) Clear() {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, e := range r.order {
		e.gone = true
	}
	r.entries = map[string]*entry{}
	r.order = nil
	r.version.Add(1)
}

// Version changes whenever what Status answers may have changed: an
// answer stored (a refresh that says what the last one said included:
// its checked_at and latency are new), a flip held back by a policy, a
// tool registered, replaced or removed. While it stays the same, Status
// (of a registry with background refresh, whose reads never probe once
// every tool has an answer) answers the same. It is a cheap change
// signal for a caller that renders Status once per change.
func (r *Registry) Version() uint64 { return r.version.Load() }

// Now is the time on the registry's clock (WithClock), the clock of its
// answers' CheckedAt and NextProbe.
func (r *Registry) Now() time.Time { return r.cfg.clock.Now() }

// Get returns the tool registered under name.
func (r *Registry) Get(name string) (Tool, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	e, ok := r.entries[name]
	if !ok {
		return Tool{}, false
	}
	return e.tool, true
}

// Len returns how many tools are registered.
func (r *Registry) Len() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.order)
}

// List returns every registered tool, available or not, in registration
// order.
func (r *Registry) List() []Tool {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make([]Tool, len(r.order))
	for i, e := range r.order {
		out[i] = e.tool
	}
	return out
}
