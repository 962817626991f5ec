package mcpgw

import (
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// metrics are the gateway's Prometheus series (docs/MCP.md, "Metrics");
// every method is a no-op when no registerer was configured.
type metrics struct {
	calls   *prometheus.CounterVec
	latency *prometheus.HistogramVec
	up      *prometheus.GaugeVec
	ready   *prometheus.GaugeVec
	upTools *prometheus.GaugeVec
	tools   *prometheus.GaugeVec
	changes prometheus.Counter
	breaker *prometheus.GaugeVec
	opens   *prometheus.CounterVec
}

// callBuckets run from 100 µs (a loopback call to a trivial tool) to a
// minute, the default call timeout.
var callBuckets = []float64{100e-6, 250e-6, 500e-6, 1e-3, 2.5e-3, 5e-3, 10e-3, 25e-3, 50e-3, 100e-3, 250e-3, 500e-3, 1, 2.5, 5, 10, 30, 60}

func newMetrics(reg prometheus.Registerer) *metrics {
	if reg == nil {
		return nil
	}
	m := &metrics{
		calls: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "gate_mcp_calls_total",
			Help: "tools/call requests the MCP gateway answered, by upstream server (empty for a tool not offered), tool (empty for a name the gateway does not know) and outcome.",
		}, []string{"server", "tool", "outcome"}),
		latency: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "gate_mcp_call_duration_seconds",
			Help:    "Time from a forwarded tools/call to its upstream's answer, by server.",
			Buckets: callBuckets,
		}, []string{"server"}),
		up: prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Name: "gate_mcp_upstream_state",
			Help: "1 for each upstream server's current state (connecting, ready, down), 0 for the others.",
		}, []string{"server", "state"}),
		ready: prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Name: "gate_mcp_upstream_up",
			Help: "1 when the upstream server is ready (its session is up), 0 when not, by server.",
		}, []string{"server"}),
		upTools: prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Name: "gate_mcp_upstream_tools",
			Help: "Tools of the upstream server the gateway offers now, by server.",
		}, []string{"server"}),
		tools: prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Name: "gate_mcp_tools",
			Help: "Upstream tools the gateway offers now, and those it knows but hides.",
		}, []string{"offered"}),
		changes: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "gate_mcp_list_changes_total",
			Help: "Changes of the offered tools, each sent to every session as one notifications/tools/list_changed.",
		}),
	}
	m.breaker = prometheus.NewGaugeVec(prometheus.GaugeOpts{
		Name: "gate_mcp_breaker_state",
		Help: "1 for each upstream server's breaker's current state (closed, open, half_open), 0 for the others.",
	}, []string{"server", "state"})
	m.opens = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "gate_mcp_breaker_opens_total",
		Help: "Times an upstream server's breaker opened (its forwarded calls kept failing) and hid its tools, by server.",
	}, []string{"server"})
	reg.MustRegister(m.calls, m.latency, m.up, m.ready, m.upTools, m.tools, m.changes, m.breaker, m.opens)
	return m
}

// call counts one call. tool is the offered name, or a hidden one the
// gateway knows: never a name a client made up, which would let any
// client grow the series without bound.
func (m *metrics) call(server, tool, outcome string, d time.Duration) {
	if m == nil {
		return
	}
	m.calls.WithLabelValues(server, tool, outcome).Inc()
	if server != "" && outcome != OutcomeUnavailable {
		m.latency.WithLabelValues(server).Observe(d.Seconds())
	}
}

func (m *metrics) state(server, state string) {
	if m == nil {
		return
	}
	oneOf(m.up, server, state, StateConnecting, StateReady, StateDown)
	up := 0.0
	if state == StateReady {
		up = 1
	}
	m.ready.WithLabelValues(server).Set(up)
}

// serverTools sets how many tools of server the gateway offers now.
func (m *metrics) serverTools(server string, n int) {
	if m == nil {
		return
	}
	m.upTools.WithLabelValues(server).Set(float64(n))
}

// breakerState sets a server's breaker gauge, and counts an opening.
func (m *metrics) breakerState(server, state string) {
	if m == nil {
		return
	}
	oneOf(m.breaker, server, state, BreakerClosed, BreakerOpen, BreakerHalfOpen)
	if state == BreakerOpen {
		m.opens.WithLabelValues(server).Inc()
	}
}

// oneOf sets server's series of g to 1 for state and 0 for the others.
func oneOf(g *prometheus.GaugeVec, server, state string, states ...string) {
	for _, s := range states {
		v := 0.0
		if s == state {
			v = 1
		}
		g.WithLabelValues(server, s).Set(v)
	}
}

// forget drops the series of an upstream the manifest no longer names.
func (m *metrics) forget(server string) {
	if m == nil {
		return
	}
	m.up.DeletePartialMatch(prometheus.Labels{"server": server})
	m.ready.DeletePartialMatch(prometheus.Labels{"server": server})
	m.upTools.DeletePartialMatch(prometheus.Labels{"server": server})
	m.breaker.DeletePartialMatch(prometheus.Labels{"server": server})
	m.opens.DeletePartialMatch(prometheus.Labels{"server": server})
}

func (m *metrics) offered(offered, hidden int) {
	if m == nil {
		return
	}
	m.tools.WithLabelValues("true").Set(float64(offered))
	m.tools.WithLabelValues("false").Set(float64(hidden))
	m.changes.Inc()
}

// countServerTools sets gate_mcp_upstream_tools of every served upstream,
// none offered included: the series are labelled by the manifest's
// [[servers]] names only.
func (g *Gateway) countServerTools(served []servedServer, offered map[string]*offer) {
	if g.metrics == nil {
		return
	}
	n := make(map[*upstream]int, len(served))
	for _, o := range offered {
		n[o.up]++
	}
	for _, s := range served {
		g.metrics.serverTools(s.u.name, n[s.u])
	}
}
