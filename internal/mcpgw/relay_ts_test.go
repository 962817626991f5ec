package mcpgw_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The reference server everything (the TypeScript SDK's) elicits (form
// and url) and samples during its trigger tools: through gate, the calling
// Go client answers each, and a second client's session is never asked.
func TestRelayTSUpstreamToCallingClient(t *testing.T) {
	bin := everythingBin(t)
	h := start(t, fmt.Sprintf("[[servers]]\nname = \"everything\"\ncommand = [%q, \"stdio\"]\nprefix = \"e_\"\n", bin), fastConfig())
	all := caps{elicitForm: true, elicitURL: true, sample: true, version: oldForm, formAnswer: map[string]any{"name": "Ann Example"}}
	caller, other := h.answeringClient(t, all), h.answeringClient(t, all)
	caller.waitTool(t, "e_trigger-elicitation-request")

	assert.Contains(t, caller.callText(t, "e_trigger-elicitation-request"), "Ann Example")
	assert.Contains(t, caller.callWith(t, "e_trigger-sampling-request", map[string]any{"prompt": "hi", "maxTokens": 5}), "sampled")
	assert.Contains(t, caller.callWith(t, "e_trigger-url-elicitation", map[string]any{"url": theURL, "message": "sign in"}), "User completed the URL elicitation flow")
	assert.Equal(t, int32(2), caller.elicits.Load())
	assert.Equal(t, int32(1), caller.samples.Load())
	assert.Equal(t, []string{theURL}, caller.seenURLs)
	assert.Zero(t, other.elicits.Load()+other.samples.Load(), "the other client's session was asked")
}

// The TypeScript SDK's client, through gate's streamable HTTP, answers an
// upstream's elicitations (form and url) and sampling in the old form, and
// the input requests of an upstream's input_required result, which gate
// sends it as the old form's requests (it speaks an earlier version). A
// client with no standalone stream gets them too: each goes on the event
// stream of the POST of the call it is for.
func TestRelayTSClientAnswersThroughGate(t *testing.T) {
	node := tsNode(t, tsClientDir, "sdk")
	old := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return askingUpstream(oldForm) }, nil))
	t.Cleanup(old.Close)
	newer := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return inputUpstream() }, &mcp.StreamableHTTPOptions{Stateless: true}))
	t.Cleanup(newer.Close)
	h := start(t, fmt.Sprintf("[[servers]]\nname = \"a\"\nurl = %q\nprefix = \"a_\"\n[[servers]]\nname = \"b\"\nurl = %q\nprefix = \"b_\"\n", old.URL, newer.URL), fastConfig())
	watcher := h.answeringClient(t, caps{elicitForm: true, elicitURL: true, sample: true, version: oldForm})
	watcher.waitTool(t, "a_confirm")
	watcher.waitTool(t, "b_confirm")

	for _, mode := range [][]string{nil, {"--nostream"}} {
		t.Run(fmt.Sprint("mode", mode), func(t *testing.T) {
			args := append(append([]string{h.url}, mode...), "a_confirm", "a_visit", "a_sample", "b_confirm")
			got := runTSScript(t, node, filepath.Join(tsClientDir, "relay_client.mjs"), args...)
			assert.Equal(t, []tsLine{
				{Tool: "a_confirm", Text: `{"action":"accept","content":{"ok":true}}`},
				{Tool: "a_visit", Text: `{"action":"accept"}`},
				{Tool: "a_sample", Text: `{"content":{"type":"text","text":"sampled by ts"},"model":"ts-model","role":"assistant"}`},
				{Tool: "b_confirm", Text: `{"action":"accept","content":{"ok":true}}`},
				{Asked: []string{"elicitation/create form", "elicitation/create url " + theURL, "sampling/createMessage", "elicitation/create form"}},
			}, got)
		})
	}
	assert.Zero(t, watcher.elicits.Load()+watcher.samples.Load(), "another client's session was asked")
}

// Where the TypeScript peers of the relay tests live: the SDK's client
// (relay_client.mjs), its v2 client (relay_client26.mjs) and its v2
// server (server26.mjs), each with the SDK its lock file pins.
const (
	tsClientDir   = "../../cmd/gatectl/testdata/tsclient"
	tsClient26Dir = "../../cmd/gatectl/testdata/tsclient26"
	tsServer26Dir = "../../cmd/gatectl/testdata/tsserver26"
)

// tsNode is node, with the package @modelcontextprotocol/PKG installed in
// dir; either missing fails the test.
func tsNode(t *testing.T, dir, pkg string) string {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		t.Fatalf("node is not installed (%v): run ./scripts/test, which installs it and the TypeScript SDK", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "@modelcontextprotocol", pkg)); err != nil {
		t.Fatalf("the TypeScript SDK's %s is not installed (%v): run ./scripts/test (npm ci in cmd/gatectl/testdata/%s)", pkg, err, filepath.Base(dir))
	}
	return node
}

// tsLine is one line a relay client script prints: a tool's result or
// error, or at the end what it was asked.
type tsLine struct {
	Tool, Text, Error string
	IsError           bool
	Asked             []string
}

// runTSScript runs a relay client script to its end, which must be a clean
// exit, and returns the lines it printed.
func runTSScript(t *testing.T, node, script string, args ...string) []tsLine {
	t.Helper()
	cmd := exec.CommandContext(ctxFor(t), node, append([]string{script}, args...)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	require.NoError(t, err, "%s:\n%s", filepath.Base(script), stderr.String())
	var got []tsLine
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		var l tsLine
		require.NoError(t, json.Unmarshal(sc.Bytes(), &l), sc.Text())
		got = append(got, l)
	}
	return got
}
