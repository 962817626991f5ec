package mcpgw_test

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The TypeScript SDK v2's server (tsserver26/server26.mjs), which speaks
// 2026-07-28 alone and so can ask for input only by answering
// input_required, asks during its tool "interview" in two rounds (an
// elicitation and a sampling request, then a second elicitation). Through
// gate, the calling client's handlers answer each round: the TypeScript
// SDK v2's client at 2026-07-28, which gets each input_required as it came
// and retries; and the Go SDK's client at 2025-11-25, to which gate sends
// the old form's requests and retries upstream itself. The upstream's
// result says what it received, so the answers are seen to arrive intact;
// another client's session, connected and able to answer throughout, is
// never asked.
func TestRelayTS26UpstreamInputRequired(t *testing.T) {
	node := tsNode(t, tsServer26Dir, "server")
	tsNode(t, tsClient26Dir, "client")
	script, err := filepath.Abs(filepath.Join(tsServer26Dir, "server26.mjs"))
	require.NoError(t, err)
	h := start(t, fmt.Sprintf("[[servers]]\nname = \"ts26\"\ncommand = [%q, %q]\nprefix = \"t_\"\n", node, script), fastConfig().WithStateless(true))
	watcher := h.answeringClient(t, caps{elicitForm: true, elicitURL: true, sample: true, version: oldForm})
	watcher.waitTool(t, "t_interview")

	t.Run("client 2026-07-28", func(t *testing.T) {
		got := runTSScript(t, node, filepath.Join(tsClient26Dir, "relay_client26.mjs"), h.url, "t_interview")
		require.Len(t, got, 2, "%+v", got)
		assert.Equal(t, "t_interview", got[0].Tool)
		require.Empty(t, got[0].Error)
		require.False(t, got[0].IsError, got[0].Text)
		assert.JSONEq(t, `{"name":"Ada via ts26","haiku":"gates open for ts26","model":"ts26-model","ok":true,"rounds":3}`, got[0].Text)
		// Round 1's two requests, in either order, then round 2's.
		asked := got[1].Asked
		require.Len(t, asked, 3, "asked %v", asked)
		assert.ElementsMatch(t, []string{"elicitation/create form name", "sampling/createMessage"}, asked[:2])
		assert.Equal(t, "elicitation/create form ok", asked[2])
	})

	t.Run("client 2025-11-25", func(t *testing.T) {
		caller := h.answeringClient(t, caps{elicitForm: true, sample: true, version: oldForm, formAnswer: map[string]any{"name": "Bob via go", "ok": true}})
		var heard map[string]any
		require.NoError(t, json.Unmarshal([]byte(caller.callText(t, "t_interview")), &heard))
		assert.Equal(t, map[string]any{"name": "Bob via go", "haiku": "sampled", "model": "test-model", "ok": true, "rounds": 3.0}, heard)
		assert.Equal(t, int32(2), caller.elicits.Load())
		assert.Equal(t, int32(1), caller.samples.Load())
	})

	assert.Zero(t, watcher.elicits.Load()+watcher.samples.Load(), "another client's session was asked")
}
