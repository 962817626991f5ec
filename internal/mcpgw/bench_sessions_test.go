package mcpgw_test

import (
	"context"
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/gate-dev/gate/internal/mcptest"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// BenchmarkCallWithProgress times one tools/call of steps (10 progress
// notifications, then the result), directly and through the gateway,
// until the result and every notification are in: the path of forwarded
// progress (the session's outbox, the wait for the progress before a
// result). The client has a standalone stream, so that the numbers
// compare with a gateway that sent progress there.
func BenchmarkCallWithProgress(b *testing.B) {
	b.Cleanup(noLeaks(b))
	url := upstreamB(b, mcptest.NewProgressServer())
	progress := make(chan float64, 100)
	connect := func(endpoint string) *mcp.ClientSession {
		ctx, cancel := context.WithTimeout(context.Background(), waitFor)
		defer cancel()
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "bench-client", Version: "1"}, &mcp.ClientOptions{
			ProgressNotificationHandler: func(_ context.Context, r *mcp.ProgressNotificationClientRequest) { progress <- r.Params.Progress },
		}).Connect(ctx, &mcp.StreamableClientTransport{Endpoint: endpoint, HTTPClient: &http.Client{Transport: http.DefaultTransport.(*http.Transport).Clone()}}, nil)
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { _ = cs.Close() })
		return cs
	}
	direct := connect(url)
	h := startB(b, fmt.Sprintf("[[servers]]\nname = \"up\"\nurl = %q\nprefix = \"p_\"\n", url), fastConfig())
	via := connect(h.url)
	waitOffered(b, h.gw, len(mcptest.ProgressTools))

	for _, v := range []struct {
		name, tool string
		cs         *mcp.ClientSession
	}{{"via=direct", "steps", direct}, {"via=gateway", "p_steps", via}} {
		b.Run(v.name, func(b *testing.B) {
			call := func() {
				params := &mcp.CallToolParams{Name: v.tool, Arguments: map[string]any{"steps": 10}}
				params.SetProgressToken("bench")
				res, err := v.cs.CallTool(context.Background(), params)
				if err != nil || res.IsError {
					b.Fatalf("call %s: %v %v", v.tool, err, res)
				}
				for range 10 {
					select {
					case <-progress:
					case <-time.After(waitFor):
						b.Fatal("a progress notification never came")
					}
				}
			}
			call()
			lat := timeEach(b, call)
			reportPercentiles(b, lat, time.Microsecond, "µs")
		})
	}
}
