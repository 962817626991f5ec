package mcpgw_test

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// post26 sends one 2026-07-28 request of method, its params' _meta added,
// to endpoint and returns the result it is answered.
func post26(t *testing.T, endpoint, method, name, params string) map[string]any {
	t.Helper()
	body := `{"jsonrpc":"2.0","id":7,"method":"` + method + `","params":{` + params + `,"_meta":` + meta26("") + `}}`
	req, err := http.NewRequestWithContext(ctxFor(t), http.MethodPost, endpoint, strings.NewReader(body))
	require.NoError(t, err)
	for k, v := range map[string]string{
		"Content-Type": "application/json", "Accept": "application/json, text/event-stream",
		"MCP-Protocol-Version": statelessVersion, "Mcp-Method": method, "Mcp-Name": name,
	} {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, resp.StatusCode, "%s", raw)
	for _, line := range strings.Split(string(raw), "\n") {
		var m struct{ Result map[string]any }
		if json.Unmarshal([]byte(strings.TrimPrefix(line, "data: ")), &m) == nil && m.Result != nil {
			return m.Result
		}
	}
	t.Fatalf("%s failed: %s", method, raw)
	return nil
}

// MCP 2026-07-28 requires a resultType of every resources/read and
// prompts/get result, as of tools/call's, and the TypeScript SDK v2's
// client (MCP Inspector's) refuses one without it: gate's own (a skill,
// the skills prompt) and those forwarded from an upstream of an older
// version, which has none, reach a 2026-07-28 client as "complete".
func TestStatelessReadAndPromptResultsAreComplete(t *testing.T) {
	skills := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(skills, "notes"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(skills, "notes", "SKILL.md"), []byte("---\nname: notes\ndescription: Keep notes.\n---\nWrite notes down.\n"), 0o600))
	up := newFeatureUpstream("one")
	url, _ := httpUpstream(t, up.s)
	h := start(t, fmt.Sprintf("[skills]\npaths = [%q]\n\n[[servers]]\nname = \"docs\"\nurl = %q\nprefix = \"d_\"\n", skills, url), fastConfig().WithStateless(true))
	h.featureClient().waitNames(t, "file:///docs/a.txt=d_a", "file:///docs/b.txt=d_b", "gate://skills/notes/SKILL.md=notes", "gate://skills/prompt=skills-prompt", docTmpl+"=d_md", "prompt d_greet", "prompt skills")

	for _, tc := range []struct {
		what, method, name, params, text string
	}{
		{"a forwarded read", "resources/read", docA, `"uri":"` + docA + `"`, "one reads " + docA},
		{"a skill's read", "resources/read", "gate://skills/notes/SKILL.md", `"uri":"gate://skills/notes/SKILL.md"`, "Write notes down."},
		{"a forwarded prompt", "prompts/get", "d_greet", `"name":"d_greet","arguments":{"who":"ann"}`, "one says hello to ann"},
		{"the skills prompt", "prompts/get", "skills", `"name":"skills"`, "notes"},
	} {
		res := post26(t, h.url, tc.method, tc.name, tc.params)
		assert.Equal(t, "complete", res["resultType"], "%s: %v", tc.what, res)
		assert.Contains(t, fmt.Sprint(res), tc.text, tc.what)
	}
}
