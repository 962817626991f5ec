package mcpgw_test

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/gate-dev/gate/internal/mcptest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// MCP 2026-07-28 requires every tools/call result to say resultType, and
// the TypeScript SDK v2's client refuses one that does not: a call
// forwarded to an upstream of an older version, whose result has none,
// reaches a 2026-07-28 client as "complete".
func TestStatelessCallResultIsComplete(t *testing.T) {
	url, _ := httpUpstream(t, mcptest.NewProgressServer())
	h := start(t, fmt.Sprintf("[[servers]]\nname = \"up\"\nurl = %q\nprefix = \"\"\n", url), fastConfig().WithStateless(true))
	h.client26().WaitTools(t, "flood", "hang", "steps")

	body := `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"steps","arguments":{"steps":1},"_meta":` + meta26("") + `}}`
	req, err := http.NewRequestWithContext(ctxFor(t), http.MethodPost, h.url, strings.NewReader(body))
	require.NoError(t, err)
	for k, v := range map[string]string{
		"Content-Type": "application/json", "Accept": "application/json, text/event-stream",
		"MCP-Protocol-Version": statelessVersion, "Mcp-Method": "tools/call", "Mcp-Name": "steps",
	} {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, resp.StatusCode, "%s", raw)
	var res map[string]any
	for _, line := range strings.Split(string(raw), "\n") {
		var m struct{ Result map[string]any }
		if json.Unmarshal([]byte(strings.TrimPrefix(line, "data: ")), &m) == nil && m.Result != nil {
			res = m.Result
		}
	}
	require.NotNil(t, res, "the call failed: %s", raw)
	assert.Equal(t, "complete", res["resultType"])
	assert.Equal(t, "done after 1 steps", fmt.Sprint(res["content"].([]any)[0].(map[string]any)["text"]))
}
