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
	node := relayNode(t)
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
			args := append(append([]string{filepath.Join(tsRelayDir, "relay_client.mjs"), h.url}, mode...), "a_confirm", "a_visit", "a_sample", "b_confirm")
			cmd := exec.CommandContext(ctxFor(t), node, args...)
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			out, err := cmd.Output()
			require.NoError(t, err, "relay_client.mjs:\n%s", stderr.String())
			type line struct {
				Tool, Text, Error string
				Asked             []string
			}
			var got []line
			sc := bufio.NewScanner(bytes.NewReader(out))
			for sc.Scan() {
				var l line
				require.NoError(t, json.Unmarshal(sc.Bytes(), &l), sc.Text())
				got = append(got, l)
			}
			assert.Equal(t, []line{
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

// tsRelayDir is where the TypeScript client of the relay tests lives.
const tsRelayDir = "../../cmd/gatectl/testdata/tsclient"

// relayNode is node, with the TypeScript SDK the relay client imports
// installed; either missing fails the test.
func relayNode(t *testing.T) string {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		t.Fatalf("node is not installed (%v): run ./scripts/test, which installs it and the TypeScript SDK", err)
	}
	if _, err := os.Stat(filepath.Join(tsRelayDir, "node_modules", "@modelcontextprotocol", "sdk")); err != nil {
		t.Fatalf("the TypeScript SDK is not installed (%v): run ./scripts/test (npm ci in cmd/gatectl/testdata/tsclient)", err)
	}
	return node
}
