package mcpgw_test

import (
	"context"
	"fmt"
	"net/http"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/require"
)

// BenchmarkForwardedCallsByVersion is BenchmarkForwardedCalls's echo
// through the gateway, from clients of 2025-11-25 (a session, initialize
// once) and of 2026-07-28 (no session: each call is a POST the stateless
// handler serves on a session of its own, with the version and the
// client's capabilities in its _meta) in the same rounds, against one
// gateway that serves both (docs/BENCHMARKS.md, "2026-07-28 beside
// 2025-11-25").
//
//	go test -c -o /tmp/mcpgw.test ./internal/mcpgw && cd internal/mcpgw
//	for i in $(seq 5); do /tmp/mcpgw.test -test.run '^$' -test.bench ForwardedCallsByVersion -test.benchtime 2s -test.benchmem >> /tmp/ver.txt; done
//	benchstat -col /version /tmp/ver.txt
func BenchmarkForwardedCallsByVersion(b *testing.B) {
	b.Cleanup(noLeaks(b))
	const most = 16
	up := countingUpstream(b, newUpstreamServer(""))
	h := startB(b, fmt.Sprintf("[[servers]]\nname = \"web\"\nurl = %q\nprefix = \"w_\"\n", up.url), fastConfig().WithStateless(true))
	waitOffered(b, h.gw, len(upstreamTools))
	byVersion := map[string][]*mcp.ClientSession{}
	for _, v := range []string{"2025-11-25", "2026-07-28"} {
		for range most {
			byVersion[v] = append(byVersion[v], connectAtB(b, h.url, v))
		}
	}
	for _, n := range []int{1, 16} {
		for _, v := range []string{"2025-11-25", "2026-07-28"} {
			b.Run(fmt.Sprintf("sessions=%d/version=%s", n, v), func(b *testing.B) {
				// Params of their own: a 2026-07-28 client writes its
				// version into the _meta of the params it sends.
				forwardedCalls(b, up, byVersion[v][:n], &mcp.CallToolParams{Name: "w_echo", Arguments: map[string]any{"text": "hi"}})
			})
		}
	}
}

// connectAtB connects a client of version to url, with an HTTP client of
// its own, and closes it when tb ends.
func connectAtB(tb testing.TB, url, version string) *mcp.ClientSession {
	tb.Helper()
	hc := &http.Client{Transport: http.DefaultTransport.(*http.Transport).Clone()}
	ctx, cancel := context.WithTimeout(context.Background(), waitFor)
	defer cancel()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "bench-client", Version: "1"}, nil).
		Connect(ctx, &mcp.StreamableClientTransport{Endpoint: url, HTTPClient: hc, DisableStandaloneSSE: true}, &mcp.ClientSessionOptions{ProtocolVersion: version})
	require.NoError(tb, err)
	require.Equal(tb, version, cs.InitializeResult().ProtocolVersion)
	tb.Cleanup(func() {
		_ = cs.Close()
		hc.CloseIdleConnections()
	})
	return cs
}
