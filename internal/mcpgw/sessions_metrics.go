package mcpgw

import "github.com/prometheus/client_golang/prometheus"

// sessionMetrics are the series of the client sessions (docs/MCP.md,
// "Metrics"); every method is a no-op when no registerer was configured.
type sessionMetrics struct {
	drops   *prometheus.CounterVec
	refusal prometheus.Counter
	logs    prometheus.Counter
}

func newSessionMetrics(reg prometheus.Registerer, g *Gateway) *sessionMetrics {
	if reg == nil {
		return nil
	}
	m := &sessionMetrics{
		drops: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "gate_mcp_sessions_dropped_total",
			Help: "MCP client sessions the gateway closed because they fell behind: by reason, overflow (more notifications waiting than the session queue holds) or write_timeout (a write did not complete within the write timeout).",
		}, []string{"reason"}),
		refusal: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "gate_mcp_sessions_refused_total",
			Help: "Requests to /mcp that could have opened a session, refused with 503 because the sessions open and being opened reached the cap, or the gateway was shutting down.",
		}),
		logs: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "gate_mcp_log_messages_dropped_total",
			Help: "Upstream log messages (notifications/message) not sent to a client session because its queue was full.",
		}),
	}
	sessions := prometheus.NewGaugeFunc(prometheus.GaugeOpts{
		Name: "gate_mcp_sessions",
		Help: "MCP client sessions open and initialized now.",
	}, func() float64 { return float64(g.sessions()) })
	reg.MustRegister(m.drops, m.refusal, m.logs, sessions)
	for _, r := range []string{dropOverflow, dropWriteTimeout} {
		m.drops.WithLabelValues(r)
	}
	return m
}

func (m *sessionMetrics) dropped(reason string) {
	if m != nil {
		m.drops.WithLabelValues(reason).Inc()
	}
}

func (m *sessionMetrics) refused() {
	if m != nil {
		m.refusal.Inc()
	}
}

func (m *sessionMetrics) logsDropped(n int) {
	if m != nil {
		m.logs.Add(float64(n))
	}
}
