package server

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/gate-dev/gate/runtime"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestMetricsObserver feeds the observer by hand: every label it sets.
func TestMetricsObserver(t *testing.T) {
	m := NewMetrics()
	var _ runtime.Observer = m

	overrun := &runtime.ProbeError{Probe: "spin", Kind: runtime.KindOverrun, Err: context.DeadlineExceeded}
	m.Probed("tool", runtime.Result{Outcome: runtime.Available, Elapsed: 20 * time.Microsecond}, runtime.Status{State: runtime.StateAvailable})
	m.Probed("tool", runtime.Result{Outcome: runtime.Unavailable, Elapsed: time.Millisecond}, runtime.Status{State: runtime.StateUnavailable})
	m.Probed("tool", runtime.Result{Outcome: runtime.Failed, Err: overrun, Elapsed: 100 * time.Millisecond}, runtime.Status{State: runtime.StateError})
	m.Probed("tool", runtime.Result{Outcome: runtime.Failed, Err: errors.New("trap")}, runtime.Status{State: runtime.StateAvailable, Graced: true})
	m.Probed("server", runtime.Result{Outcome: runtime.Failed, Err: fmt.Errorf("wrapped: %w", overrun)}, runtime.Status{State: runtime.StateError})
	m.Probed("widget", runtime.Result{Outcome: runtime.Available}, runtime.Status{State: runtime.StateAvailable})
	m.Read("tool", 0)
	m.Read("tool", 0)
	m.Read("tool", 3)
	m.Read("server", 1)
	for _, e := range []runtime.Event{
		{Type: "tool", State: "unavailable"}, {Type: "tool", State: "available"},
		{Type: "server", State: "error"}, {Type: "skill", State: "degraded"},
		{Type: "reload", State: "ok"}, {Type: "reload", State: "error"}, {Type: "reload", State: "error"},
	} {
		m.event(e)
	}

	for _, c := range []struct {
		metric prometheus.Metric
		want   float64
	}{
		{m.probeRuns.WithLabelValues("tool", "available"), 1},
		{m.probeRuns.WithLabelValues("tool", "unavailable"), 1},
		{m.probeRuns.WithLabelValues("tool", "error"), 2},
		{m.probeRuns.WithLabelValues("server", "error"), 1},
		{m.probeRuns.WithLabelValues("widget", "available"), 1},
		{m.overruns.WithLabelValues("tool"), 1},
		{m.overruns.WithLabelValues("server"), 1},
		{m.graced.WithLabelValues("tool"), 1},
		{m.graced.WithLabelValues("server"), 0},
		{m.reads.WithLabelValues("tool", "cache"), 2},
		{m.reads.WithLabelValues("tool", "probe"), 1},
		{m.reads.WithLabelValues("server", "probe"), 1},
		{m.stateChanges.WithLabelValues("tool"), 2},
		{m.stateChanges.WithLabelValues("server"), 1},
		{m.stateChanges.WithLabelValues("skill"), 1},
		{m.reloads.WithLabelValues("ok"), 1},
		{m.reloads.WithLabelValues("error"), 2},
	} {
		assert.Equal(t, c.want, value(t, c.metric), c.metric.Desc().String())
	}

	families, err := m.Registry.Gather()
	require.NoError(t, err)
	for _, f := range families {
		if f.GetName() != "gate_probe_duration_seconds" {
			continue
		}
		for _, metric := range f.Metric {
			if metric.Label[0].GetValue() == "tool" {
				h := metric.Histogram
				assert.Equal(t, uint64(4), h.GetSampleCount())
				assert.Equal(t, 1e-5, h.Bucket[0].GetUpperBound())
				assert.Equal(t, 0.1, h.Bucket[len(h.Bucket)-1].GetUpperBound())
				assert.Equal(t, uint64(1), h.Bucket[0].GetCumulativeCount(), "the run of 0 s, alone under 10 µs")
			}
		}
	}
}
