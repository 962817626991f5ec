package server

import (
	"context"
	"errors"
	"net"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gate-dev/gate/runtime"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
)

// probeBuckets run from 10 µs (a reused env probe answers in a few) to
// 100 ms, the largest budget a probe may have: an observation past the last
// bucket is an overrun.
var probeBuckets = []float64{
	10e-6, 25e-6, 50e-6, 100e-6, 250e-6, 500e-6,
	1e-3, 2.5e-3, 5e-3, 10e-3, 25e-3, 50e-3, 100e-3,
}

// scrapeTimeout bounds the reads the state gauges make at scrape time;
// they serve cached answers, so this only matters before the first round.
const scrapeTimeout = 2 * time.Second

// Metrics are gate's Prometheus metrics, on a registry of their own so that
// an embedding program's global registry is left alone. Pass Metrics as the
// runtime.Observer of the Service's registries (GateConfig.WithObserver)
// to count probe runs and reads, and call Watch to count state changes and
// reloads and to fill the state gauges. All methods are safe for concurrent
// use.
type Metrics struct {
	// Registry holds every metric below plus the Go and process
	// collectors; New serves it on /metrics.
	Registry *prometheus.Registry

	probeRuns     *prometheus.CounterVec
	probeCodes    *prometheus.CounterVec
	probeDuration *prometheus.HistogramVec
	byProbeKind   *probeKinds
	overruns      *prometheus.CounterVec
	reads         *prometheus.CounterVec
	graced        *prometheus.CounterVec
	stateChanges  *prometheus.CounterVec
	reloads       *prometheus.CounterVec
	streams       prometheus.Gauge
	overflows     prometheus.Counter
	streamRefuse  *prometheus.CounterVec

	// byKind holds the children for "tool" and "server", resolved once:
	// Read runs on every request, and a label lookup hashes strings.
	byKind map[string]*kindMetrics

	svc     atomic.Pointer[runtime.Service]
	changes *changeClock
	state   *stateCollector
}

type kindMetrics struct {
	runs                   [3]prometheus.Counter // by runtime.Outcome
	duration               prometheus.Observer
	overruns, graced       prometheus.Counter
	cacheReads, probeReads prometheus.Counter
}

// WatchListener exports how many connections l, a listener made by
// Listen, closed at once because it held MaxConns already, all of them
// proven, as gate_http_connections_refused_total (a number that grows says
// the cap is too low for the clients), and how many connections without
// the token it closed to make room, as gate_http_connections_evicted_total
// (one that grows says someone holds connections without using them).
// A listener not made by Listen is ignored. Call it once.
func (m *Metrics) WatchListener(l net.Listener) {
	ll, ok := l.(*limitListener)
	if !ok {
		return
	}
	m.Registry.MustRegister(prometheus.NewCounterFunc(prometheus.CounterOpts{
		Name: "gate_http_connections_refused_total",
		Help: "Connections closed at once because the server held its maximum already, every one of them having shown the token (server.ServerOptions.MaxConns).",
	}, func() float64 { return float64(ll.refused.Load()) }), prometheus.NewCounterFunc(prometheus.CounterOpts{
		Name: "gate_http_connections_evicted_total",
		Help: "Connections that had not yet shown the token, closed to make room for a new one because the server held its maximum (server.ServerOptions.MaxConns).",
	}, func() float64 { return float64(ll.evicted.Load()) }), prometheus.NewCounterFunc(prometheus.CounterOpts{
		Name: "gate_http_connections_peer_refused_total",
		Help: "Connections closed at once because their peer (remote address) held its share of the connections already, every one of them having shown the token (server.ServerOptions.MaxPeerConns).",
	}, func() float64 { return float64(ll.peerRefused.Load()) }), prometheus.NewGaugeFunc(prometheus.GaugeOpts{
		Name: "gate_http_connections",
		Help: "Connections open now (server.ServerOptions.MaxConns bounds them).",
	}, func() float64 { return float64(ll.openNow()) }))
}

// NewMetrics returns the metrics, every series at zero.
func NewMetrics() *Metrics {
	m := &Metrics{
		Registry: prometheus.NewRegistry(),
		probeRuns: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "gate_probe_runs_total",
			Help: "Probe runs, by kind (tool, server) and outcome (available, unavailable, error).",
		}, []string{"kind", "outcome"}),
		probeCodes: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "gate_probe_codes_total",
			Help: "Probe runs that did not answer available, by kind (tool, server) and code (runtime.Codes: a closed set).",
		}, []string{"kind", "code"}),
		probeDuration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "gate_probe_duration_seconds",
			Help:    "How long probe runs took, by kind; the budget is at most 100 ms.",
			Buckets: probeBuckets,
		}, []string{"kind"}),
		overruns: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "gate_probe_overruns_total",
			Help: "Probe runs stopped at their budget, by kind.",
		}, []string{"kind"}),
		reads: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "gate_reads_total",
			Help: "Registry reads, by kind and source: cache (no probe ran or was waited for) or probe.",
		}, []string{"kind", "source"}),
		graced: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "gate_graced_serves_total",
			Help: "Probe runs that raised and were served on the last good answer (grace), by kind.",
		}, []string{"kind"}),
		stateChanges: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "gate_state_changes_total",
			Help: "Published state changes, by type (tool, server, skill, upstream, breaker).",
		}, []string{"type"}),
		reloads: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "gate_reloads_total",
			Help: "Manifest reloads, by result (ok, error).",
		}, []string{"result"}),
		streams: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "gate_event_streams",
			Help: "Event streams (/v1/events) connected now.",
		}),
		overflows: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "gate_event_overflows_total",
			Help: "Event streams closed because their client fell too far behind.",
		}),
		streamRefuse: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "gate_event_streams_refused_total",
			Help: "Event streams (/v1/events) refused: by reason, peer_share (429: the client's peer had its share open, Options.MaxPeerStreams) or total (503: the server had its cap open, Options.MaxStreams).",
		}, []string{"reason"}),
		byKind:  map[string]*kindMetrics{},
		changes: newChangeClock(),
	}
	probeKindDuration := prometheus.NewHistogramVec(prometheus.HistogramOpts{
		Name:    "gate_probe_kind_duration_seconds",
		Help:    "How long probe runs took, by the probe's kind: a standard kind (env, tcp, http, ...), module (a WebAssembly module of the manifest's) or other (a probe registered in code).",
		Buckets: probeBuckets,
	}, []string{"probe_kind"})
	m.byProbeKind = newProbeKinds(probeKindDuration)
	m.state = newStateCollector(&m.svc, m.changes)
	for _, kind := range []string{"tool", "server"} {
		m.byKind[kind] = m.newKind(kind)
	}
	for _, t := range []string{"tool", "server", "skill"} {
		m.stateChanges.WithLabelValues(t)
	}
	m.reloads.WithLabelValues("ok")
	m.reloads.WithLabelValues("error")
	m.streamRefuse.WithLabelValues(refusedPeerShare)
	m.streamRefuse.WithLabelValues(refusedTotal)

	m.Registry.MustRegister(
		m.probeRuns, m.probeCodes, m.probeDuration, m.overruns, m.reads, m.graced,
		m.stateChanges, m.reloads, m.streams, m.overflows, m.streamRefuse,
		probeKindDuration, m.state,
		collectors.NewGoCollector(),
		collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}),
	)
	return m
}

// kind returns the children for kind: resolved once for tool and server,
// on each call for another kind (a host app's own registry).
func (m *Metrics) kind(kind string) *kindMetrics {
	if k, ok := m.byKind[kind]; ok {
		return k
	}
	return m.newKind(kind)
}

func (m *Metrics) newKind(kind string) *kindMetrics {
	k := &kindMetrics{
		duration:   m.probeDuration.WithLabelValues(kind),
		overruns:   m.overruns.WithLabelValues(kind),
		graced:     m.graced.WithLabelValues(kind),
		cacheReads: m.reads.WithLabelValues(kind, "cache"),
		probeReads: m.reads.WithLabelValues(kind, "probe"),
	}
	for _, o := range []runtime.Outcome{runtime.Available, runtime.Unavailable, runtime.Failed} {
		k.runs[o] = m.probeRuns.WithLabelValues(kind, o.String())
	}
	return k
}

// Probed implements runtime.Observer: one probe run.
func (m *Metrics) Probed(kind string, res runtime.Result, st runtime.Status) {
	k := m.kind(kind)
	o := res.Outcome
	if o > runtime.Failed {
		o = runtime.Failed
	}
	k.runs[o].Inc()
	if res.Code != "" {
		// The label takes the closed set's values only: a Result built
		// by a host app's own Prober could carry any string.
		code := res.Code
		if code.Action() == "" {
			code = runtime.CodeUnavailable
		}
		m.probeCodes.WithLabelValues(kind, string(code)).Inc()
	}
	k.duration.Observe(res.Elapsed.Seconds())
	m.byProbeKind.of(st.Probe).observe(res.Elapsed.Seconds())
	if res.Err != nil && errors.Is(res.Err, context.DeadlineExceeded) {
		k.overruns.Inc()
	}
	if st.Graced {
		k.graced.Inc()
	}
}

// Read implements runtime.Observer: one registry read, a cache hit when it
// ran or waited for no probe.
func (m *Metrics) Read(kind string, probed int) {
	k := m.kind(kind)
	if probed == 0 {
		k.cacheReads.Inc()
	} else {
		k.probeReads.Inc()
	}
}

// Watch counts svc's events (state changes and reloads) and makes the
// state gauges (gate_tools, gate_servers, gate_skills, gate_ready, and
// each tool's, server's and skill's own: gate_tool_up and the others)
// read svc at scrape time. The returned function stops counting; the gauges
// keep reading svc until another Watch.
func (m *Metrics) Watch(svc *runtime.Service) (stop func()) {
	m.svc.Store(svc)
	return svc.Subscribe(m.event)
}

func (m *Metrics) event(e runtime.Event) {
	m.changes.event(e)
	switch {
	case e.Pending != nil:
		// An answer a policy held back: not a change of state.
	case e.Type == "tool", e.Type == "server", e.Type == "skill", e.Type == "upstream", e.Type == "breaker":
		m.stateChanges.WithLabelValues(e.Type).Inc()
	case e.Type == "reload":
		m.reloads.WithLabelValues(e.State).Inc()
	}
}

// streamOpened and the others below are the event stream's accounting;
// they accept a nil *Metrics, as New does.
func (m *Metrics) streamOpened() {
	if m != nil {
		m.streams.Inc()
	}
}

func (m *Metrics) streamClosed() {
	if m != nil {
		m.streams.Dec()
	}
}

func (m *Metrics) streamOverflowed() {
	if m != nil {
		m.overflows.Inc()
	}
}

// The reasons of gate_event_streams_refused_total.
const (
	refusedPeerShare = "peer_share"
	refusedTotal     = "total"
)

func (m *Metrics) streamRefused(reason string) {
	if m != nil {
		m.streamRefuse.WithLabelValues(reason).Inc()
	}
}

// stateCollector reports how many tools, servers and skills are in each
// state now, and each one's own series (entryDescs, skillDescs), read from
// the service at scrape time: gauges kept up to date by events would drift
// across reloads, and a scrape is rare next to reads.
type stateCollector struct {
	svc                                    *atomic.Pointer[runtime.Service]
	tools, servers, skills, offered, ready *prometheus.Desc
	tool, server                           *entryDescs
	skill                                  *skillDescs
	changes                                *changeClock
	labels                                 *labelCache
	// scraping serialises scrapes, so that one's end drops no stamp
	// another's since has just set.
	scraping sync.Mutex
	now      func() time.Time
}

func newStateCollector(svc *atomic.Pointer[runtime.Service], changes *changeClock) *stateCollector {
	return &stateCollector{
		svc:     svc,
		tools:   prometheus.NewDesc("gate_tools", "Tools by state now (available includes graced).", []string{"state"}, nil),
		servers: prometheus.NewDesc("gate_servers", "Servers by state now (available includes graced).", []string{"state"}, nil),
		skills:  prometheus.NewDesc("gate_skills", "Skills by state now.", []string{"state"}, nil),
		offered: prometheus.NewDesc("gate_skills_offered", "Skills in the <available_skills> prompt now.", nil, nil),
		ready:   prometheus.NewDesc("gate_ready", "1 once the first round of probes has answered.", nil, nil),
		tool:    newEntryDescs("tool", "tool"),
		server:  newEntryDescs("server", "server"),
		skill:   newSkillDescs(),
		changes: changes,
		labels:  newLabelCache(),
		now:     time.Now,
	}
}

func (c *stateCollector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{c.tools, c.servers, c.skills, c.offered, c.ready} {
		ch <- d
	}
	c.tool.describe(ch)
	c.server.describe(ch)
	c.skill.describe(ch)
}

func (c *stateCollector) Collect(ch chan<- prometheus.Metric) {
	svc := c.svc.Load()
	if svc == nil {
		return // not watching a service: no state to report
	}
	c.scraping.Lock()
	defer c.scraping.Unlock()
	c.changes.begin()
	defer c.changes.end()
	c.labels.begin()
	defer c.labels.end()
	now := c.now()
	ctx, cancel := context.WithTimeout(context.Background(), scrapeTimeout)
	defer cancel()
	g := svc.Gate()
	for _, r := range []struct {
		desc    *prometheus.Desc
		entries *entryDescs
		reg     *runtime.Registry
	}{{c.tools, c.tool, g.Tools()}, {c.servers, c.server, g.Servers()}} {
		counts := map[runtime.State]int{runtime.StateAvailable: 0, runtime.StateUnavailable: 0, runtime.StateError: 0}
		sts, _ := r.reg.Status(ctx)
		for _, st := range sts {
			counts[st.State]++
		}
		for state, n := range counts {
			ch <- prometheus.MustNewConstMetric(r.desc, prometheus.GaugeValue, float64(n), string(state))
		}
		r.entries.collect(ch, sts, c.changes, c.labels, now)
	}
	counts, offered := c.skill.collect(ch, g.Skills(ctx), c.changes, c.labels, now)
	for _, state := range skillStates {
		ch <- prometheus.MustNewConstMetric(c.skills, prometheus.GaugeValue, float64(counts[state]), state)
	}
	ch <- prometheus.MustNewConstMetric(c.offered, prometheus.GaugeValue, float64(offered))
	ready := 0.0
	if svc.Ready() {
		ready = 1
	}
	ch <- prometheus.MustNewConstMetric(c.ready, prometheus.GaugeValue, ready)
}
