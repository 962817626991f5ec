package mcpgw

import (
	"fmt"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// tools/list pages the offered set in name order, toolsPage at a time; a
// cursor is the last name of the page before, so that a page asked for
// after the set changed starts where the last one ended; a cursor gate
// did not give is an error.
func TestListToolsPages(t *testing.T) {
	offered := map[string]*offer{}
	for i := range 2*toolsPage + 10 {
		name := fmt.Sprintf("t%05d", i)
		offered[name] = &offer{tool: &mcp.Tool{Name: name}}
	}
	g := &Gateway{listed: sortedTools(offered)}
	page := func(cursor string) *mcp.ListToolsResult {
		res, err := g.listTools(&mcp.ListToolsRequest{Params: &mcp.ListToolsParams{Cursor: cursor}})
		require.NoError(t, err)
		return res
	}
	var names []string
	cursor := ""
	for n := 0; ; n++ {
		require.Less(t, n, 5)
		res := page(cursor)
		for _, tool := range res.Tools {
			names = append(names, tool.Name)
		}
		if res.NextCursor == "" {
			break
		}
		cursor = res.NextCursor
	}
	require.Len(t, names, 2*toolsPage+10)
	assert.IsIncreasing(t, names)

	// The set changes between pages: the next page starts after the
	// last name given, whichever tools are offered now.
	first := page("")
	delete(offered, first.Tools[len(first.Tools)-1].Name)
	delete(offered, fmt.Sprintf("t%05d", toolsPage))
	g.listed = sortedTools(offered)
	assert.Equal(t, fmt.Sprintf("t%05d", toolsPage+1), page(first.NextCursor).Tools[0].Name)

	_, err := g.listTools(&mcp.ListToolsRequest{Params: &mcp.ListToolsParams{Cursor: "not base64!"}})
	var je *jsonrpc.Error
	require.ErrorAs(t, err, &je)
	assert.Equal(t, int64(jsonrpc.CodeInvalidParams), je.Code)
	empty, err := (&Gateway{}).listTools(&mcp.ListToolsRequest{})
	require.NoError(t, err)
	assert.NotNil(t, empty.Tools, "an empty list is [], not null")
}
