package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// MCP Inspector's CLI (testdata/inspector, 2.12.0, which bundles the
// TypeScript SDK v2) speaks 2026-07-28 when asked to: --protocol-era
// modern pins it (server/discover, then each request stateless, with
// MCP-Protocol-Version and the _meta that names it); without the flag, an
// ad-hoc run initializes a 2025-11-25 session. These tests drive both
// through gate and read which one gate served from gate's own log (-v):
// a line per session naming its protocol version.

// The lines gatectl -v logs for a 2026-07-28 request and for an older
// session (internal/mcpgw, protocollog.go).
const (
	inspectorStatelessLine = "gate mcp: MCP client without a session (stateless): protocol 2026-07-28"
	inspectorSessionLine   = ": protocol 2025-11-25"
)

// inspectorCLI returns the path of Inspector's launcher, failing the test
// when it is not installed: scripts/test installs it.
func inspectorCLI(t *testing.T) string {
	t.Helper()
	p, err := filepath.Abs(filepath.Join("testdata", "inspector", "node_modules", ".bin", "mcp-inspector"))
	require.NoError(t, err)
	if _, err := os.Stat(p); err != nil {
		t.Fatalf("MCP Inspector is not installed in testdata/inspector (%v): run ./scripts/test, which installs it (npm ci)", err)
	}
	return p
}

// runInspector runs Inspector's CLI once with args and decodes what it
// prints (the method's result) into out; it returns its stderr, where a
// gatectl mcp it launched writes too.
func runInspector(t *testing.T, out any, args ...string) string {
	t.Helper()
	node := tsNode(t)
	ctx, cancel := context.WithTimeout(context.Background(), 4*mcpWait)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, append([]string{inspectorCLI(t), "--cli"}, args...)...)
	cmd.Env = mcpEnv(t)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	stdout, err := cmd.Output()
	require.NoError(t, err, "mcp-inspector --cli %v:\n%s", args, stderr.String())
	require.NoError(t, json.Unmarshal(stdout, out), "mcp-inspector --cli %v printed:\n%s", args, stdout)
	return stderr.String()
}

type inspectorTools struct {
	Tools []struct {
		Name string `json:"name"`
	} `json:"tools"`
}

func (l inspectorTools) names() []string {
	var names []string
	for _, tool := range l.Tools {
		names = append(names, tool.Name)
	}
	slices.Sort(names)
	return names
}

type inspectorCall struct {
	Content []struct {
		Text string `json:"text"`
	} `json:"content"`
	IsError bool `json:"isError"`
}

type inspectorResources struct {
	Resources []struct {
		URI string `json:"uri"`
	} `json:"resources"`
}

type inspectorRead struct {
	Contents []struct {
		Text string `json:"text"`
	} `json:"contents"`
}

type inspectorPrompts struct {
	Prompts []struct {
		Name string `json:"name"`
	} `json:"prompts"`
}

type inspectorPrompt struct {
	Messages []struct {
		Content struct {
			Text string `json:"text"`
		} `json:"content"`
	} `json:"messages"`
}

// inspectorManifest is webServer's upstream (w_echo behind rule, w_shout)
// and one skill, so that gate offers resources and a prompt too.
func inspectorManifest(t *testing.T, rule *mcpListener) string {
	t.Helper()
	skills := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(skills, "notes"), 0o755))
	writeFile(t, filepath.Join(skills, "notes", "SKILL.md"), "---\nname: notes\ndescription: Keep notes.\n---\nWrite notes down.\n")
	return mcpManifest(t, fmt.Sprintf("[skills]\npaths = [%q]\n", skills)+webServer(mcpHTTPUpstream(t), rule))
}

// driveInspector runs each method the CLI makes once through target (the
// arguments that name gate and the era) and checks what it printed:
// tools/list, tools/call, resources/list and read, prompts/list and get. It
// returns the stderr of each run, joined.
func driveInspector(t *testing.T, target ...string) string {
	t.Helper()
	var logs strings.Builder
	run := func(out any, args ...string) {
		logs.WriteString(runInspector(t, out, append(slices.Clone(target), args...)...))
	}
	var tools inspectorTools
	run(&tools, "--method", "tools/list")
	assert.Equal(t, []string{"w_echo", "w_shout"}, tools.names())

	var call inspectorCall
	run(&call, "--method", "tools/call", "--tool-name", "w_echo", "--tool-arg", "text=hi from Inspector")
	require.Len(t, call.Content, 1, "%+v", call)
	assert.Equal(t, "echo: hi from Inspector", call.Content[0].Text)
	assert.False(t, call.IsError)

	var resources inspectorResources
	run(&resources, "--method", "resources/list")
	var uris []string
	for _, r := range resources.Resources {
		uris = append(uris, r.URI)
	}
	assert.ElementsMatch(t, []string{"gate://skills/prompt", "gate://skills/notes/SKILL.md"}, uris)

	var read inspectorRead
	run(&read, "--method", "resources/read", "--uri", "gate://skills/notes/SKILL.md")
	require.Len(t, read.Contents, 1, "%+v", read)
	assert.Contains(t, read.Contents[0].Text, "Write notes down.")

	var prompts inspectorPrompts
	run(&prompts, "--method", "prompts/list")
	require.Len(t, prompts.Prompts, 1, "%+v", prompts)
	assert.Equal(t, "skills", prompts.Prompts[0].Name)

	var prompt inspectorPrompt
	run(&prompt, "--method", "prompts/get", "--prompt-name", "skills")
	require.Len(t, prompt.Messages, 1, "%+v", prompt)
	assert.Contains(t, prompt.Messages[0].Content.Text, "notes")
	return logs.String()
}

// serveForInspector runs gatectl serve -v with a token in front of
// inspectorManifest's upstream, args added.
func serveForInspector(t *testing.T, token string, rule *mcpListener, args ...string) *serveProcess {
	t.Helper()
	s := startServeArgs(t, buildGatectlBinary(t), mcpEnv(t, "GATE_TOKEN="+token),
		append([]string{"-v", "-m", inspectorManifest(t, rule), "--addr", "127.0.0.1:0"}, args...)...)
	s.token = token
	t.Cleanup(func() { s.stop(t, "gatectl serve behind Inspector") })
	return s
}

// httpTarget is the CLI's arguments that reach serve's /mcp at era.
func httpTarget(s *serveProcess, era string) []string {
	target := []string{"--server-url", "http://" + s.addr + "/mcp", "--transport", "http", "--header", "Authorization: Bearer " + s.token}
	if era != "" {
		target = append(target, "--protocol-era", era)
	}
	return target
}

// waitOffered waits until gate offers n tools of the upstream web, as its
// /metrics says, so that a listing made next sees the flip.
func waitOffered(t *testing.T, s *serveProcess, n float64) {
	t.Helper()
	const series = `gate_mcp_upstream_tools{server="web"}`
	require.Eventually(t, func() bool { return s.series(t, series)[series] == n }, mcpWait, 20*time.Millisecond,
		"gate did not come to offer %v tools of web:\n%s", n, s.stderr.String())
}

// TestInspectorCLIAt2026OverServeStateless: Inspector's CLI, pinned to
// 2026-07-28, lists, calls, lists and reads resources and lists and gets
// prompts on serve's /mcp with --mcp-stateless; gate's log shows each request
// served without a session, and none initializing an older one. A probe
// turned down takes w_echo out of the next listing, and back once up.
func TestInspectorCLIAt2026OverServeStateless(t *testing.T) {
	rule := newMCPListener(t)
	s := serveForInspector(t, "inspector-token-0123456789abcdef", rule, "--mcp-stateless")
	target := httpTarget(s, "modern")
	driveInspector(t, target...)

	list := func() []string {
		var tools inspectorTools
		runInspector(t, &tools, append(slices.Clone(target), "--method", "tools/list")...)
		return tools.names()
	}
	waitOffered(t, s, 2)
	rule.close()
	waitOffered(t, s, 1)
	assert.Equal(t, []string{"w_shout"}, list(), "the listing after w_echo's probe turned down")
	rule.reopen()
	waitOffered(t, s, 2)
	assert.Equal(t, []string{"w_echo", "w_shout"}, list(), "the listing after it came back")

	// Eight runs, each a request or more; the log is written in order,
	// so once their lines are in, any older session's would be too.
	require.Eventually(t, func() bool { return strings.Count(s.stderr.String(), inspectorStatelessLine) >= 8 }, mcpWait, 20*time.Millisecond,
		"gate served Inspector's requests without a session:\n%s", s.stderr.String())
	assert.NotContains(t, s.stderr.String(), inspectorSessionLine, "no request initialized a 2025-11-25 session")
}

// TestInspectorCLIDefaultBesideStateless: without --protocol-era an
// ad-hoc run of Inspector's CLI initializes a 2025-11-25 session; on serve
// with --mcp-stateless, which keeps those beside the stateless requests on
// /mcp, it works as before, and gate's log says the session it served.
func TestInspectorCLIDefaultBesideStateless(t *testing.T) {
	rule := newMCPListener(t)
	s := serveForInspector(t, "inspector-token-0123456789abcdef", rule, "--mcp-stateless")
	var tools inspectorTools
	runInspector(t, &tools, append(httpTarget(s, ""), "--method", "tools/list")...)
	assert.Equal(t, []string{"w_echo", "w_shout"}, tools.names())
	require.Eventually(t, func() bool { return strings.Contains(s.stderr.String(), inspectorSessionLine) }, mcpWait, 20*time.Millisecond,
		"gate logged the 2025-11-25 session:\n%s", s.stderr.String())
	assert.NotContains(t, s.stderr.String(), inspectorStatelessLine)
}

// TestInspectorCLIAt2026OverStdio: Inspector's CLI, pinned to
// 2026-07-28, launches gatectl mcp -v for each method; gatectl's log (on
// the stderr Inspector passes on, written whole before gatectl exits)
// shows the client without a session at 2026-07-28 each time. With
// w_echo's probe down when gatectl starts, the listing lacks it.
func TestInspectorCLIAt2026OverStdio(t *testing.T) {
	rule := newMCPListener(t)
	target := []string{"--protocol-era", "modern", buildGatectlBinary(t), "mcp", "-v", "--startup-wait", (2 * mcpWait).String(), "-m", inspectorManifest(t, rule)}
	logs := driveInspector(t, target...)
	assert.Equal(t, 6, strings.Count(logs, inspectorStatelessLine), "one line per run:\n%s", logs)
	assert.NotContains(t, logs, inspectorSessionLine)

	rule.close()
	var tools inspectorTools
	log := runInspector(t, &tools, append(slices.Clone(target), "--method", "tools/list")...)
	assert.Equal(t, []string{"w_shout"}, tools.names(), "the listing with w_echo's probe down")
	assert.Contains(t, log, inspectorStatelessLine)
}
