package server

import (
	"testing"
	"time"

	"github.com/gate-dev/gate/runtime"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestProbeKindLabel: the probe_kind label takes a standard kind's name,
// module or other, whatever the manifest or a host app names its probe.
func TestProbeKindLabel(t *testing.T) {
	m := NewMetrics()
	for _, c := range []struct{ probe, kind string }{
		{"env:GITHUB_TOKEN", "env"},
		{"tcp:127.0.0.1:5432", "tcp"},
		{"http:https://example.test/health", "http"},
		{"probes/db.wasm", probeKindModule},
		{"/abs/probes/db.wasm", probeKindModule},
		{"nosuchkind:whatever", probeKindModule},
		{"", probeKindOther},
	} {
		assert.Equal(t, c.kind, m.byProbeKind.of(c.probe).label, c.probe)
	}

	m.Probed("tool", runtime.Result{Outcome: runtime.Available, Elapsed: time.Millisecond}, runtime.Status{Probe: "env:A"})
	m.Probed("server", runtime.Result{Outcome: runtime.Available, Elapsed: time.Millisecond}, runtime.Status{Probe: "env:B"})
	m.Probed("tool", runtime.Result{Outcome: runtime.Available}, runtime.Status{Probe: "probes/db.wasm"})
	families, err := m.Registry.Gather()
	require.NoError(t, err)
	counts := map[string]uint64{}
	for _, f := range families {
		if f.GetName() == "gate_probe_kind_duration_seconds" {
			for _, s := range f.Metric {
				counts[s.Label[0].GetValue()] = s.Histogram.GetSampleCount()
			}
		}
	}
	assert.Equal(t, map[string]uint64{"env": 2, probeKindModule: 1}, counts, "only the kinds that ran have series")
}

// TestChangeClock: a flip's event stamps its time; a scrape keeps it while
// the state holds, stamps a state the events did not tell of with the run
// behind the answer, and forgets what it no longer finds.
func TestChangeClock(t *testing.T) {
	c := newChangeClock()
	t0 := time.Unix(1000, 0)
	now := time.Unix(5000, 0)
	c.event(runtime.Event{Type: "tool", Name: "a", State: "unavailable", At: t0})
	c.event(runtime.Event{Type: "tool", Name: "b", State: "available", At: t0, Pending: &runtime.Pending{}})
	c.event(runtime.Event{Type: "reload", Name: "gate.toml", State: "ok", At: t0})

	c.begin()
	assert.Equal(t, t0, c.since("tool", "a", "unavailable", time.Unix(2000, 0), now), "the flip's time")
	assert.Equal(t, time.Unix(2000, 0), c.since("tool", "b", "available", time.Unix(2000, 0), now), "a held answer is no flip: first seen")
	assert.Equal(t, now, c.since("skill", "s", "active", time.Time{}, now), "no run behind it: the scrape's time")
	c.end()

	c.begin()
	assert.Equal(t, time.Unix(3000, 0), c.since("tool", "a", "error", time.Unix(3000, 0), now), "unavailable to error is no flip, but a change")
	c.end()
	assert.Len(t, c.stamps, 1, "b and s were not found: forgotten")

	c.event(runtime.Event{Type: "tool", Name: "a", State: "removed", At: t0})
	assert.Empty(t, c.stamps)
}

// TestLabelCache: an entry's label pairs are sorted by name whatever its
// label is called, a name that is not UTF-8 gets none (no series, rather
// than a scrape that fails), and a scrape forgets what it did not find.
func TestLabelCache(t *testing.T) {
	c := newLabelCache()
	c.begin()
	names := func(l *entryLabels, pairs [][]string) {
		t.Helper()
		for i, want := range pairs {
			var got []string
			for _, p := range l.states[i] {
				got = append(got, p.GetName()+"="+p.GetValue())
			}
			assert.Equal(t, want, got)
		}
	}
	tool := c.of("tool", "tool", "db_query", entryStates[:1])
	names(tool, [][]string{{"state=available", "tool=db_query"}})
	server := c.of("server", "server", "mcp:db", entryStates[:1])
	names(server, [][]string{{"server=mcp:db", "state=available"}})
	assert.Equal(t, []string{"code", "tool"}, []string{tool.code("refused")[0].GetName(), tool.code("refused")[1].GetName()})
	assert.Equal(t, []string{"code", "server"}, []string{server.code("refused")[0].GetName(), server.code("refused")[1].GetName()})
	assert.Same(t, tool.code("refused")[0], tool.code("refused")[0], "made once")
	assert.Nil(t, c.of("tool", "tool", "bad\xff", entryStates))
	c.end()

	c.begin()
	assert.Same(t, tool, c.of("tool", "tool", "db_query", entryStates[:1]), "kept while found")
	c.end()
	assert.Len(t, c.entries, 1)
}
