package skills

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gate-dev/gate/internal/skillhost"
)

// corpusHost and the sets below are the fixed world the corpus goldens are
// validated against.
var corpusHost = skillhost.Map{
	Env:  map[string]string{"OPENAI_API_KEY": "sk-test", "GITHUB_TOKEN": "ghp-test", "EMPTY_VAR": ""},
	Bins: []string{"git", "gh", "jq", "curl"},
	GOOS: "linux",
}

var (
	corpusTools   = []string{"pdf_read", "terminal", "Bash", "Read", "filesystem_read", "web", "summarize"}
	corpusServers = []string{"mcp:filesystem", "mcp:github"}
)

// discoverCorpus copies testdata/corpus and testdata/override to a
// temporary directory, adds what git cannot hold (a .git folder) or should
// not (a hidden folder, a symbolic link loop), and discovers both, in that
// order. relative turns its absolute paths back into testdata/... ones.
func discoverCorpus(t *testing.T) (cat *Catalog, relative func(string) string) {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("the goldens hold paths with forward slashes")
	}
	tmp := t.TempDir()
	copyTree(t, filepath.Join("testdata", "corpus"), filepath.Join(tmp, "corpus"))
	copyTree(t, filepath.Join("testdata", "override"), filepath.Join(tmp, "override"))
	writeSkill(t, tmp, "corpus/.git/hooks-skill", skillText("inside-git", "Never found, .git is skipped"))
	writeSkill(t, tmp, "corpus/.hidden/secret-skill", skillText("inside-hidden", "Never found, hidden folders are skipped"))
	if err := os.Symlink(filepath.Join(tmp, "corpus", "nested"), filepath.Join(tmp, "corpus", "nested", "category", "loop")); err != nil {
		t.Logf("no symbolic links here (%v): the loop case is not covered", err)
	}

	cat = Discover([]string{filepath.Join(tmp, "corpus"), filepath.Join(tmp, "override"), filepath.Join(tmp, "missing")}, DiscoverOptions{})
	prefix := tmp + string(filepath.Separator)
	return cat, func(s string) string { return strings.ReplaceAll(s, prefix, "testdata/") }
}

func TestCorpusCatalog(t *testing.T) {
	cat, rel := discoverCorpus(t)
	assertGolden(t, "catalog.json", []byte(rel(string(jsonOf(t, cat)))))

	names := map[string]bool{}
	for _, s := range cat.Skills {
		names[s.Name] = true
		assert.NotEmpty(t, s.Name)
		assert.NotEmpty(t, s.Description)
		assert.True(t, filepath.IsAbs(s.Path), s.Path)
	}
	for _, absent := range []string{"inside-git", "inside-hidden", "inside-node-modules", "beyond-limit"} {
		assert.False(t, names[absent], absent)
	}
	for _, present := range []string{"deep-skill", "within-limit", "lowercase-file", "project-only", "PDF Tools", "missing-name", "other-name"} {
		assert.True(t, names[present], present)
	}

	s, ok := cat.Skill("pdf-processor")
	require.True(t, ok)
	assert.Equal(t, "testdata/override/pdf-processor/SKILL.md", rel(s.Path), "the later path overrides")
	dup, _ := cat.Skill("dup-skill")
	assert.Equal(t, "First by path, kept", dup.Description)

	kinds := map[ReportKind]int{}
	for _, r := range cat.Reports {
		kinds[r.Kind]++
	}
	assert.Equal(t, map[ReportKind]int{
		ReportSkipped: 3, ReportLenient: 2, ReportOverride: 1, ReportDuplicate: 1,
		ReportMissingRoot: 1, ReportTooDeep: 1,
	}, kinds)
}

func TestCorpusLevels(t *testing.T) {
	for _, level := range []Level{LevelDisabled, LevelTelemetry, LevelWarn, LevelStrict} {
		t.Run(level.String(), func(t *testing.T) {
			cat, rel := discoverCorpus(t)
			m := NewManager(cat, ManagerOptions{Level: level, Host: corpusHost})
			m.SetAvailable(corpusTools, corpusServers)

			var offered []string
			for _, s := range m.Offered() {
				offered = append(offered, s.Name)
			}
			out := struct {
				Diagnostics []Result `json:"diagnostics"`
				Offered     []string `json:"offered"`
			}{m.Diagnostics(), offered}
			assertGolden(t, "level-"+level.String()+".json", []byte(rel(string(jsonOf(t, out)))))
			assertGolden(t, "level-"+level.String()+".prompt.xml", []byte(rel(m.Prompt())+"\n"))
		})
	}
}
