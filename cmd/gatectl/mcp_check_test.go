package main

import (
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// mcpCheckManifest names three servers: the Go SDK test upstream over
// streamable HTTP (url) and over stdio (this test binary, run again),
// and one whose command runs a program that is not there, through a
// shell, which exits 127.
func mcpCheckManifest(t *testing.T) string {
	t.Helper()
	exe, err := os.Executable()
	require.NoError(t, err)
	return mcpManifest(t, fmt.Sprintf(`
[[servers]]
name = "web"
url = %q

[[servers]]
name = "local"
command = [%q]
env = { GATECTL_TEST_UPSTREAM = "stdio" }

[[servers]]
name = "missing"
command = ["sh", "-c", "exec gatectl-test-no-such-program"]
pass_env = ["PATH"]
`, mcpHTTPUpstream(t), exe))
}

// TestMCPCheck: mcp check connects to every server as the gateway does,
// reports each ready with the tools it lists, or down with why (the exit
// status 127 of a program not found, with the gateway's hint) and the
// code of a server that is down, and exits 1 when one is down; with
// SERVERs named it checks only those, and exits 0 when they are ready.
func TestMCPCheck(t *testing.T) {
	t.Setenv("GATE_CACHE_DIR", t.TempDir())
	manifest := mcpCheckManifest(t)

	code, stdout, stderr := gatectl(t, "mcp", "check", "-m", manifest)
	require.Equal(t, exitUnavailable, code, stderr)
	assert.Empty(t, stderr, "without -v the gateway's log is not shown")
	assert.Regexp(t, `(?m)^SERVER +STATE +TOOLS +TIME +REASON\n`, stdout)
	assert.Regexp(t, `(?m)^web +ready +2 +[0-9.]+(µs|ms|s) +$`, stdout)
	assert.Regexp(t, `(?m)^local +ready +2 +[0-9.]+(µs|ms|s) +$`, stdout)
	assert.Regexp(t, `(?m)^missing +down +- +[0-9.]+(µs|ms|s) +the command exited with status 127 before answering initialize`, stdout)
	assert.Contains(t, stdout, `status 127 is a shell's "command not found": is the program it runs on the PATH that default_env or pass_env gives it?`)
	assert.NotContains(t, stdout, "retrying in", "mcp check retries nothing")
	assert.Contains(t, stdout, "\n2 of 3 MCP servers ready.\n")

	code, stdout, stderr = gatectl(t, "mcp", "check", "-m", manifest, "--json")
	require.Equal(t, exitUnavailable, code, stderr)
	var report mcpCheckReport
	require.NoError(t, json.Unmarshal([]byte(stdout), &report), stdout)
	assert.Equal(t, manifest, report.Manifest)
	assert.Equal(t, mcpCheckSummary{Servers: 3, Ready: 2}, report.Summary)
	require.Len(t, report.Servers, 3)
	for _, e := range report.Servers {
		require.NotNil(t, e.Seconds, e.Name)
		if e.Name == "missing" {
			assert.Equal(t, "down", e.State)
			assert.False(t, e.Ready)
			assert.Zero(t, e.Tools)
			require.NotNil(t, e.CodeInfo)
			assert.Equal(t, "upstream_down", string(e.Code))
			assert.Contains(t, e.Reason, "status 127")
			continue
		}
		assert.Equal(t, "ready", e.State, e.Name)
		assert.True(t, e.Ready, e.Name)
		assert.Equal(t, 2, e.Tools, e.Name)
		assert.Empty(t, e.Reason, e.Name)
		assert.Nil(t, e.CodeInfo, e.Name)
	}
	// The shape, key by key, as docs/CLI.md shows it.
	var shape struct {
		Manifest string           `json:"manifest"`
		Servers  []map[string]any `json:"servers"`
		Summary  map[string]any   `json:"summary"`
	}
	require.NoError(t, json.Unmarshal([]byte(stdout), &shape))
	keys := func(m map[string]any) []string {
		var k []string
		for key := range m {
			k = append(k, key)
		}
		slices.Sort(k)
		return k
	}
	assert.Equal(t, []string{"invalid_tools", "name", "ready", "reason", "state", "took_seconds", "tools"}, keys(shape.Servers[0]))
	assert.Equal(t, []string{"action", "code", "invalid_tools", "name", "ready", "reason", "retryable", "state", "took_seconds", "tools"}, keys(shape.Servers[2]))
	assert.Equal(t, []string{"ready", "servers"}, keys(shape.Summary))

	code, stdout, stderr = gatectl(t, "mcp", "check", "-m", manifest, "web", "local")
	require.Equal(t, exitOK, code, stderr)
	assert.NotContains(t, stdout, "missing")
	assert.Contains(t, stdout, "\n2 of 2 MCP servers ready.\n")

	// A server ready after the startup wait is ready, and noted.
	code, stdout, stderr = gatectl(t, "mcp", "check", "-m", manifest, "--startup-wait", "1ns", "web")
	require.Equal(t, exitOK, code, stderr)
	assert.Regexp(t, `(?m)^web +ready +2 +\S+ +ready after the startup wait of 1ns: a client that lists once, at the start, would not see its tools$`, stdout)
}

// TestMCPCheckReferenceServer: a third-party server, the reference server
// everything (node, over stdio), is ready with every tool it lists to a
// client that speaks to it directly.
func TestMCPCheckReferenceServer(t *testing.T) {
	everything := tsServer(t, "mcp-server-everything")
	want := toolNamesOf(t, directSession(t, everything, "stdio"), "")
	require.NotEmpty(t, want)
	manifest := mcpManifest(t, `
[[servers]]
name = "everything"
command = ["`+everything+`", "stdio"]
pass_env = ["PATH"]
`)
	code, stdout, stderr := gatectl(t, "mcp", "check", "-m", manifest, "--json")
	require.Equal(t, exitOK, code, "%s\n%s", stdout, stderr)
	var report mcpCheckReport
	require.NoError(t, json.Unmarshal([]byte(stdout), &report), stdout)
	require.Len(t, report.Servers, 1)
	assert.True(t, report.Servers[0].Ready)
	assert.Equal(t, len(want), report.Servers[0].Tools+report.Servers[0].Invalid)
}

// TestMCPCheckUsage: a SERVER that is not an MCP server of the manifest
// is a usage error naming it, with the nearest names; so is a manifest
// with none, and the manifest on standard input.
func TestMCPCheckUsage(t *testing.T) {
	manifest := mcpManifest(t, "[[servers]]\nname = \"notes\"\nurl = \"http://127.0.0.1:1/mcp\"\n\n[[servers]]\nname = \"local\"\n")
	code, stdout, stderr := gatectl(t, "mcp", "check", "-m", manifest, "nots")
	assert.Equal(t, exitUsage, code)
	assert.Empty(t, stdout)
	assert.Contains(t, stderr, `gatectl mcp check: `+manifest+` has no MCP server named "nots"; did you mean "notes"?`)

	code, _, stderr = gatectl(t, "mcp", "check", "-m", manifest, "local")
	assert.Equal(t, exitUsage, code, "local has neither command nor url")
	assert.Contains(t, stderr, `has no MCP server named "local"`)

	none := mcpManifest(t, "[[tools]]\nname = \"x\"\n")
	code, _, stderr = gatectl(t, "mcp", "check", "-m", none)
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, stderr, "names no MCP server ([[servers]] with command or url)")

	code, _, stderr = gatectl(t, "mcp", "check", "-m", "-")
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, stderr, "gatectl mcp check: -m - (the manifest on standard input) is not for this command")
}
