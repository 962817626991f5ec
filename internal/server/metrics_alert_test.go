package server

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/gate-dev/gate/internal/doctest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// alertRuleTest feeds docs/HTTP.md's alert rule a tool that goes down at
// the second minute and a tool that stays up: the rule fires for the
// first only, once it has been down for five minutes.
const alertRuleTest = `
rule_files: [rules.yml]
evaluation_interval: 1m
tests:
  - interval: 1m
    input_series:
      - series: 'gate_tool_up{job="gate",tool="db_query"}'
        values: '1 1 0x10'
      - series: 'gate_tool_up{job="gate",tool="echo"}'
        values: '1x12'
    alert_rule_test:
      - eval_time: 5m
        alertname: GateToolUnavailable
      - eval_time: 8m
        alertname: GateToolUnavailable
        exp_alerts:
          - exp_labels: {severity: warning, job: gate, tool: db_query}
            exp_annotations:
              summary: gate tool db_query has been unavailable for 5 minutes
`

// TestHTTPDocAlertRule: the alert rule docs/HTTP.md shows is valid and
// fires on one tool, as the page says.
func TestHTTPDocAlertRule(t *testing.T) {
	promtool, err := exec.LookPath("promtool")
	require.NoError(t, err, "promtool (Debian package prometheus; scripts/test installs it)")
	page, err := doctest.Load(filepath.Join("..", "..", "docs", "HTTP.md"))
	require.NoError(t, err)
	rules, end := page.Fence("yaml", 0)
	require.Positive(t, end, "docs/HTTP.md shows no yaml block")

	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "rules.yml"), []byte(rules), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "test.yml"), []byte(alertRuleTest), 0o644))
	cmd := exec.Command(promtool, "test", "rules", "test.yml")
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	assert.NoError(t, err, "docs/HTTP.md:%d: promtool test rules:\n%s", end, out)
}
