//lint:file-ignore SA1019 MCP deprecates roots and sampling as of 2026-07-28 (SEP-2577); gate declares them to upstreams of the earlier versions

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The reference MCP servers (testdata/tsservers, installed by
// scripts/test at the versions its package-lock.json pins): third-party
// servers the gateway fronts in these tests, as a user's would be.
const tsServersDir = "testdata/tsservers"

// tsServer returns the absolute path of a reference server's launcher
// ("mcp-server-everything", "mcp-server-filesystem"), failing the test when
// it is not installed: scripts/test installs it, and a skipped test would
// hide that it is missing.
func tsServer(t *testing.T, name string) string {
	t.Helper()
	tsNode(t)
	p, err := filepath.Abs(filepath.Join(tsServersDir, "node_modules", ".bin", name))
	require.NoError(t, err)
	if _, err := os.Stat(p); err != nil {
		t.Fatalf("the reference MCP server %s is not installed in %s (%v): run ./scripts/test, which installs it (npm ci)", name, tsServersDir, err)
	}
	return p
}

// directSession is a session of the Go SDK's client with the command,
// spoken to directly, not through gate.
func directSession(t *testing.T, argv ...string) *mcp.ClientSession {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), mcpWait)
	defer cancel()
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = t.TempDir()
	// What gate's client declares to an upstream: a server lists some
	// tools only to a client that can serve them (everything's
	// trigger-elicitation-request, trigger-sampling-request).
	opts := &mcp.ClientOptions{Capabilities: &mcp.ClientCapabilities{
		RootsV2:     &mcp.RootCapabilities{ListChanged: true},
		Elicitation: &mcp.ElicitationCapabilities{Form: &mcp.FormElicitationCapabilities{}, URL: &mcp.URLElicitationCapabilities{}},
		Sampling:    &mcp.SamplingCapabilities{Tools: &mcp.SamplingToolsCapabilities{}},
	}}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "direct", Version: "1"}, opts).Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	require.NoError(t, err)
	t.Cleanup(func() { _ = cs.Close() })
	return cs
}

// toolNamesOf lists every tool of a session, sorted, each with prefix.
func toolNamesOf(t *testing.T, cs *mcp.ClientSession, prefix string) []string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), mcpWait)
	defer cancel()
	var names []string
	for tool, err := range cs.Tools(ctx, nil) {
		require.NoError(t, err)
		names = append(names, prefix+tool.Name)
	}
	slices.Sort(names)
	return names
}

// A client that lists once, right after initialize (the TypeScript SDK's,
// as desktop clients use it), sees every tool of the reference server
// everything, a node process that takes a moment to start, in its first
// listing through gatectl mcp.
func TestListOnceClientSeesEveryToolOfAThirdPartyServer(t *testing.T) {
	t.Parallel()
	node := tsNode(t)
	everything := tsServer(t, "mcp-server-everything")
	want := toolNamesOf(t, directSession(t, everything, "stdio"), "e_")
	require.NotEmpty(t, want)

	manifest := mcpManifest(t, `
[[servers]]
name = "everything"
command = ["`+everything+`", "stdio"]
pass_env = ["PATH"]
prefix = "e_"
`)
	c := startTSClient(t, node, buildGatectlBinary(t), manifest)
	first := c.next(t, "the tools after connecting")
	require.Equal(t, "tools", first.Event, "event %+v", first)
	require.Equal(t, want, first.Names, "the first listing through gate")
}

// MCP Inspector's CLI (testdata/inspector) connects, makes one request and
// exits: run against gatectl mcp right after it starts, its tools/list
// holds every tool of the reference server everything, which gate's
// startup wait holds it for.
func TestInspectorCLIListsEveryToolOnItsFirstRequest(t *testing.T) {
	t.Parallel()
	node := tsNode(t)
	everything := tsServer(t, "mcp-server-everything")
	inspector, err := filepath.Abs(filepath.Join("testdata", "inspector", "node_modules", ".bin", "mcp-inspector"))
	require.NoError(t, err)
	if _, err := os.Stat(inspector); err != nil {
		t.Fatalf("MCP Inspector is not installed in testdata/inspector (%v): run ./scripts/test, which installs it (npm ci)", err)
	}
	want := toolNamesOf(t, directSession(t, everything, "stdio"), "everything_")
	manifest := mcpManifest(t, `
[[servers]]
name = "everything"
command = ["`+everything+`", "stdio"]
pass_env = ["PATH"]
`)
	// The bound this test rests on is gate's startup wait: the first
	// listing is held until everything is ready or the wait has passed.
	// Node takes seconds to start everything on a loaded machine, past
	// the default wait, so the test asks for one no start here nears.
	// The command's deadline, past that wait, only guards against a hang.
	startupWait := 2 * mcpWait
	ctx, cancel := context.WithTimeout(context.Background(), startupWait+2*mcpWait)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, inspector, "--cli", buildGatectlBinary(t),
		"mcp", "--startup-wait", startupWait.String(), "-m", manifest, "--method", "tools/list")
	cmd.Env = mcpEnv(t)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	require.NoError(t, err, "mcp-inspector --cli:\n%s", stderr.String())
	var listed struct {
		Tools []struct {
			Name string `json:"name"`
		} `json:"tools"`
	}
	require.NoError(t, json.Unmarshal(out, &listed), "mcp-inspector --cli printed:\n%s", out)
	var names []string
	for _, tool := range listed.Tools {
		names = append(names, tool.Name)
	}
	slices.Sort(names)
	assert.Equal(t, want, names)
}
