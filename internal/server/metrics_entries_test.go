package server

import (
	"bufio"
	"context"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// scrape reads /metrics and returns its samples, keyed as the text
// format writes them: name{labels, sorted by name}.
func scrape(t testing.TB, f *fixture) map[string]float64 {
	t.Helper()
	r := f.get(t, "/metrics")
	require.Equal(t, 200, r.code, r.body)
	return samplesOf(t, r.body)
}

func samplesOf(t testing.TB, body string) map[string]float64 {
	t.Helper()
	out := map[string]float64{}
	sc := bufio.NewScanner(strings.NewReader(body))
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		i := strings.LastIndexByte(line, ' ')
		require.Positive(t, i, "a sample line: %q", line)
		v, err := strconv.ParseFloat(line[i+1:], 64)
		require.NoError(t, err, line)
		out[line[:i]] = v
	}
	return out
}

// withLabel returns the keys of samples that carry label="value".
func withLabel(samples map[string]float64, label, value string) []string {
	var out []string
	needle := label + `="` + value + `"`
	for k := range samples {
		if strings.Contains(k, "{"+needle) || strings.Contains(k, ","+needle) {
			out = append(out, k)
		}
	}
	return out
}

// assertSample checks that the scrape has key (want) or not, naming only
// the key when it fails.
func assertSample(t *testing.T, samples map[string]float64, key string, want bool) {
	t.Helper()
	_, ok := samples[key]
	assert.Equal(t, want, ok, "scraped %s", key)
}

// waitSample scrapes until key has the value want.
func waitSample(t *testing.T, f *fixture, key string, want float64) map[string]float64 {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		s := scrape(t, f)
		if v, ok := s[key]; ok && v == want {
			return s
		}
		require.True(t, time.Now().Before(deadline), "%s did not become %v in 10s; last scrape: %v", key, want, s[key])
		time.Sleep(20 * time.Millisecond)
	}
}

// TestMetricsPerEntry: every tool, server and skill has its own series,
// labelled by its manifest name; they follow a flip, carry the reason's
// code and not its text, and go with a reload that drops the entry.
func TestMetricsPerEntry(t *testing.T) {
	metrics := NewMetrics()
	start := time.Now()
	f, l := flipFixture(t, metrics, Options{})

	s := scrape(t, f)
	for key, want := range map[string]float64{
		`gate_tool_up{tool="db_query"}`:                           1,
		`gate_tool_up{tool="echo"}`:                               1,
		`gate_tool_state{state="available",tool="db_query"}`:      1,
		`gate_tool_state{state="unavailable",tool="db_query"}`:    0,
		`gate_tool_state{state="error",tool="db_query"}`:          0,
		`gate_server_up{server="mcp:db"}`:                         1,
		`gate_server_state{server="mcp:db",state="available"}`:    1,
		`gate_skill_state{skill="db-report",state="active"}`:      1,
		`gate_skill_state{skill="db-report",state="degraded"}`:    0,
		`gate_skill_state{skill="db-report",state="unavailable"}`: 0,
		`gate_skill_offered{skill="db-report"}`:                   1,
		`gate_tools{state="available"}`:                           2,
		`gate_skills{state="active"}`:                             1,
		`gate_skills_offered`:                                     1,
		`gate_server_state{server="mcp:db",state="unavailable"}`:  0,
		`gate_tool_state{state="available",tool="echo"}`:          1,
	} {
		assert.Equal(t, want, s[key], key)
		assertSample(t, s, key, true)
	}
	assert.Positive(t, s[`gate_probe_kind_duration_seconds_count{probe_kind="tcp"}`], "the tcp probes' runs, by their kind")
	assertSample(t, s, `gate_tool_reason{code="refused",tool="db_query"}`, false) // no reason while available
	assert.Positive(t, s[`gate_tool_probe_duration_seconds{tool="db_query"}`])
	assertSample(t, s, `gate_tool_probe_duration_seconds{tool="echo"}`, false) // a tool without a probe has no run
	first := s[`gate_tool_last_change_timestamp_seconds{tool="db_query"}`]
	assert.GreaterOrEqual(t, first, unixSeconds(start))
	assert.LessOrEqual(t, first, unixSeconds(time.Now()))
	assert.Equal(t, first, scrape(t, f)[`gate_tool_last_change_timestamp_seconds{tool="db_query"}`],
		"a scrape is not a change")

	closed := time.Now()
	require.NoError(t, l.Close())
	s = waitSample(t, f, `gate_tool_up{tool="db_query"}`, 0)
	for key, want := range map[string]float64{
		`gate_tool_state{state="available",tool="db_query"}`:   0,
		`gate_tool_state{state="unavailable",tool="db_query"}`: 1,
		`gate_tool_reason{code="refused",tool="db_query"}`:     1,
		`gate_tool_up{tool="echo"}`:                            1,
	} {
		assertSample(t, s, key, true)
		assert.Equal(t, want, s[key], key)
	}
	var reasons []string
	for _, k := range withLabel(s, "tool", "db_query") {
		if strings.HasPrefix(k, "gate_tool_reason{") {
			reasons = append(reasons, k)
		}
	}
	assert.Len(t, reasons, 1, "one reason per entry, its code only")
	for k := range s {
		assert.NotContains(t, k, "connection refused", "the reason's text is never a label")
	}
	changed := s[`gate_tool_last_change_timestamp_seconds{tool="db_query"}`]
	assert.GreaterOrEqual(t, changed, unixSeconds(closed), "the flip's time")
	s = waitSample(t, f, `gate_skill_state{skill="db-report",state="degraded"}`, 1)
	assert.Equal(t, 0.0, s[`gate_skill_state{skill="db-report",state="active"}`])
	assertSample(t, s, `gate_skill_offered{skill="db-report"}`, true)
	assert.GreaterOrEqual(t, s[`gate_skill_last_change_timestamp_seconds{skill="db-report"}`], unixSeconds(closed))

	writeManifest(t, filepath.Dir(f.svc.Gate().ManifestPath()), `
[[tools]]
name = "echo"
description = "Always here."
`)
	require.NoError(t, f.svc.Reload(context.Background()))
	s = scrape(t, f)
	assert.Empty(t, withLabel(s, "tool", "db_query"), "a reload that drops the tool drops its series")
	assert.Empty(t, withLabel(s, "server", "mcp:db"))
	assert.Empty(t, withLabel(s, "skill", "db-report"))
	assert.Equal(t, 1.0, s[`gate_tool_up{tool="echo"}`])
	metrics.changes.mu.Lock()
	assert.Len(t, metrics.changes.stamps, 1, "only echo's stamp is kept")
	metrics.changes.mu.Unlock()
	collector := metrics.state
	collector.scraping.Lock()
	assert.Len(t, collector.labels.entries, 1, "only echo's labels are kept")
	collector.scraping.Unlock()
}

// TestMetricsPromtool: a real scrape, with a flipped tool (so a reason
// series too), passes promtool's checks of names, types and help.
func TestMetricsPromtool(t *testing.T) {
	promtool, err := exec.LookPath("promtool")
	require.NoError(t, err, "promtool (Debian package prometheus; scripts/test installs it)")
	metrics := NewMetrics()
	f, l := flipFixture(t, metrics, Options{})
	require.NoError(t, l.Close())
	waitSample(t, f, `gate_tool_up{tool="db_query"}`, 0)

	body := f.get(t, "/metrics").body
	cmd := exec.Command(promtool, "check", "metrics")
	cmd.Stdin = strings.NewReader(body)
	out, err := cmd.CombinedOutput()
	assert.NoError(t, err, "promtool check metrics:\n%s", out)
	assert.Empty(t, strings.TrimSpace(string(out)), "promtool's lint findings")
}
