package mcpgw

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gate-dev/gate/runtime"
	"github.com/stretchr/testify/require"

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

// BenchmarkListTTL times the ttlMs of one list, which every list answer
// pays: the common case (the next look ahead), and the one the first list
// after that look pays (the cached answers of the manifest's servers and
// rules read again; here 10 servers, each with an env: probe).
func BenchmarkListTTL(b *testing.B) {
	path := filepath.Join(b.TempDir(), "gate.toml")
	var m strings.Builder
	var names []string
	for i := range 10 {
		fmt.Fprintf(&m, "[[servers]]\nname = \"s%d\"\nprobe = \"env:HOME\"\n\n", i)
		names = append(names, fmt.Sprintf("s%d", i))
	}
	require.NoError(b, os.WriteFile(path, []byte(m.String()), 0o600))
	svc, err := runtime.OpenService(context.Background(), path, runtime.NewServiceConfig().WithWatchInterval(0))
	require.NoError(b, err)
	b.Cleanup(func() { _ = svc.Close(context.Background()) })
	_, err = svc.Gate().Servers().Status(context.Background())
	require.NoError(b, err)
	g := New(svc, NewConfig())
	for _, tc := range []struct {
		name string
		due  time.Duration
	}{{"ahead", time.Hour}, {"passed", -time.Hour}} {
		b.Run(tc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				g.mu.Lock()
				g.fresh = freshness{names: names, probeDue: time.Now().Add(tc.due)}
				g.mu.Unlock()
				if g.listTTL() <= 0 && tc.due > 0 {
					b.Fatal("no ttl")
				}
			}
		})
	}
}
