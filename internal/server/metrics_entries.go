package server

import (
	"time"

	"github.com/gate-dev/gate/runtime"
	"github.com/prometheus/client_golang/prometheus"
)

// entryStates are the values of the one-hot state label of a tool or
// server, in the order they are written.
var entryStates = []string{string(runtime.StateAvailable), string(runtime.StateUnavailable), string(runtime.StateError)}

// entryDescs are the series of one tool, or one server, labelled by its
// manifest name: the manifest bounds them, and a reload that drops the
// entry drops its series, since they are read from the service at scrape
// time. No label carries text a probe or a peer wrote: the reason is the
// code, from runtime's closed set.
type entryDescs struct {
	kind     string // "tool" or "server": the runtime.Event type
	label    string // the label that names it
	up       *prometheus.Desc
	state    *prometheus.Desc
	reason   *prometheus.Desc
	changed  *prometheus.Desc
	duration *prometheus.Desc
}

func newEntryDescs(kind, label string) *entryDescs {
	name := "gate_" + kind + "_"
	one := []string{label}
	return &entryDescs{
		kind:     kind,
		label:    label,
		up:       prometheus.NewDesc(name+"up", "1 when the "+kind+" is available now (a graced answer included), 0 when not.", one, nil),
		state:    prometheus.NewDesc(name+"state", "1 for the "+kind+"'s current state (available, unavailable, error), 0 for the others.", []string{label, "state"}, nil),
		reason:   prometheus.NewDesc(name+"reason", "1 with the code (runtime.Codes, a closed set) of why the "+kind+" is not available now; no series while it is.", []string{label, "code"}, nil),
		changed:  prometheus.NewDesc(name+"last_change_timestamp_seconds", "When the "+kind+"'s state last changed (unix seconds): the probe run that changed it, or the first answer gate saw.", one, nil),
		duration: prometheus.NewDesc(name+"probe_duration_seconds", "How long the probe run behind the "+kind+"'s current answer took; no series for one without a probe.", one, nil),
	}
}

func (d *entryDescs) describe(ch chan<- *prometheus.Desc) {
	for _, desc := range []*prometheus.Desc{d.up, d.state, d.reason, d.changed, d.duration} {
		ch <- desc
	}
}

// collect writes the series of every answer in sts, stamping their
// changes on clock.
func (d *entryDescs) collect(ch chan<- prometheus.Metric, sts []runtime.Status, clock *changeClock, labels *labelCache, now time.Time) {
	for _, st := range sts {
		l := labels.of(d.kind, d.label, st.Name, entryStates)
		if l == nil {
			continue
		}
		sample(ch, d.up, l.name, boolValue(st.Available()))
		for i, s := range entryStates {
			sample(ch, d.state, l.states[i], boolValue(string(st.State) == s))
		}
		if !st.Available() {
			sample(ch, d.reason, l.code(string(closedCode(st.Code))), 1)
		}
		sample(ch, d.changed, l.name, unixSeconds(clock.since(d.kind, st.Name, string(st.State), st.CheckedAt, now)))
		if st.HasProbe && !st.CheckedAt.IsZero() { // it has answered
			sample(ch, d.duration, l.name, st.Latency.Seconds())
		}
	}
}

// closedCode is c when it is one of runtime's closed set, else the
// generic code: a host app's own Prober could put any string in a Result.
func closedCode(c runtime.Code) runtime.Code {
	if c.Action() == "" {
		return runtime.CodeUnavailable
	}
	return c
}

func boolValue(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

func unixSeconds(t time.Time) float64 {
	return float64(t.UnixNano()) / 1e9
}
