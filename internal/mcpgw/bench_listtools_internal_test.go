package mcpgw

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// BenchmarkListToolsHandler1000 times gate's own part of a tools/list of
// 1,000 offered tools, in process: the answer (a page of the offered set,
// its ttlMs and cacheScope) and its JSON, without a transport whose cost
// would hide it.
func BenchmarkListToolsHandler1000(b *testing.B) {
	g, _ := capGateway(b, 16)
	listed := make([]*mcp.Tool, 1000)
	for i := range listed {
		name := fmt.Sprintf("w_tool%04d", i)
		listed[i] = &mcp.Tool{Name: name, Description: "Tool number " + name[6:] + ".", InputSchema: map[string]any{"type": "object"}}
	}
	g.mu.Lock()
	g.listed = listed
	g.mu.Unlock()
	req := &mcp.ListToolsRequest{Params: &mcp.ListToolsParams{}}
	b.ReportAllocs()
	for b.Loop() {
		res, err := g.listTools(req)
		if err != nil || len(res.Tools) != len(listed) {
			b.Fatalf("listed %d tools (%v); want %d", len(res.Tools), err, len(listed))
		}
		if _, err := json.Marshal(res); err != nil {
			b.Fatal(err)
		}
	}
}
