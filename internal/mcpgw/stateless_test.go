//lint:file-ignore SA1019 MCP deprecates logging as of 2026-07-28 (SEP-2577); the test checks that gate still passes log messages on

package mcpgw_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gate-dev/gate/internal/mcptest"
	"github.com/gate-dev/gate/runtime"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// statelessVersion is the protocol version whose requests carry it, and
// which /mcp serves without sessions.
const statelessVersion = "2026-07-28"

// client26 is the Go SDK's client speaking 2026-07-28 to gate: no
// initialize, no session; server/discover, then a subscriptions/listen for
// the list changes, whose acknowledgement it hears on acked.
type client26 struct {
	*mcptest.Client
	acked   chan struct{}
	updated chan string
}

func (h *harness) client26() *client26 {
	h.t.Helper()
	return connect26(h.t, h.url, nil)
}

// connect26 connects a 2026-07-28 client to endpoint, with hc when it is
// set, and waits for its listen to be acknowledged.
func connect26(t *testing.T, endpoint string, hc *http.Client) *client26 {
	t.Helper()
	c := &client26{Client: &mcptest.Client{Changed: make(chan struct{}, 1000), Progress: make(chan *mcp.ProgressNotificationParams, 100)}, acked: make(chan struct{}, 100), updated: make(chan string, 100)}
	cl := mcp.NewClient(&mcp.Implementation{Name: "client-2026", Version: "1"}, &mcp.ClientOptions{
		ToolListChangedHandler: func(context.Context, *mcp.ToolListChangedRequest) { c.Changed <- struct{}{} },
		ResourceUpdatedHandler: func(_ context.Context, r *mcp.ResourceUpdatedNotificationRequest) { c.updated <- r.Params.URI },
	})
	cl.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			if method == "notifications/subscriptions/acknowledged" {
				c.acked <- struct{}{}
			}
			return next(ctx, method, req)
		}
	})
	ctx, cancel := context.WithTimeout(context.Background(), waitFor)
	defer cancel()
	cs, err := cl.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: endpoint, HTTPClient: hc, MaxRetries: -1}, &mcp.ClientSessionOptions{ProtocolVersion: statelessVersion})
	require.NoError(t, err)
	t.Cleanup(func() { _ = cs.Close() })
	require.Equal(t, statelessVersion, cs.InitializeResult().ProtocolVersion, "the client fell back to initialize")
	require.Empty(t, cs.ID(), "a 2026-07-28 client has no session")
	c.Session = cs
	c.waitAcked(t)
	return c
}

// waitAcked waits for a listen's acknowledgement: once it has come, the
// listen is registered and hears every change after it.
func (c *client26) waitAcked(t *testing.T) {
	t.Helper()
	select {
	case <-c.acked:
	case <-time.After(waitFor):
		t.Fatal("no notifications/subscriptions/acknowledged: the listen was not served")
	}
}

// clientAt is a client session of an older version, as h.client's but
// asking for version.
func (h *harness) clientAt(version string) *client {
	h.t.Helper()
	cl, c := mcptest.New("test-client-" + version)
	ctx, cancel := context.WithTimeout(context.Background(), waitFor)
	defer cancel()
	cs, err := cl.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: h.url}, &mcp.ClientSessionOptions{ProtocolVersion: version})
	require.NoError(h.t, err)
	h.t.Cleanup(func() { _ = cs.Close() })
	c.Session = cs
	return &client{c}
}

// A 2026-07-28 client lists, calls and hears of a flip on its listen, on
// the same /mcp as a 2025-11-25 session, which keeps working beside it.
func TestStatelessClientBesideASession(t *testing.T) {
	url, _ := httpUpstream(t, newUpstreamServer(""))
	rule := newListener(t)
	h := start(t, fmt.Sprintf(`
[[servers]]
name = "web"
url = %q
prefix = "w_"

[[servers.tools]]
name = "echo"
probe = "tcp:%s"
`, url, rule.addr), fastConfig().WithStateless(true))
	old, c := h.clientAt("2025-11-25"), h.client26()
	assert.Equal(t, "2025-11-25", old.Session.InitializeResult().ProtocolVersion)
	assert.NotEmpty(t, old.Session.ID())
	all := prefixed("w_", upstreamTools...)
	c.WaitTools(t, all...)
	old.WaitTools(t, all...)

	for _, cl := range []*mcptest.Client{c.Client, old.Client} {
		res, err := cl.Session.CallTool(ctxFor(t), &mcp.CallToolParams{Name: "w_echo", Arguments: map[string]any{"text": "hi"}})
		require.NoError(t, err)
		assert.Equal(t, "echo: hi", textOf(res))
	}

	c.Drain()
	rule.close()
	c.WaitChanged(t)
	c.WaitTools(t, without(all, "w_echo")...)
	old.WaitTools(t, without(all, "w_echo")...)
	_, err := c.Session.CallTool(ctxFor(t), &mcp.CallToolParams{Name: "w_echo"})
	notAvailable(t, err, "web#echo", runtime.CodeRefused)

	rule.reopen()
	c.WaitChanged(t)
	c.WaitTools(t, all...)
	res, err := old.call(t, "w_echo", map[string]any{"text": "still here"})
	require.NoError(t, err)
	assert.Equal(t, "echo: still here", textOf(res))
}

// post sends body to /mcp as a client without a session, with header as
// its MCP-Protocol-Version ("" for none), and returns the status and the
// JSON-RPC messages of the answer, whether JSON or events.
func post(t *testing.T, url, header, body string) (int, []map[string]any) {
	t.Helper()
	req, err := http.NewRequestWithContext(ctxFor(t), http.MethodPost, url, strings.NewReader(body))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if header != "" {
		req.Header.Set("MCP-Protocol-Version", header)
		req.Header.Set("Mcp-Method", methodOf(t, body))
	}
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	var msgs []map[string]any
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		line := strings.TrimPrefix(sc.Text(), "data: ")
		var m map[string]any
		if json.Unmarshal([]byte(line), &m) == nil {
			msgs = append(msgs, m)
		}
	}
	return resp.StatusCode, msgs
}

// methodOf is the method of a JSON-RPC request, which a 2026-07-28
// request names in its Mcp-Method header too.
func methodOf(t *testing.T, body string) string {
	var m struct{ Method string }
	require.NoError(t, json.Unmarshal([]byte(body), &m))
	return m.Method
}

// meta26 is the _meta of a 2026-07-28 request, with more keys when given.
func meta26(more string) string {
	return `{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}` + more + `}`
}

// server/discover lists every version gate speaks, 2026-07-28 among them,
// however the client names the version it asks in; an initialize beside it
// still opens a session of an older version.
func TestDiscoverListsEveryVersion(t *testing.T) {
	h := start(t, "", fastConfig().WithStateless(true))
	discover := `{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{"_meta":` + meta26("") + `}}`
	for _, tc := range []struct{ name, header string }{
		{"header and _meta", statelessVersion},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, msgs := post(t, h.url, tc.header, discover)
			require.Equal(t, http.StatusOK, code)
			require.Len(t, msgs, 1)
			res, _ := msgs[0]["result"].(map[string]any)
			require.NotNil(t, res, "discover failed: %v", msgs[0])
			assert.ElementsMatch(t, []any{"2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"}, res["supportedVersions"])
		})
	}
	// _meta without the header: the protocol asks for both, and the
	// answer says so, rather than the stateful handler's -32022.
	_, msgs := post(t, h.url, "", discover)
	require.Len(t, msgs, 1)
	assert.NotContains(t, fmt.Sprint(msgs[0]), "-32022")
	assert.Contains(t, fmt.Sprint(msgs[0]), "Mcp-Protocol-Version header is required")

	code, msgs := post(t, h.url, "", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`)
	require.Equal(t, http.StatusOK, code)
	require.Len(t, msgs, 1)
	assert.Equal(t, "2025-06-18", msgs[0]["result"].(map[string]any)["protocolVersion"])
}

// A 2026-07-28 client's subscription is a listen: gate subscribes at the
// upstream while it is open, passes the upstream's update on it, and
// unsubscribes once the client ends it.
func TestStatelessListenHearsResourceUpdates(t *testing.T) {
	up := newFeatureUpstream("one")
	url, _ := httpUpstream(t, up.s)
	h := start(t, fmt.Sprintf("[[servers]]\nname = \"docs\"\nurl = %q\nprefix = \"d_\"\n", url), fastConfig().WithStateless(true))
	c := h.client26()
	ctx := ctxFor(t)
	require.Eventually(t, func() bool {
		res, err := c.Session.ListResources(ctx, nil)
		return err == nil && len(res.Resources) == 2
	}, waitFor, 10*time.Millisecond)
	require.NoError(t, c.Session.Subscribe(ctx, &mcp.SubscribeParams{URI: docA}))
	c.waitAcked(t)
	subs, _ := up.counts(docA)
	assert.Equal(t, 1, subs, "gate subscribed at the upstream")

	require.NoError(t, up.s.ResourceUpdated(ctx, &mcp.ResourceUpdatedNotificationParams{URI: docB}))
	require.NoError(t, up.s.ResourceUpdated(ctx, &mcp.ResourceUpdatedNotificationParams{URI: docA}))
	select {
	case uri := <-c.updated:
		assert.Equal(t, docA, uri, "only the URI the listen named")
	case <-time.After(waitFor):
		t.Fatal("no notifications/resources/updated on the listen")
	}

	require.NoError(t, c.Session.Unsubscribe(ctx, &mcp.UnsubscribeParams{URI: docA}))
	require.Eventually(t, func() bool { _, n := up.counts(docA); return n == 1 }, waitFor, 10*time.Millisecond, "gate unsubscribed at the upstream once the listen ended")
}

// rawListen is a subscriptions/listen sent by hand, for what the SDK's
// client does not send (a log level in _meta): the messages it hears come
// on msgs.
type rawListen struct {
	msgs chan map[string]any
}

func startRawListen(t *testing.T, url, meta string) *rawListen {
	t.Helper()
	body := `{"jsonrpc":"2.0","id":7,"method":"subscriptions/listen","params":{"_meta":` + meta + `,"notifications":{"toolsListChanged":true}}}`
	ctx, cancel := context.WithCancel(context.Background())
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, strings.NewReader(body))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("MCP-Protocol-Version", statelessVersion)
	req.Header.Set("Mcp-Method", "subscriptions/listen")
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	l := &rawListen{msgs: make(chan map[string]any, 100)}
	var wg sync.WaitGroup
	wg.Go(func() {
		defer resp.Body.Close()
		sc := bufio.NewScanner(resp.Body)
		for sc.Scan() {
			var m map[string]any
			if json.Unmarshal([]byte(strings.TrimPrefix(sc.Text(), "data: ")), &m) == nil {
				l.msgs <- m
			}
		}
		close(l.msgs)
	})
	t.Cleanup(func() { cancel(); wg.Wait() })
	return l
}

// next returns the next message of method.
func (l *rawListen) next(t *testing.T, method string) map[string]any {
	t.Helper()
	deadline := time.After(waitFor)
	for {
		select {
		case m, ok := <-l.msgs:
			require.True(t, ok, "the listen ended before %s", method)
			if m["method"] == method {
				return m
			}
		case <-deadline:
			t.Fatalf("no %s on the listen", method)
		}
	}
}

// A listen whose _meta names a log level gets the upstreams' log messages
// at that level, and the upstream is asked for it while the listen is
// open; a level MCP does not define is refused.
func TestStatelessListenGetsLogMessages(t *testing.T) {
	up := newLoggingUpstream()
	url, _ := httpUpstream(t, up.s)
	h := start(t, fmt.Sprintf("[[servers]]\nname = \"web\"\nurl = %q\nprefix = \"w_\"\n", url), fastConfig().WithStateless(true))
	c := h.client26()
	c.WaitTools(t, "w_log")

	l := startRawListen(t, h.url, meta26(`,"io.modelcontextprotocol/logLevel":"warning"`))
	l.next(t, "notifications/subscriptions/acknowledged")
	require.Eventually(t, func() bool { return slices.Equal(up.asked(), []mcp.LoggingLevel{"warning"}) }, waitFor, time.Millisecond, "asked %v", up.asked())

	_, err := c.Session.CallTool(ctxFor(t), &mcp.CallToolParams{Name: "w_log", Arguments: map[string]any{"text": "debug,warning,error"}})
	require.NoError(t, err)
	for _, want := range []string{"warning", "error"} {
		m := l.next(t, "notifications/message")
		p := m["params"].(map[string]any)
		assert.Equal(t, want, p["level"])
		assert.Equal(t, "web/db", p["logger"])
	}

	_, msgs := post(t, h.url, statelessVersion, `{"jsonrpc":"2.0","id":1,"method":"subscriptions/listen","params":{"_meta":`+meta26(`,"io.modelcontextprotocol/logLevel":"loud"`)+`,"notifications":{"toolsListChanged":true}}}`)
	require.NotEmpty(t, msgs)
	assert.Contains(t, fmt.Sprint(msgs[len(msgs)-1]["error"]), "unknown log level")
}
