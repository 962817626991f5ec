package server

import (
	"strings"
	"sync"

	"github.com/gate-dev/gate/internal/probes"
	"github.com/prometheus/client_golang/prometheus"
)

// The probe_kind values that name no standard kind.
const (
	probeKindModule = "module" // a WebAssembly module the manifest names by path
	probeKindOther  = "other"  // a probe registered in code, which only its host app can name
)

// probeKinds holds the probe_kind label's children, one per standard kind
// and the two above, each made at its first run (so a scrape shows the
// kinds the manifest uses) and then reused: Probed runs on every probe
// run, and a label lookup hashes strings.
type probeKinds struct {
	byKind        map[string]*probeKindChild
	module, other *probeKindChild
}

type probeKindChild struct {
	once  sync.Once
	vec   *prometheus.HistogramVec
	label string
	obs   prometheus.Observer
}

func (c *probeKindChild) observe(seconds float64) {
	c.once.Do(func() { c.obs = c.vec.WithLabelValues(c.label) })
	c.obs.Observe(seconds)
}

func newProbeKinds(h *prometheus.HistogramVec) *probeKinds {
	child := func(label string) *probeKindChild { return &probeKindChild{vec: h, label: label} }
	p := &probeKinds{byKind: map[string]*probeKindChild{}, module: child(probeKindModule), other: child(probeKindOther)}
	for _, k := range probes.Kinds() {
		p.byKind[string(k)] = child(string(k))
	}
	return p
}

// of returns the child for the probe runtime.Status.Probe names: its
// standard kind for a shorthand ("env:GITHUB_TOKEN" is env), module for a
// path. The label takes the closed set's values only, so no manifest or
// host app can grow the series.
func (p *probeKinds) of(label string) *probeKindChild {
	if label == "" {
		return p.other
	}
	if kind, _, ok := strings.Cut(label, ":"); ok {
		if c, ok := p.byKind[kind]; ok {
			return c
		}
	}
	return p.module
}
