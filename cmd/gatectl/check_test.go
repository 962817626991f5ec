package main

import (
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gate-dev/gate/internal/doctest"
)

var checkManifest = filepath.Join("testdata", "check", "gate.toml")

var latency = regexp.MustCompile(`\b[0-9]+(\.[0-9]+)?(µs|ms|s)( {2,})`)

// maskLatency replaces the durations of the check table by "T" and the
// column padding by two spaces: how wide the latency column is depends on
// the slowest probe of the run (a loaded machine can make "20.1ms" into
// "101.23ms"), and the golden file is about the content.
func maskLatency(s string) string {
	s = latency.ReplaceAllString(s, "T  ")
	return padding.ReplaceAllString(s, "  ")
}

var padding = regexp.MustCompile(`  +`)

func TestCheck(t *testing.T) {
	t.Setenv("GATECTL_SERP_API_KEY", "k")
	code, stdout, stderr := gatectl(t, "check", "-m", checkManifest)
	assert.Equal(t, exitUnavailable, code, stderr)
	assertGolden(t, "check.txt", maskLatency(stdout))

	code, stdout, _ = gatectl(t, "check", "-m", checkManifest, "--json")
	assert.Equal(t, exitUnavailable, code)
	assertGolden(t, "check.json", maskTimings(stdout))

	code, stdout, _ = gatectl(t, "check", "-m", checkManifest, "search_web", "echo", "mcp:filesystem")
	assert.Equal(t, exitOK, code, "all named tools and servers are available")
	assert.Contains(t, stdout, "2 of 2 tools available, 1 of 1 servers.")

	t.Setenv("GATE_MANIFEST", checkManifest)
	code, _, _ = gatectl(t, "check", "echo")
	assert.Equal(t, exitOK, code, "the manifest comes from $GATE_MANIFEST")

	code, _, stderr = gatectl(t, "check", "-m", checkManifest, "nope")
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, stderr, `has no tool or server named "nope"; it has search_web,`)
}

func TestCheckBadManifest(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "gate.toml")
	writeFile(t, path, "[runtime]\nttl = 30\n\n[[tools]]\nname = \"x\"\nprobe = \"envv:A\"\n")
	code, stdout, stderr := gatectl(t, "check", "-m", path)
	assert.Equal(t, exitUsage, code)
	assert.Empty(t, stdout)
	assert.Contains(t, stderr, "gatectl check: 2 problem(s) in "+path)
	assert.Contains(t, stderr, path+":2:7: runtime.ttl: ")
	assert.Contains(t, stderr, "   2 | ttl = 30\n     |       ^^")
	assert.Contains(t, stderr, path+":6:")

	code, _, stderr = gatectl(t, "check", "-m", filepath.Join(dir, "missing.toml"))
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, stderr, "missing.toml")
}

// TestCheckKeepsNoParsedManifest: the cache dir keeps compiled probes and
// Python's facts, never a parsed manifest. Every command reads and checks
// its manifest (under 10 ms for 1,000 tools), so nothing but the
// file decides what a check does.
func TestCheckKeepsNoParsedManifest(t *testing.T) {
	cache := t.TempDir()
	t.Setenv("GATE_CACHE_DIR", cache)
	path := filepath.Join(t.TempDir(), "gate.toml")
	writeFile(t, path, "[[tools]]\nname = \"a\"\nprobe = \"env:GATECTL_KEEPS_NO_MANIFEST\"\n")
	for range 2 {
		var stderr strings.Builder
		require.Equal(t, exitUnavailable, run([]string{"check", "-m", path}, io.Discard, &stderr), stderr.String())
	}
	require.NoError(t, filepath.WalkDir(cache, func(p string, d os.DirEntry, err error) error {
		require.NoError(t, err)
		assert.NotContains(t, d.Name(), "manifest", "%s: a parsed manifest in the cache dir", p)
		return nil
	}))
}

func TestSchema(t *testing.T) {
	t.Setenv("GATECTL_SERP_API_KEY", "k")
	for _, f := range []string{"openai", "anthropic", "mcp"} {
		t.Run(f, func(t *testing.T) {
			code, stdout, stderr := gatectl(t, "schema", "-m", checkManifest, "--format", f)
			assert.Equal(t, exitOK, code, stderr)
			assertGolden(t, "schema_"+f+".json", stdout)
		})
	}
	code, _, stderr := gatectl(t, "schema", "-m", checkManifest, "--format", "gemini")
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, stderr, `unknown schema format "gemini"`)
}

// TestQuickstart runs the commands of README's first block and of
// examples/quickstart/README.md's (go run ./cmd/gatectl ...), here in
// process. Which tools are available depends on the machine; every tool
// must be reported, with a state and, when hidden, a reason. SERP_API_KEY
// is empty, so that search_web's probe sends nothing to serpapi.com.
func TestQuickstart(t *testing.T) {
	root := filepath.Join("..", "..")
	t.Setenv("SERP_API_KEY", "")
	var commands []string
	for _, page := range []string{"README.md", "examples/quickstart/README.md"} {
		_, blocks := doctest.Marked(t, filepath.Join(root, page))
		for _, b := range blocks {
			for _, s := range b.Steps {
				command, _, _ := strings.Cut(s.Command, " #") // a comment
				command = strings.TrimSpace(command)
				if command == "./scripts/test" {
					info, err := os.Stat(filepath.Join(root, "scripts", "test"))
					require.NoError(t, err)
					assert.NotZero(t, info.Mode()&0o111, "scripts/test is not executable")
					continue
				}
				commands = append(commands, command)
			}
		}
	}
	require.Len(t, commands, 3, "the pages' go run commands")
	for _, command := range commands {
		t.Run(command, func(t *testing.T) {
			words := strings.Fields(command)
			for len(words) > 0 && strings.Contains(words[0], "=") {
				name, value, _ := strings.Cut(words[0], "=")
				t.Setenv(name, value)
				words = words[1:]
			}
			require.Greater(t, len(words), 3, command)
			require.Equal(t, []string{"go", "run", "./cmd/gatectl"}, words[:3], "the pages run gatectl with go run from the repository's root")
			args := words[3:]
			if i := slices.Index(args, "-m"); i >= 0 && i+1 < len(args) {
				args[i+1] = filepath.Join(root, args[i+1])
			}
			code, stdout, stderr := gatectl(t, append(args, "--json")...)
			assert.Contains(t, []int{exitOK, exitUnavailable}, code, stderr)
			var report checkReport
			require.NoError(t, json.Unmarshal([]byte(stdout), &report))
			var names []string
			for _, e := range report.Tools {
				names = append(names, e.Name)
				assert.Contains(t, []string{"available", "unavailable", "error"}, e.State)
				if !e.Available {
					assert.NotEmpty(t, e.Reason, "%s is hidden without a reason", e.Name)
				}
			}
			if len(args) > 3 { // tools named
				assert.Equal(t, args[3:], names)
				return
			}
			assert.Equal(t, []string{"search_web", "ai_research", "notify_team", "query_local_db", "cache_data", "terminal", "filesystem_read", "search_content",
				"query_database", "docker_command", "cloud_deploy", "ml_inference", "gpu_inference", "network_tool"}, names)
		})
	}
}

// TestCheckSuggestsRuleNames: the names check takes are the Gate's, a
// [[servers.tools]] rule's "SERVER#RULE" among them, so a mistyped one
// is suggested as it is written.
func TestCheckSuggestsRuleNames(t *testing.T) {
	path := filepath.Join(t.TempDir(), "gate.toml")
	writeFile(t, path, "[[servers]]\nname = \"notes\"\ncommand = [\"./notes\"]\n\n[[servers.tools]]\nname = \"delete_note\"\nprobe = \"env:GATECTL_NOTES_DELETE\"\n")
	code, _, stderr := gatectl(t, "check", "-m", path, "notes#delete_nte")
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, stderr, `has no tool or server named "notes#delete_nte"; did you mean "notes#delete_note"?`)
}
