package main

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gate-dev/gate/internal/mcptest"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// roundRobin is a reverse proxy that sends each request to the next of its
// upstreams in turn, as a load balancer without session affinity does, and
// counts what each answered.
type roundRobin struct {
	next     atomic.Uint64
	proxies  []*httputil.ReverseProxy
	answered []atomic.Int64
}

func newRoundRobin(t *testing.T, targets ...string) *roundRobin {
	t.Helper()
	rr := &roundRobin{answered: make([]atomic.Int64, len(targets))}
	for _, target := range targets {
		u, err := url.Parse(target)
		require.NoError(t, err)
		rr.proxies = append(rr.proxies, &httputil.ReverseProxy{
			Rewrite:       func(r *httputil.ProxyRequest) { r.SetURL(u) },
			FlushInterval: -1, // a listen's events as they come
		})
	}
	return rr
}

func (rr *roundRobin) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	i := int((rr.next.Add(1) - 1) % uint64(len(rr.proxies)))
	rr.answered[i].Add(1)
	rr.proxies[i].ServeHTTP(w, r)
}

// Two gatectl serve processes behind a round-robin proxy serve one
// 2026-07-28 client as one: it lists and calls through either, hears a
// flip of a tool's probe on its listen, and every list after shows it,
// whichever replica answers.
func TestServeReplicasBehindARoundRobinProxy(t *testing.T) {
	t.Parallel()
	const token = "replica-token-0123456789abcdef"
	upstream := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return mcptest.NewProgressServer() }, nil))
	t.Cleanup(func() {
		upstream.CloseClientConnections()
		upstream.Close()
	})
	rule := newMCPListener(t)
	manifest := mcpManifest(t, fmt.Sprintf(`
[[servers]]
name = "up"
url = %q
prefix = ""

[[servers.tools]]
name = "steps"
probe = "tcp:%s"
`, upstream.URL, rule.addr))
	bin := buildGatectlBinary(t)
	var targets []string
	for range 2 {
		s := startServeArgs(t, bin, mcpEnv(t, "GATE_TOKEN="+token), "-m", manifest, "--addr", "127.0.0.1:0", "--mcp-stateless")
		t.Cleanup(func() {
			if s.cmd.ProcessState == nil {
				_ = s.cmd.Process.Kill()
			}
		})
		targets = append(targets, "http://"+s.addr)
	}
	rr := newRoundRobin(t, targets...)
	proxy := httptest.NewServer(rr)
	t.Cleanup(func() {
		proxy.CloseClientConnections()
		proxy.Close()
	})

	c := &mcptest.Client{Changed: make(chan struct{}, 1000)}
	acked := make(chan struct{}, 10)
	cl := mcp.NewClient(&mcp.Implementation{Name: "replicas-client", Version: "1"}, &mcp.ClientOptions{
		ToolListChangedHandler: func(context.Context, *mcp.ToolListChangedRequest) { c.Changed <- struct{}{} },
	})
	cl.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			if method == "notifications/subscriptions/acknowledged" {
				acked <- struct{}{}
			}
			return next(ctx, method, req)
		}
	})
	ctx, cancel := context.WithTimeout(context.Background(), 4*mcpWait)
	defer cancel()
	cs, err := cl.Connect(ctx, &mcp.StreamableClientTransport{
		Endpoint: proxy.URL + "/mcp", HTTPClient: &http.Client{Transport: newBearerTransport(token)}, MaxRetries: -1,
	}, &mcp.ClientSessionOptions{ProtocolVersion: "2026-07-28"})
	require.NoError(t, err)
	t.Cleanup(func() { _ = cs.Close() })
	require.Equal(t, "2026-07-28", cs.InitializeResult().ProtocolVersion)
	c.Session = cs
	select {
	case <-acked:
	case <-time.After(mcpWait):
		t.Fatal("the listen was never acknowledged")
	}

	// everyReplicaLists waits until the client's list through the proxy
	// is want, and then until each replica, asked directly, lists want:
	// each replica probes on its own schedule, so the one that told the
	// client's listen of a flip may be ahead of the other. (A client of
	// its own, which opens no listen.)
	lister := mcp.NewClient(&mcp.Implementation{Name: "replica-lister", Version: "1"}, nil)
	everyReplicaLists := func(want ...string) {
		t.Helper()
		c.WaitTools(t, want...)
		for _, target := range targets {
			direct, err := lister.Connect(ctx, &mcp.StreamableClientTransport{
				Endpoint: target + "/mcp", HTTPClient: &http.Client{Transport: newBearerTransport(token)}, MaxRetries: -1,
			}, &mcp.ClientSessionOptions{ProtocolVersion: "2026-07-28"})
			require.NoError(t, err)
			lists := func() []string {
				var names []string
				for tool, err := range direct.Tools(ctx, nil) {
					require.NoError(t, err)
					names = append(names, tool.Name)
				}
				slices.Sort(names)
				return names
			}
			var got []string
			require.Eventually(t, func() bool { got = lists(); return slices.Equal(got, want) }, mcpWait, 20*time.Millisecond, "replica %s lists %v", target, &got)
			require.NoError(t, direct.Close())
		}
	}
	call := func() (*mcp.CallToolResult, error) {
		return cs.CallTool(ctx, &mcp.CallToolParams{Name: "steps", Arguments: map[string]any{"steps": 2}})
	}

	everyReplicaLists(mcptest.ProgressTools...)
	for range 2 {
		res, err := call()
		require.NoError(t, err)
		assert.Equal(t, "done after 2 steps", mcptest.Text(res))
	}

	c.Drain()
	rule.close()
	c.WaitChanged(t)
	everyReplicaLists("flood", "hang")
	for range 2 {
		_, err := call()
		require.Error(t, err)
		assert.Contains(t, err.Error(), "is not available now")
	}

	rule.reopen()
	c.WaitChanged(t)
	everyReplicaLists(mcptest.ProgressTools...)
	res, err := call()
	require.NoError(t, err)
	assert.Equal(t, "done after 2 steps", mcptest.Text(res))

	for i := range rr.answered {
		assert.Greater(t, rr.answered[i].Load(), int64(4), "replica %d answered too few of the client's requests", i)
	}
}
