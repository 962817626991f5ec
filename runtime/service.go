package runtime

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gate-dev/gate/internal/manifest"
)

// ServiceConfig configures a Service; immutable, like the other configs.
type ServiceConfig struct {
	gate   GateConfig
	tick   time.Duration
	watch  time.Duration
	settle time.Duration
	retire time.Duration
}

// Defaults of NewServiceConfig.
const (
	// DefaultWatchInterval is how often the manifest is polled when the
	// platform has no file events; with them it is polled ten times less
	// often, as a safety net for events lost (network file systems).
	DefaultWatchInterval = time.Second
	// DefaultSettleDelay is how long a changed manifest must stay the
	// same before it is loaded: editors write a file in well under that,
	// and a half-written file must never be served.
	DefaultSettleDelay = 200 * time.Millisecond
)

// NewServiceConfig returns the defaults: the GateConfig defaults, a
// refresh tick of a tenth of the TTL (between 50 ms and 1 s), the manifest
// watched (DefaultWatchInterval, DefaultSettleDelay), and a Gate replaced
// by a reload closed at once (see WithRetireDelay).
func NewServiceConfig() ServiceConfig {
	return ServiceConfig{gate: NewGateConfig(), watch: DefaultWatchInterval, settle: DefaultSettleDelay}
}

// WithGate sets the configuration of the Gates the service opens (every
// reload opens a new one); the service turns background refresh on.
func (c ServiceConfig) WithGate(g GateConfig) ServiceConfig { c.gate = g; return c }

// WithTick sets how often the service looks for answers about to expire;
// 0 means a tenth of the TTL, between 50 ms and 1 s.
func (c ServiceConfig) WithTick(d time.Duration) ServiceConfig { c.tick = d; return c }

// WithWatchInterval sets how often the manifest file is polled for
// changes when there are no file events (ten times less often when there
// are); 0 turns watching off (Reload still works).
func (c ServiceConfig) WithWatchInterval(d time.Duration) ServiceConfig { c.watch = d; return c }

// WithSettleDelay sets how long a changed manifest must stay unchanged
// before the watcher loads it; 0 means DefaultSettleDelay.
func (c ServiceConfig) WithSettleDelay(d time.Duration) ServiceConfig { c.settle = d; return c }

// WithRetireDelay sets how long a Gate replaced by a reload is kept open
// before it is closed; 0, the default, closes it at once. Closing is safe
// for requests still reading it: they read answers already cached (the
// service probes ahead, so reads never run probes), and Close waits for
// the probes that still run before it frees anything. A reload storm must
// not keep a Gate's worth of instances per reload alive meanwhile.
func (c ServiceConfig) WithRetireDelay(d time.Duration) ServiceConfig { c.retire = d; return c }

// Event is one change a service publishes: a tool, server or skill that
// changed state, or a reload.
type Event struct {
	// Type is "tool", "server", "skill" or "reload", or a type a part
	// built on the service publishes ("upstream", "breaker" and "drift",
	// by the MCP gateway).
	Type string `json:"type"`
	// Name is the tool, server or skill; the manifest path for a reload.
	Name string `json:"name"`
	// State: for tools and servers available, unavailable or error; for
	// skills active, degraded or unavailable; for a reload ok or error.
	State string `json:"state"`
	// Available: a tool or server is listed, a skill is offered in the
	// prompt.
	Available bool      `json:"available"`
	Reason    string    `json:"reason,omitempty"`
	Graced    bool      `json:"graced,omitempty"`
	At        time.Time `json:"at"`
	// Trigger, for a reload: "watch" when the watcher saw the manifest
	// change, "reload" when Reload was called (SIGHUP in gatectl serve).
	Trigger string `json:"trigger,omitempty"`
	// Pending, for a tool or server, is an answer its policy held back
	// (see Policy): the event is not a flip, and State, Available and
	// Reason are what is still served.
	Pending *Pending `json:"pending,omitempty"`
	// Code is the stable reason of a tool, server or upstream that is not
	// available (see Code); "" when it is.
	Code Code `json:"-"`
}

// Service keeps a Gate fresh for a long-running process (gatectl serve,
// an agent gateway): answers are re-probed in the background before they
// expire, so a read never waits for a probe; the manifest is re-read when
// it changes or on Reload, and a bad one is reported while the last good
// configuration keeps serving; every change of a tool, server or skill is
// published to subscribers. The availability rules (TTL, grace, negative
// caching) are those of the Registry.
type Service struct {
	path   string
	cfg    ServiceConfig
	limits manifest.Limits

	gate      atomic.Pointer[Gate]
	ready     atomic.Bool
	watchMode atomic.Value // string: WatchOff until the watcher starts

	// reloadMu makes reloads (the watcher's, Reload's) one at a time, so
	// that an older file never replaces a newer one. It is held across
	// reading and compiling, which is why nothing else takes it.
	reloadMu sync.Mutex

	mu         sync.Mutex // guards what follows; never held across I/O
	reloadedAt time.Time
	reloadErr  error
	sum        [sha256.Size]byte // of the content last loaded or refused
	skills     map[string]skillMark
	unsub      func()
	// retiring are Gates replaced by a reload and not closed yet, each
	// with the timer that will close it; Close closes them at once.
	retiring map[*Gate]*time.Timer
	// closed: Close has run, and a reload that finishes after it installs
	// nothing (its Gate would never be closed).
	closed bool

	subsMu sync.Mutex
	subs   map[int]func(Event)
	nextID int
}

// OpenService opens the manifest at path. Nothing is probed until Run.
func OpenService(ctx context.Context, path string, cfg ServiceConfig) (*Service, error) {
	cfg.gate.registry = cfg.gate.registry.WithBackgroundRefresh(true)
	if cfg.settle <= 0 {
		cfg.settle = DefaultSettleDelay
	}
	s := &Service{path: path, cfg: cfg, limits: manifest.DefaultLimits()}
	s.watchMode.Store(WatchOff)
	snap := readManifest(path, s.limits)
	g, err := s.open(ctx, snap)
	if err != nil {
		return nil, err
	}
	s.sum = snap.sum
	s.reloadedAt = time.Now()
	s.install(g)
	return s, nil
}

// open parses a manifestFile of the manifest and opens its Gate.
func (s *Service) open(ctx context.Context, snap manifestFile) (*Gate, error) {
	m, err := s.parse(snap)
	if err != nil {
		return nil, err
	}
	return openManifest(ctx, m, s.cfg.gate)
}

func (s *Service) parse(snap manifestFile) (*manifest.Manifest, error) {
	if snap.err != nil {
		return nil, snap.err
	}
	return manifest.ParseWithLimits(s.path, snap.src, s.limits)
}

// WatchMode says how the manifest is being watched: WatchInotify,
// WatchPoll or WatchOff (before Run, or with a watch interval of 0).
func (s *Service) WatchMode() string { return s.watchMode.Load().(string) }

func (s *Service) lastSum() [sha256.Size]byte {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.sum
}

// Gate returns the Gate serving now; a reload replaces it.
func (s *Service) Gate() *Gate { return s.gate.Load() }

// Ready reports whether every tool and server has been probed once.
func (s *Service) Ready() bool { return s.ready.Load() }

// LastReload returns when the manifest was last read and, if the last
// attempt failed, why (the configuration read before keeps serving).
func (s *Service) LastReload() (time.Time, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.reloadedAt, s.reloadErr
}

// install makes g the serving Gate and forwards its flips.
func (s *Service) install(g *Gate) {
	if s.unsub != nil {
		s.unsub()
	}
	s.gate.Store(g)
	s.unsub = g.onChange(func(c Change) {
		s.publish(Event{Type: c.Kind, Name: c.Name, State: string(c.State), Available: c.Available, Reason: c.Reason, Graced: c.Graced, At: c.At, Pending: c.Pending, Code: codeIfHidden(c.Available, c.Code)})
	}, true)
}

// Run probes everything once (then Ready reports true), and until ctx is
// done re-probes answers before they expire and watches the manifest
// (see WithWatchInterval: a change is loaded once the file has settled).
// It returns ctx's error once the watcher and any reload it started have
// stopped.
func (s *Service) Run(ctx context.Context) error {
	s.firstRound(ctx, s.Gate())
	s.ready.Store(true)

	var wg sync.WaitGroup
	defer wg.Wait()
	if s.cfg.watch > 0 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s.watch(ctx, func(snap manifestFile) { _ = s.reload(ctx, &snap, true) })
		}()
	}
	refreshEvery(ctx, s.tickInterval(), func() { s.refresh(ctx) })
	return ctx.Err()
}

func (s *Service) tickInterval() time.Duration {
	if s.cfg.tick > 0 {
		return s.cfg.tick
	}
	return refreshInterval(s.Gate().tools.cfg.ttl)
}

// firstRound probes every tool and server of g and records its skills'
// states, without publishing them: they are the starting point.
func (s *Service) firstRound(ctx context.Context, g *Gate) {
	var wg sync.WaitGroup
	for _, r := range []*Registry{g.tools, g.servers} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, _ = r.Refresh(ctx)
		}()
	}
	wg.Wait()
	s.mu.Lock()
	s.skills = s.skillMarks(ctx, g)
	s.mu.Unlock()
}

// refresh is one tick: re-probe what is due, then publish skills whose
// state or offer changed.
func (s *Service) refresh(ctx context.Context) {
	g := s.Gate()
	g.refreshDue(ctx)

	// The marks are computed before the lock is taken: the skills of a
	// Gate are validated there, which must not keep a reload waiting.
	marks := s.skillMarks(ctx, g)
	s.mu.Lock()
	if s.Gate() != g { // a reload replaced g meanwhile
		s.mu.Unlock()
		return
	}
	events := s.skillEvents(s.skills, marks)
	s.skills = marks
	s.mu.Unlock()
	for _, e := range events {
		s.publish(e)
	}
}

// Reload reads the manifest again, now. On success the new configuration
// is probed once, then replaces the old one (which is closed once the
// probes it still runs have stopped), and tools, servers and skills whose
// state differs are published. On failure the old configuration keeps
// serving and the error is returned, published as a "reload" event and
// kept for LastReload. An edit that looks half-written (every tool gone,
// a tool's probe gone) is refused: see ErrSuspectEdit.
func (s *Service) Reload(ctx context.Context) error {
	return s.reload(ctx, nil, false)
}

// reload loads the manifest: settled, the watcher's settled content (auto)
// or, when nil, the file as it is once the reload's turn has come.
func (s *Service) reload(ctx context.Context, settled *manifestFile, auto bool) error {
	s.reloadMu.Lock()
	defer s.reloadMu.Unlock()
	snap := readManifest(s.path, s.limits)
	if settled != nil && settled.sum != snap.sum {
		// The file changed again while another reload ran: the watcher
		// has seen that change too and will load it once it settles, and
		// loading the older content now could replace a newer one.
		return nil
	}

	fail := func(err error) error {
		s.mu.Lock()
		s.sum, s.reloadErr = snap.sum, err
		s.mu.Unlock()
		s.publish(Event{Type: "reload", Name: s.path, State: "error", Reason: err.Error(), At: time.Now(), Trigger: trigger(auto)})
		return fmt.Errorf("reload %s: %w (the previous configuration keeps serving)", s.path, err)
	}
	m, err := s.parse(snap)
	if err != nil {
		return fail(err)
	}
	if err := suspectEdit(s.path, s.Gate().manifest, m); err != nil {
		return fail(err)
	}
	ng, err := openManifest(ctx, m, s.cfg.gate)
	if err != nil {
		return fail(err)
	}
	s.firstRound(ctx, ng)
	if err := ctx.Err(); err != nil {
		// Stopped midway (the process is shutting down): the new Gate may
		// not have an answer for everything, and nobody will serve it.
		_ = ng.Close(context.WithoutCancel(ctx))
		return fmt.Errorf("reload %s: %w", s.path, err)
	}

	old := s.Gate()
	before, after := listed(ctx, old), listed(ctx, ng)
	marks := s.skillMarks(ctx, ng)
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		_ = ng.Close(context.WithoutCancel(ctx))
		return fmt.Errorf("reload %s: %w", s.path, ErrClosed)
	}
	skillEvents := s.skillEvents(s.skills, marks)
	s.skills = marks
	s.install(ng)
	s.sum, s.reloadErr, s.reloadedAt = snap.sum, nil, time.Now()
	s.mu.Unlock()

	for _, e := range flips(before, after, ng.tools.cfg.clock.Now()) {
		s.publish(e)
	}
	for _, e := range skillEvents {
		s.publish(e)
	}
	s.publish(Event{Type: "reload", Name: s.path, State: "ok", Available: true, At: time.Now(), Trigger: trigger(auto)})
	s.retire(old)
	return nil
}

func trigger(auto bool) string {
	if auto {
		return "watch"
	}
	return "reload"
}

// retire closes a replaced Gate after the retire delay, when requests that
// started on it are done. Closing it stops its probes that still run and
// waits for them before anything is freed, so the delay is a courtesy to
// those requests, not what keeps memory safe.
func (s *Service) retire(old *Gate) {
	s.mu.Lock()
	closed := s.closed
	if !closed {
		if s.retiring == nil {
			s.retiring = map[*Gate]*time.Timer{}
		}
		s.retiring[old] = time.AfterFunc(s.cfg.retire, func() {
			s.mu.Lock()
			delete(s.retiring, old)
			s.mu.Unlock()
			_ = old.Close(context.Background())
		})
	}
	s.mu.Unlock()
	if closed {
		// Close has come and gone: nothing would close old later.
		_ = old.Close(context.Background())
	}
}

// listed is every tool and server of g with its current status, keyed by
// "kind/name".
func listed(ctx context.Context, g *Gate) map[string]Status {
	out := map[string]Status{}
	for kind, r := range map[string]*Registry{"tool": g.tools, "server": g.servers} {
		sts, _ := r.Status(ctx)
		for _, st := range sts {
			out[kind+"/"+st.Name] = st
		}
	}
	return out
}

// flips are the events that take a subscriber from before to after: what
// changed availability, what appeared available and what went away.
func flips(before, after map[string]Status, at time.Time) []Event {
	var keys []string
	for k := range before {
		keys = append(keys, k)
	}
	for k := range after {
		if _, ok := before[k]; !ok {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	var events []Event
	for _, k := range keys {
		b, hadB := before[k]
		a, hasA := after[k]
		kind, name := splitKey(k)
		switch {
		case !hasA && hadB && b.Available():
			events = append(events, Event{Type: kind, Name: name, State: "removed", At: at})
		case hasA && (!hadB || b.Available() != a.Available()):
			events = append(events, Event{Type: kind, Name: name, State: string(a.State), Available: a.Available(), Reason: a.Reason, Graced: a.Graced, At: at, Code: codeIfHidden(a.Available(), a.Code)})
		}
	}
	return events
}

func splitKey(k string) (kind, name string) {
	for i := 0; i < len(k); i++ {
		if k[i] == '/' {
			return k[:i], k[i+1:]
		}
	}
	return "", k
}

// Subscribe calls fn for every Event from now on, one at a time, in
// order. fn must be quick (hand the event to a channel) and must not
// subscribe or unsubscribe. The returned function unsubscribes.
func (s *Service) Subscribe(fn func(Event)) (unsubscribe func()) {
	s.subsMu.Lock()
	defer s.subsMu.Unlock()
	if s.subs == nil {
		s.subs = map[int]func(Event){}
	}
	id := s.nextID
	s.nextID++
	s.subs[id] = fn
	return func() {
		s.subsMu.Lock()
		delete(s.subs, id)
		s.subsMu.Unlock()
	}
}

// Publish sends e to every subscriber, as the service's own events are:
// for parts built on the service that have changes of their own to
// report (the MCP gateway publishes its upstreams' states as events of
// type "upstream"). Like Subscribe's fn, it must not be called from a
// subscriber.
func (s *Service) Publish(e Event) { s.publish(e) }

func (s *Service) publish(e Event) {
	s.subsMu.Lock()
	defer s.subsMu.Unlock()
	for _, fn := range s.subs {
		fn(e)
	}
}

// Close closes the serving Gate and those replaced by reloads that are
// not closed yet; each stops its running probes and waits for them first
// (see Engine.Close).
func (s *Service) Close(ctx context.Context) error {
	s.mu.Lock()
	s.closed = true
	if s.unsub != nil {
		s.unsub()
	}
	gates := []*Gate{s.Gate()}
	for old, timer := range s.retiring {
		if timer.Stop() {
			gates = append(gates, old)
		}
	}
	s.retiring = nil
	s.mu.Unlock()
	if gates[0] == nil {
		return errors.New("service not open")
	}
	errs := make([]error, len(gates))
	var wg sync.WaitGroup
	for i, g := range gates {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = g.Close(ctx)
		}()
	}
	wg.Wait()
	return errors.Join(errs...)
}
