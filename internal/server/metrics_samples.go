package server

import (
	"unicode/utf8"

	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"
)

// gaugeSample is one gauge of a scrape, its label pairs shared with every
// other scrape: prometheus.NewConstMetric would build and check them anew
// for each of the thousands of series a large manifest makes, which was
// most of the cost of a scrape that the collector itself added.
type gaugeSample struct {
	desc   *prometheus.Desc
	labels []*dto.LabelPair // sorted by name; never modified (the registry's contract)
	value  float64
	gauge  dto.Gauge
}

func (s *gaugeSample) Desc() *prometheus.Desc { return s.desc }

func (s *gaugeSample) Write(m *dto.Metric) error {
	s.gauge.Value = &s.value
	m.Label, m.Gauge = s.labels, &s.gauge
	return nil
}

func sample(ch chan<- prometheus.Metric, desc *prometheus.Desc, labels []*dto.LabelPair, v float64) {
	ch <- &gaugeSample{desc: desc, labels: labels, value: v}
}

// entryLabels are the label pairs of one tool's (server's, skill's)
// series, made when a scrape first finds it.
type entryLabels struct {
	name   []*dto.LabelPair            // tool="x"
	states [][]*dto.LabelPair          // state="...",tool="x", in the order of the states
	codes  map[string][]*dto.LabelPair // code="...",tool="x", made at the code's first use
	round  uint64
}

// labelCache holds the entryLabels of the entries the last scrape found.
// Only the collector uses it, under its scraping lock.
type labelCache struct {
	entries map[entryKey]*entryLabels
	round   uint64
}

func newLabelCache() *labelCache {
	return &labelCache{entries: map[entryKey]*entryLabels{}}
}

func (c *labelCache) begin() { c.round++ }

// of returns the label pairs of kind's name, whose name label is label
// and whose states are states; nil for a name Prometheus would refuse
// (not UTF-8), which then has no series rather than failing the scrape.
func (c *labelCache) of(kind, label, name string, states []string) *entryLabels {
	k := entryKey{kind, name}
	if e, ok := c.entries[k]; ok {
		e.round = c.round
		return e
	}
	if !utf8.ValidString(name) {
		return nil
	}
	e := &entryLabels{name: []*dto.LabelPair{pair(label, name)}, codes: map[string][]*dto.LabelPair{}, round: c.round}
	for _, s := range states {
		e.states = append(e.states, pairsWith(label, name, "state", s))
	}
	c.entries[k] = e
	return e
}

// code returns the pairs of the reason code, one of a closed set.
func (e *entryLabels) code(code string) []*dto.LabelPair {
	p, ok := e.codes[code]
	if !ok {
		p = pairsWith(e.name[0].GetName(), e.name[0].GetValue(), "code", code)
		e.codes[code] = p
	}
	return p
}

func (c *labelCache) end() {
	for k, e := range c.entries {
		if e.round != c.round {
			delete(c.entries, k)
		}
	}
}

func pair(name, value string) *dto.LabelPair {
	return &dto.LabelPair{Name: &name, Value: &value}
}

// pairsWith returns the pairs of the entry's label and one other, sorted
// by name as the registry wants them.
func pairsWith(label, name, other, value string) []*dto.LabelPair {
	if other < label {
		return []*dto.LabelPair{pair(other, value), pair(label, name)}
	}
	return []*dto.LabelPair{pair(label, name), pair(other, value)}
}
