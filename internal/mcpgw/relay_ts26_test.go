package mcpgw_test

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The TypeScript SDK v2's server (tsserver26/server26.mjs), which speaks
// 2026-07-28 alone and so can ask for input only by answering
// input_required, asks during its tool "interview" in two rounds (an
// elicitation and a sampling request, then a second elicitation). Through
// gate, the calling client's handlers answer each round: the TypeScript
// SDK v2's client and the Go SDK's at 2026-07-28, each of which gets the
// input_required as it came and retries; and the Go SDK's at 2025-11-25,
// to which gate sends the old form's requests, retrying upstream itself.
// The upstream's result says what it received, so the answers are seen to
// arrive intact and in their round; another client's session, connected
// and able to answer throughout, is never asked, nor is a session whose
// own call is in flight on the same upstream at the same time. gate
// reaches the upstream over stdio, and over streamable HTTP.
func TestRelayTS26UpstreamInputRequired(t *testing.T) {
	node := tsNode(t, tsServer26Dir, "server")
	tsNode(t, tsClient26Dir, "client")
	script, err := filepath.Abs(filepath.Join(tsServer26Dir, "server26.mjs"))
	require.NoError(t, err)
	t.Run("stdio", func(t *testing.T) {
		relayTS26(t, node, fmt.Sprintf("command = [%q, %q]", node, script))
	})
	t.Run("http", func(t *testing.T) {
		relayTS26(t, node, fmt.Sprintf("url = %q", startTSServer26HTTP(t, node, script)))
	})
}

// visited is what the upstream's tool "visit" says it heard: the
// client's action alone, though each client's handler answers a url-mode
// elicitation with a password.
const visited = `{"action":"accept","content":null}`

// relayTS26 is the test's scenario, with gate fronting server26.mjs as
// server "ts26" reached by how.
func relayTS26(t *testing.T, node, how string) {
	h := start(t, fmt.Sprintf("[[servers]]\nname = \"ts26\"\n%s\nprefix = \"t_\"\n", how), fastConfig().WithStateless(true))
	watcher := h.answeringClient(t, caps{elicitForm: true, elicitURL: true, sample: true, version: oldForm})
	watcher.waitTool(t, "t_interview")

	t.Run("typescript client "+newForm, func(t *testing.T) {
		got := runTSScript(t, node, filepath.Join(tsClient26Dir, "relay_client26.mjs"), h.url, "t_interview", "t_visit")
		require.Len(t, got, 3, "%+v", got)
		assert.Equal(t, tsLine{Tool: "t_interview", Text: `{"name":"Ada via ts26","haiku":"gates open for ts26","model":"ts26-model","ok":true,"rounds":3}`}, got[0])
		assert.Equal(t, tsLine{Tool: "t_visit", Text: visited}, got[1])
		// Round 1's two requests, in either order, then round 2's, then
		// the visit's.
		asked := got[2].Asked
		require.Len(t, asked, 4, "asked %v", asked)
		assert.ElementsMatch(t, []string{"elicitation/create form name", "sampling/createMessage"}, asked[:2])
		assert.Equal(t, []string{"elicitation/create form ok", "elicitation/create url " + theURL}, asked[2:])
	})

	// The Go SDK's client, at 2025-11-25 over gate's streamable HTTP (gate
	// bridges), and at 2026-07-28 on gate's server directly, as over stdio
	// (the SDK retries with its handlers' answers, as the TypeScript one
	// does).
	for _, version := range []string{oldForm, newForm} {
		t.Run("go client "+version, func(t *testing.T) {
			caller := h.answeringClient(t, caps{elicitForm: true, elicitURL: true, sample: true, version: version, formAnswer: map[string]any{"name": "Bob via go", "ok": true}})
			assert.JSONEq(t, `{"name":"Bob via go","haiku":"sampled","model":"test-model","ok":true,"rounds":3}`, caller.callText(t, "t_interview"))
			assert.Equal(t, visited, caller.callText(t, "t_visit"))
			assert.Equal(t, int32(3), caller.elicits.Load())
			assert.Equal(t, int32(1), caller.samples.Load())
			assert.Equal(t, []string{theURL}, caller.seenURLs)
		})
	}

	// Two sessions' calls in flight on the one upstream at once: the Go
	// client's is held at its first elicitation while the TypeScript
	// client's call runs all its rounds; each session is asked only for its
	// own call, and each answer reaches the round it was asked for.
	t.Run("both at once", func(t *testing.T) {
		held := h.answeringClient(t, caps{elicitForm: true, sample: true, version: oldForm, hold: true, formAnswer: map[string]any{"name": "Cy held", "ok": false}})
		done := make(chan string, 1)
		go func() {
			res, err := held.cs.CallTool(ctxFor(t), &mcp.CallToolParams{Name: "t_interview", Arguments: map[string]any{}})
			if err != nil {
				done <- "error: " + err.Error()
				return
			}
			done <- textOf(res)
		}()
		select {
		case <-held.entered:
		case <-time.After(waitFor):
			t.Fatal("the held client was never asked")
		}
		got := runTSScript(t, node, filepath.Join(tsClient26Dir, "relay_client26.mjs"), h.url, "t_interview")
		require.Len(t, got, 2, "%+v", got)
		assert.JSONEq(t, `{"name":"Ada via ts26","haiku":"gates open for ts26","model":"ts26-model","ok":true,"rounds":3}`, got[0].Text)
		close(held.hold)
		select {
		case text := <-done:
			assert.JSONEq(t, `{"name":"Cy held","haiku":"sampled","model":"test-model","ok":false,"rounds":3}`, text)
		case <-time.After(waitFor):
			t.Fatal("the held client's call never ended")
		}
		assert.Equal(t, int32(2), held.elicits.Load())
		assert.Equal(t, int32(1), held.samples.Load())
	})

	assert.Zero(t, watcher.elicits.Load()+watcher.samples.Load(), "another client's session was asked")
}

// startTSServer26HTTP runs server26.mjs over streamable HTTP until the
// test ends, and returns the URL it says it serves.
func startTSServer26HTTP(t *testing.T, node, script string) string {
	t.Helper()
	cmd := exec.Command(node, script, "http")
	// Its stderr goes to a file, read only to say why it failed.
	errs, err := os.Create(filepath.Join(t.TempDir(), "stderr"))
	require.NoError(t, err)
	defer errs.Close()
	cmd.Stderr = errs
	stderr := func() string { b, _ := os.ReadFile(errs.Name()); return string(b) }
	stdout, err := cmd.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	})
	first := make(chan string, 1)
	go func() {
		line, _ := bufio.NewReader(stdout).ReadString('\n')
		first <- line
	}()
	var said struct{ URL string }
	select {
	case line := <-first:
		require.NoError(t, json.Unmarshal([]byte(line), &said), "server26.mjs http said %q:\n%s", line, stderr())
	case <-time.After(waitFor):
		t.Fatalf("server26.mjs http said nothing in %v:\n%s", waitFor, stderr())
	}
	require.NotEmpty(t, said.URL)
	return said.URL
}
