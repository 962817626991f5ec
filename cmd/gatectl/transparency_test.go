package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// compareStep is one line of testdata/tsclient/compare.mjs: a step of a
// session and what the server answered.
type compareStep struct {
	Step   string          `json:"step"`
	Result json.RawMessage `json:"result,omitempty"`
	Error  string          `json:"error,omitempty"`
}

// compareSession runs compare.mjs against argv (a server, or gatectl mcp
// fronting it), with root as the client's root, and returns its steps.
func compareSession(t *testing.T, node, root string, argv ...string) []compareStep {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 4*mcpWait)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, append([]string{filepath.Join(tsClientDir, "compare.mjs"), root}, argv...)...)
	cmd.Env = mcpEnv(t)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	require.NoError(t, err, "compare.mjs %v:\n%s", argv, stderr.String())
	var steps []compareStep
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for sc.Scan() {
		var s compareStep
		require.NoError(t, json.Unmarshal(sc.Bytes(), &s), "compare.mjs printed %q", sc.Text())
		steps = append(steps, s)
	}
	require.NoError(t, sc.Err())
	return steps
}

// The reference server everything, spoken to directly and through gatectl
// mcp (with no prefix, so that names are the server's own), answers the
// same: every tool, resource, resource template and prompt listed; each
// resource read, by its URI or through a template; each prompt got;
// completions of a prompt's and a template's arguments; the client's
// roots, as the server sees them; a log message at the level the client
// set; an update of a resource the client subscribed to. Each step is
// compared as the TypeScript client received it.
func TestThirdPartyServerThroughGateAnswersAsDirectly(t *testing.T) {
	t.Parallel()
	node := tsNode(t)
	everything := tsServer(t, "mcp-server-everything")
	root := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(root, "notes.txt"), []byte("a file under the root\n"), 0o600))
	manifest := mcpManifest(t, `
[[servers]]
name = "everything"
command = ["`+everything+`", "stdio"]
pass_env = ["PATH"]
prefix = ""
`)

	direct := compareSession(t, node, root, everything, "stdio")
	through := compareSession(t, node, root, buildGatectlBinary(t), "mcp", "-m", manifest)

	require.Greater(t, len(direct), 20, "the direct session made too few steps: %+v", direct)
	for i, d := range direct {
		require.Less(t, i, len(through), "through gate, the session ended before step %q", d.Step)
		g := through[i]
		require.Equal(t, d.Step, g.Step, "step %d", i)
		if d.Error != "" {
			assert.NotEmpty(t, g.Error, "step %q: directly an error (%s), through gate %s", d.Step, d.Error, g.Result)
			continue
		}
		require.Empty(t, g.Error, "step %q: directly %s", d.Step, d.Result)
		assert.JSONEq(t, string(d.Result), string(g.Result), "step %q", d.Step)
	}
	assert.Len(t, through, len(direct))
}
