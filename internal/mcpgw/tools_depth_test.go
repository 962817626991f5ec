package mcpgw

import (
	"encoding/json"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The stand-in the link lists for a tool nested too deep is hidden with
// why; a tool beside it checks as it is.
func TestCheckToolHidesATooDeepStandIn(t *testing.T) {
	var standIn, ok mcp.Tool
	require.NoError(t, json.Unmarshal([]byte(`{"name":"deep","inputSchema":{"type":"object"},"_meta":{"gate.dev/too-deep":1502}}`), &standIn))
	require.NoError(t, json.Unmarshal([]byte(`{"name":"ok","inputSchema":{"type":"object"}}`), &ok))
	lt := checkTool(t.Context(), &standIn, &compileSlot{}, nil)
	assert.Equal(t, "deep", lt.name)
	assert.Contains(t, lt.invalid, "its definition nests 1502 deep")
	assert.Empty(t, checkTool(t.Context(), &ok, &compileSlot{}, nil).invalid)
}
