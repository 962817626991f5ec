package skillsview

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gate-dev/gate/internal/golden"
	"github.com/gate-dev/gate/internal/skillhost"
	"github.com/gate-dev/gate/skills"
)

func TestSummarize(t *testing.T) {
	var all []skillFile
	for i := range 8 {
		all = append(all, skillOf(fmt.Sprintf("s%d", i), "requires_tools: [a, b]", "requires_servers: [c]", "requires_env: [D]"))
	}
	all = append(all, skillOf("ok"), skillOf("mac", "platforms: macos"))
	sum := Summarize(managerOf(t, skills.LevelWarn, all...))
	assert.Equal(t, 10, sum.TotalSkills)
	assert.Equal(t, 1, sum.Active)
	assert.Equal(t, 8, sum.Degraded)
	assert.Equal(t, 1, sum.Unavailable)
	assert.Equal(t, "warn", sum.EnforcementLevel)
	require.Len(t, sum.SampleIssues, MaxSampleIssues)
	assert.Equal(t, []string{"s0: Missing required tools: a, b", "s0: Missing required servers: c", "s1: Missing required tools: a, b"}, sum.SampleIssues[:3],
		"the first 2 warnings of each degraded skill")

	strict := managerOf(t, skills.LevelStrict, skillOf("x", "requires_tools: [a]", "requires_env: [B, C]"))
	assert.Equal(t, Summary{TotalSkills: 1, Unavailable: 1, EnforcementLevel: "strict",
		SampleIssues: []string{"x: Missing required tools: a", "x: Missing required environment variables: B, C"}}, Summarize(strict))
	assert.Equal(t, Summary{EnforcementLevel: "warn", SampleIssues: []string{}}, Summarize(managerOf(t, skills.LevelWarn)))
}

// TestSummarizeCorpus counts the skills package's corpus at every level,
// in the fixed world its own corpus goldens are validated against.
func TestSummarizeCorpus(t *testing.T) {
	testdata := filepath.Join("..", "..", "skills", "testdata")
	cat := skills.Discover([]string{filepath.Join(testdata, "corpus"), filepath.Join(testdata, "override")}, skills.DiscoverOptions{})
	host := skillhost.Map{
		Env:  map[string]string{"OPENAI_API_KEY": "sk-test", "GITHUB_TOKEN": "ghp-test", "EMPTY_VAR": ""},
		Bins: []string{"git", "gh", "jq", "curl"},
		GOOS: "linux",
	}
	tools := []string{"pdf_read", "terminal", "Bash", "Read", "filesystem_read", "web", "summarize"}
	servers := []string{"mcp:filesystem", "mcp:github"}

	var out []Summary
	for _, level := range []skills.Level{skills.LevelDisabled, skills.LevelTelemetry, skills.LevelWarn, skills.LevelStrict} {
		m := skills.NewManager(cat, skills.ManagerOptions{Level: level, Host: host})
		m.SetAvailable(tools, servers)
		out = append(out, Summarize(m))
	}
	golden.Check(t, filepath.Join("testdata", "golden", "corpus-summary.json"), jsonOf(t, out))
}
