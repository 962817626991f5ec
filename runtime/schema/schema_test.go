package schema

import (
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gate-dev/gate/internal/golden"
)

var tools = []Tool{
	{
		Name:        "search_web",
		Description: "Search the web for information.",
		Parameters:  json.RawMessage(`{"type":"object","properties":{"query":{"type":"string","description":"what to search for"}},"required":["query"]}`),
	},
	{Name: "notify_team", Description: "Send notifications to team Slack <#general> & co."},
	{Name: "no_description"},
}

// TestGolden pins each format against testdata/<format>.json.
func TestGolden(t *testing.T) {
	for _, f := range Formats {
		t.Run(string(f), func(t *testing.T) {
			got, err := JSON(f, tools)
			require.NoError(t, err)
			golden.Check(t, filepath.Join("testdata", string(f)+".json"), got)
		})
	}
}

// TestShapes checks the structural rules each API states, independent of
// the golden text.
func TestShapes(t *testing.T) {
	decode := func(f Format) any {
		b, err := JSON(f, tools)
		require.NoError(t, err)
		var v any
		require.NoError(t, json.Unmarshal(b, &v))
		return v
	}
	openai := decode(OpenAI).([]any)
	require.Len(t, openai, 3)
	first := openai[0].(map[string]any)
	assert.Equal(t, "function", first["type"])
	fn := first["function"].(map[string]any)
	assert.Equal(t, "search_web", fn["name"])
	assert.Equal(t, "object", fn["parameters"].(map[string]any)["type"])
	third := openai[2].(map[string]any)["function"].(map[string]any)
	assert.NotContains(t, third, "description")
	assert.Equal(t, map[string]any{"type": "object", "properties": map[string]any{}}, third["parameters"])

	anthropic := decode(Anthropic).([]any)
	assert.Contains(t, anthropic[1].(map[string]any), "input_schema")

	mcp := decode(MCP).(map[string]any)["tools"].([]any)
	assert.Contains(t, mcp[0].(map[string]any), "inputSchema")

	empty, err := JSON(MCP, nil)
	require.NoError(t, err)
	assert.JSONEq(t, `{"tools":[]}`, string(empty))
	emptyList, err := JSON(OpenAI, nil)
	require.NoError(t, err)
	assert.JSONEq(t, `[]`, string(emptyList))
}

func TestParseFormat(t *testing.T) {
	for in, want := range map[string]Format{"openai": OpenAI, " Anthropic ": Anthropic, "MCP": MCP} {
		got, err := ParseFormat(in)
		require.NoError(t, err)
		assert.Equal(t, want, got)
	}
	_, err := ParseFormat("gemini")
	assert.EqualError(t, err, `unknown schema format "gemini" (want openai, anthropic or mcp)`)
}
