//lint:file-ignore SA1019 MCP deprecates sampling as of 2026-07-28 (SEP-2577); the older client here answers it in the old form

package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"os/exec"
	"path/filepath"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The reference server everything (an older version, 2025-11-25) asks in
// the old form, elicitation/create and sampling/createMessage, during its
// trigger tools. Through a real gatectl, the TypeScript SDK v2's client at
// 2026-07-28 (relay_client26.mjs) is sent each as an input_required
// result, answers it with its handlers and retries; everything's result
// echoes the answer.

// parkedTools are the trigger tools relay_client26.mjs calls, with the
// arguments each needs. The url-mode elicitation's URL is never opened:
// gate passes it on as written and the client only records it.
var parkedTools = []string{
	"e_trigger-elicitation-request",
	`e_trigger-sampling-request={"prompt":"hi","maxTokens":5}`,
	`e_trigger-url-elicitation={"url":"` + parkedURL + `","message":"sign in"}`,
}

const parkedURL = "https://example.com/sign-in"

// everythingManifest fronts the reference server everything, its tools
// prefixed e_.
func everythingManifest(t *testing.T) string {
	t.Helper()
	return mcpManifest(t, `
[[servers]]
name = "everything"
command = ["`+tsServer(t, "mcp-server-everything")+`", "stdio"]
pass_env = ["PATH"]
prefix = "e_"
`)
}

// relayLine is one line relay_client26.mjs prints: a tool's result or
// error, or at the end what it was asked.
type relayLine struct {
	Tool, Text, Error string
	IsError           bool
	Asked             []string
}

// runRelayClient26 runs relay_client26.mjs with args and env to its end,
// which must be a clean exit, and returns the lines it printed.
func runRelayClient26(t *testing.T, env []string, args ...string) []relayLine {
	t.Helper()
	node := tsNode(t)
	ctx, cancel := context.WithTimeout(context.Background(), 4*mcpWait)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, append([]string{filepath.Join(tsClient26Dir, "relay_client26.mjs")}, args...)...)
	cmd.Env = env
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	require.NoError(t, err, "relay_client26.mjs:\n%s", stderr.String())
	var got []relayLine
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		var l relayLine
		require.NoError(t, json.Unmarshal(sc.Bytes(), &l), sc.Text())
		got = append(got, l)
	}
	return got
}

// assertEverythingGotTheAnswers checks relay_client26.mjs's lines: each
// trigger tool's result echoes what the client answered (its form's name,
// its sampled text, its url-mode action), so the answer reached
// everything, and the client was asked once for each. The url-mode
// answer reached it as its action alone: the content the client put in
// it (a password) is nowhere in everything's echo of what it got.
func assertEverythingGotTheAnswers(t *testing.T, got []relayLine) {
	t.Helper()
	require.Len(t, got, 4, "%+v", got)
	for i, want := range []string{"- Name: Ada via ts26", `"text": "gates open for ts26"`, "User completed the URL elicitation flow"} {
		assert.Empty(t, got[i].Error, "%s", got[i].Tool)
		assert.False(t, got[i].IsError, "%s: %s", got[i].Tool, got[i].Text)
		assert.Contains(t, got[i].Text, want, "%s", got[i].Tool)
	}
	assert.Contains(t, got[1].Text, `"model": "ts26-model"`)
	assert.Contains(t, got[2].Text, `"action": "accept"`)
	assert.NotContains(t, got[2].Text, "hunter2", "the url-mode answer's content reached the upstream")
	require.Len(t, got[3].Asked, 3, "what the client was asked")
	assert.Contains(t, got[3].Asked[0], "elicitation/create form ")
	assert.Contains(t, got[3].Asked[0], " name ")
	assert.Equal(t, []string{"sampling/createMessage", "elicitation/create url " + parkedURL}, got[3].Asked[1:])
}

// TestTS26ClientAnswersOlderUpstreamOverStdio: through gatectl mcp.
func TestTS26ClientAnswersOlderUpstreamOverStdio(t *testing.T) {
	args := append([]string{"stdio", buildGatectlBinary(t), "mcp", "-m", everythingManifest(t), "--"}, parkedTools...)
	assertEverythingGotTheAnswers(t, runRelayClient26(t, mcpEnv(t), args...))
}

// TestTS26ClientAnswersOlderUpstreamOverServeStateless: through gatectl
// serve's /mcp with --mcp-stateless, while an older client (the Go SDK's,
// 2025-11-25, which could answer both) holds a session of the same gate:
// it is never asked.
func TestTS26ClientAnswersOlderUpstreamOverServeStateless(t *testing.T) {
	const token = "ts26-parked-token-0123456789abcdef"
	s := startServeArgs(t, buildGatectlBinary(t), mcpEnv(t, "GATE_TOKEN="+token),
		"-m", everythingManifest(t), "--addr", "127.0.0.1:0", "--mcp-stateless")
	t.Cleanup(func() { s.stop(t, "gatectl serve") })
	endpoint := "http://" + s.addr + "/mcp"

	var asked atomic.Int32
	changed := make(chan struct{}, 100)
	other := mcp.NewClient(&mcp.Implementation{Name: "older-bystander", Version: "1"}, &mcp.ClientOptions{
		ToolListChangedHandler: func(context.Context, *mcp.ToolListChangedRequest) { changed <- struct{}{} },
		ElicitationHandler: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			asked.Add(1)
			return &mcp.ElicitResult{Action: "decline"}, nil
		},
		CreateMessageHandler: func(context.Context, *mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
			asked.Add(1)
			return &mcp.CreateMessageResult{Model: "bystander", Role: "assistant", Content: &mcp.TextContent{Text: "not this one"}}, nil
		},
	})
	ctx, cancel := context.WithTimeout(context.Background(), mcpWait)
	defer cancel()
	cs, err := other.Connect(ctx, &mcp.StreamableClientTransport{
		Endpoint: endpoint, HTTPClient: &http.Client{Transport: newBearerTransport(token)}, MaxRetries: -1,
	}, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	require.NoError(t, err)
	t.Cleanup(func() { _ = cs.Close() })
	require.Equal(t, "2025-11-25", cs.InitializeResult().ProtocolVersion)
	waitForTool(t, cs, changed, "e_trigger-sampling-request")

	got := runRelayClient26(t, mcpEnv(t, "RELAY_TOKEN="+token), append([]string{endpoint}, parkedTools...)...)
	assertEverythingGotTheAnswers(t, got)
	assert.Zero(t, asked.Load(), "the older client's session was asked")
}

// waitForTool waits until the session's tools/list holds name (everything
// is a node process that takes a moment to start): after each list change,
// or a moment after a listing, since a change gate sent before the
// client's standalone stream was open is heard by no one.
func waitForTool(t *testing.T, cs *mcp.ClientSession, changed <-chan struct{}, name string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*mcpWait)
	defer cancel()
	for {
		res, err := cs.ListTools(ctx, nil)
		require.NoError(t, err)
		if slices.ContainsFunc(res.Tools, func(tool *mcp.Tool) bool { return tool.Name == name }) {
			return
		}
		select {
		case <-changed:
		case <-time.After(50 * time.Millisecond):
		case <-ctx.Done():
			t.Fatalf("gate never listed %s", name)
		}
	}
}
