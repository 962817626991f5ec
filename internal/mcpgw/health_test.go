package mcpgw_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gate-dev/gate/internal/mcpgw"
	"github.com/gate-dev/gate/internal/mcptest"
)

// The gateway judges a server by what the server shows to more than one
// client, or to gate's own requests: what one client's call is answered
// with is that call's.

// peerWords is what a hostile upstream writes in its refusals' bodies and
// headers: no client may see it.
const peerWords = "PEER-WORDS-\u202e"

// statusUpstream wraps an HTTP MCP upstream: a tools/call of a tool named
// s<status> (s403, s429, ...) is answered with that status, a plain-text
// body and, for 401 and 403, a WWW-Authenticate challenge; everything else
// goes to next, which it counts.
type statusUpstream struct {
	next  http.Handler
	calls atomic.Int64 // tools/call requests refused
}

func (s *statusUpstream) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if mcptest.RPCMethod(r) == "tools/call" {
		if code, err := strconv.Atoi(strings.TrimPrefix(calledName(r), "s")); err == nil {
			s.calls.Add(1)
			if code == http.StatusUnauthorized || code == http.StatusForbidden {
				w.Header().Set("WWW-Authenticate", `Bearer error="insufficient_scope", scope="admin `+peerWords+`"`)
			}
			http.Error(w, peerWords, code)
			return
		}
	}
	s.next.ServeHTTP(w, r)
}

// calledName is the tool a tools/call request calls; the body is put
// back.
func calledName(r *http.Request) string {
	body, _ := io.ReadAll(r.Body)
	r.Body = io.NopCloser(strings.NewReader(string(body)))
	i := strings.Index(string(body), `"name":"`)
	if i < 0 {
		return ""
	}
	rest := string(body)[i+len(`"name":"`):]
	return rest[:strings.IndexByte(rest, '"')]
}

// statusServer is newUpstreamServer with a tool s<code> for each code.
func statusServer(codes ...int) (*mcp.Server, []string) {
	var names []string
	for _, c := range codes {
		names = append(names, fmt.Sprintf("s%d", c))
	}
	return newUpstreamServer(strings.Join(names, ",")), names
}

// A status one client's call is answered with (a step-up 403, a proxy's
// 400 or 413, a 404, a rate limit's 429) is that call's error, told
// without the upstream's words: the session goes on, the breaker stays
// closed, the credentials stand, and the other client keeps the tools.
func TestHealthPerRequestStatusIsTheCallsError(t *testing.T) {
	// Credentials, as a server with step-up authorization has: gate
	// redacts what the upstream's errors say, and judges them all the
	// same.
	const key = "health-key-of-the-upstream"
	t.Setenv("GATE_TEST_HEALTH_KEY", key)
	codes := []int{400, 403, 404, 413, 429}
	s, extra := statusServer(codes...)
	up := &statusUpstream{next: mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, nil)}
	url := serveHTTP(t, up)
	h := start(t, fmt.Sprintf(`[[servers]]
name = "web"
url = %q
prefix = "w_"
headers = { "X-Api-Key" = "${secret:GATE_TEST_HEALTH_KEY}" }
breaker = { failures = 2, window = "1h", cooldown = "1h" }
`, url), fastConfig())
	breakers := watchBreakers(h)
	hostile, other := h.client(), h.client()
	all := append(prefixed("w_", upstreamTools...), prefixed("w_", extra...)...)
	hostile.WaitTools(t, all...)
	other.WaitTools(t, all...)

	for _, code := range codes {
		t.Run(strconv.Itoa(code), func(t *testing.T) {
			for range 3 {
				_, err := hostile.call(t, fmt.Sprintf("w_s%d", code), nil)
				require.Error(t, err)
				msg := err.Error()
				assert.Contains(t, msg, fmt.Sprintf("server web %s the call of w_s%d", map[bool]string{true: "is busy: it answered", false: "refused"}[code == 429], code))
				assert.Contains(t, msg, fmt.Sprintf("HTTP %d %s", code, http.StatusText(code)))
				assert.NotContains(t, msg, "PEER-WORDS", "the upstream's words are not passed on")
				assert.NotContains(t, msg, key)
				if code == 403 {
					assert.Contains(t, msg, "WWW-Authenticate challenge")
				}
			}
			echoes(t, other, "w_echo")
			echoes(t, hostile, "w_echo")
		})
	}
	assert.Equal(t, int64(3*len(codes)), up.calls.Load())
	assert.Empty(t, breakers.states("web"), "no breaker event")
	require.Len(t, h.gw.Upstreams(), 1)
	u := h.gw.Upstreams()[0]
	assert.Equal(t, mcpgw.StateReady, u.State, u.Error)
	assert.Equal(t, mcpgw.BreakerClosed, u.Breaker)
	assert.Equal(t, uint64(1), u.Listings, "the session was never ended")
	_, found := h.states.find("web", mcpgw.StateDown, "")
	assert.False(t, found, "the upstream was never down")
	assert.Equal(t, all, other.Tools(t))
}

// A 401 is about the credentials, whichever request it answers: a call
// answered 401 ends the session as credentials rejected.
func TestCredentialsRejectedByA401OnACall(t *testing.T) {
	s, _ := statusServer(401)
	url := serveHTTP(t, &statusUpstream{next: mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, nil)})
	h := start(t, httpServer("web", url), fastConfig())
	c := h.client()
	c.WaitTools(t, append(prefixed("web_", upstreamTools...), "web_s401")...)
	_, err := c.call(t, "web_s401", nil)
	require.Error(t, err)
	why := waitDown(t, h, "web", "credentials rejected (HTTP 401)")
	assert.Contains(t, why, "gate tries again only after its longest backoff")
}

// A 5xx one client's calls are answered with may be what its arguments
// make of one tool: alone, however many, it does not open the breaker;
// the same from a second client does.
func TestBreakerNeedsTwoClientsForCallStatuses(t *testing.T) {
	s, _ := statusServer(503)
	url := serveHTTP(t, &statusUpstream{next: mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, nil)})
	h := start(t, fmt.Sprintf(`[[servers]]
name = "web"
url = %q
prefix = "w_"
breaker = { failures = 3, window = "1h", cooldown = "1h" }
`, url), fastConfig())
	breakers := watchBreakers(h)
	hostile, other := h.client(), h.client()
	hostile.WaitTools(t, append(prefixed("w_", upstreamTools...), "w_s503")...)
	for range 6 {
		_, err := hostile.call(t, "w_s503", nil)
		require.ErrorContains(t, err, "server web failed the call of w_s503: it answered HTTP 503 Service Unavailable")
	}
	assert.Empty(t, breakers.states("web"), "one client's failures open nothing")
	echoes(t, other, "w_echo")
	_, err := other.call(t, "w_s503", nil)
	require.Error(t, err)
	// The echo answered between: three failures in a row, from two.
	for range 2 {
		_, err = hostile.call(t, "w_s503", nil)
		require.Error(t, err)
	}
	opened := breakers.wait(t, "web", mcpgw.BreakerOpen)
	assert.Contains(t, opened.Reason, "3 calls in a row failed (last: server web failed the call of w_s503")
}

// Calls that run past their call timeout are their clients' failures: a
// server that answers other calls is alive, however many of one slow
// tool's calls time out at once.
func TestBreakerIgnoresCallTimeouts(t *testing.T) {
	url, _ := httpUpstream(t, newUpstreamServer(""))
	h := start(t, fmt.Sprintf(`[[servers]]
name = "web"
url = %q
prefix = "w_"
call_timeout = "500ms"
breaker = { failures = 2, window = "1h", cooldown = "1h" }
`, url), fastConfig())
	breakers := watchBreakers(h)
	hostile, other := h.client(), h.client()
	hostile.WaitTools(t, prefixed("w_", upstreamTools...)...)
	errs := make(chan error, 5)
	for range 5 {
		go func() {
			_, err := hostile.call(t, "w_hang", nil)
			errs <- err
		}()
	}
	for range 5 {
		require.ErrorContains(t, <-errs, "did not answer the call of w_hang within 500ms (its call_timeout)")
	}
	echoes(t, other, "w_echo")
	assert.Empty(t, breakers.states("web"))
	u := h.gw.Upstreams()[0]
	assert.Equal(t, mcpgw.BreakerClosed, u.Breaker)
	assert.Equal(t, mcpgw.StateReady, u.State)
	assert.Contains(t, other.Tools(t), "w_hang")
}

// A server that handles one message at a time, busy with a call for many
// keepalive intervals, answers the pings that waited behind it once the
// call is done: it is not killed, and no client loses its tools. One whose
// call runs past its call timeout while its pings go unanswered is.
func TestKeepaliveWaitsBehindACallInProgress(t *testing.T) {
	single := func(name, timeout string) string {
		return fmt.Sprintf("[[servers]]\nname = %q\nprefix = \"%s_\"\ncommand = [%q]\nenv = { GATE_TEST_UPSTREAM = \"single\" }\ncall_timeout = %q\n\n", name, name, exe(t), timeout)
	}
	h := start(t, single("busy", "1m")+single("hung", "300ms"), fastConfig().WithKeepAlive(200*time.Millisecond))
	c, other := h.client(), h.client()
	c.WaitTools(t, "busy_block", "busy_echo", "hung_block", "hung_echo")

	// The block lasts 10 keepalive intervals: the first ping's timeout,
	// 400ms in at most, killed it before.
	res, err := c.call(t, "busy_block", map[string]any{"text": "2s"})
	require.NoError(t, err)
	assert.Equal(t, "blocked 2s", textOf(res))
	echoes(t, other, "busy_echo")
	for _, u := range h.gw.Upstreams() {
		if u.Server == "busy" {
			assert.Equal(t, mcpgw.StateReady, u.State, u.Error)
			assert.Equal(t, uint64(1), u.Listings, "the session was never ended")
		}
	}
	_, found := h.states.find("busy", mcpgw.StateDown, "")
	assert.False(t, found, "the busy upstream was never down")
	assert.Contains(t, other.Tools(t), "busy_echo")

	// Past its call timeout, pings unanswered: hung.
	ctx, cancel := context.WithTimeout(context.Background(), waitFor)
	defer cancel()
	_, err = c.Session.CallTool(ctx, &mcp.CallToolParams{Name: "hung_block", Arguments: map[string]any{"text": "1h"}})
	require.ErrorContains(t, err, "within 300ms (its call_timeout)")
	waitDown(t, h, "hung", "no answer to a ping within 200ms")
}

// gateOwnRefuser answers one of gate's own requests (method) with status,
// after its first listing when method is ping.
type gateOwnRefuser struct {
	next    http.Handler
	method  string
	status  int
	listed  atomic.Bool
	refused atomic.Int64
}

func (g *gateOwnRefuser) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	m := mcptest.RPCMethod(r)
	if m == g.method && (m != "ping" || g.listed.Load()) {
		g.refused.Add(1)
		w.Header().Set("WWW-Authenticate", `Bearer error="invalid_token"`)
		http.Error(w, peerWords, g.status)
		return
	}
	g.next.ServeHTTP(w, r)
	if m == "tools/list" {
		g.listed.Store(true)
	}
}

// A 403 on one of gate's own requests (initialize, its ping) is about the
// credentials the session needs: they are rejected, and the upstream is
// down until the longest backoff.
func TestCredentialsRejectedByA403OnGatesOwnRequest(t *testing.T) {
	for _, method := range []string{"initialize", "ping"} {
		t.Run(method, func(t *testing.T) {
			up := &gateOwnRefuser{next: sdkHandler(false), method: method, status: http.StatusForbidden}
			h := start(t, httpServer("web", serveHTTP(t, up)), fastConfig().WithKeepAlive(100*time.Millisecond))
			why := waitDown(t, h, "web", "credentials rejected (HTTP 403)")
			assert.Contains(t, why, "gate tries again only after its longest backoff")
		})
	}
}

// A 5xx on gate's own ping is the server's failure, whoever the clients
// are: with no call at all, the breaker opens; the session goes on.
func TestBreakerCountsGatesOwnPingFailures(t *testing.T) {
	up := &gateOwnRefuser{next: sdkHandler(false), method: "ping", status: http.StatusBadGateway}
	h := start(t, fmt.Sprintf(`[[servers]]
name = "web"
url = %q
prefix = "w_"
breaker = { failures = 2, window = "1h", cooldown = "1h" }
`, serveHTTP(t, up)), fastConfig().WithKeepAlive(100*time.Millisecond))
	breakers := watchBreakers(h)
	opened := breakers.wait(t, "web", mcpgw.BreakerOpen)
	assert.Contains(t, opened.Reason, "2 calls in a row failed (last: gate's ping failed: ")
	assert.Contains(t, opened.Reason, "Bad Gateway")
	assert.NotContains(t, opened.Reason, "PEER-WORDS")
	assert.GreaterOrEqual(t, up.refused.Load(), int64(2))
	assert.Equal(t, mcpgw.StateReady, h.gw.Upstreams()[0].State, "the session goes on")
}

// readRefuser answers resources/read of docB with 403, and every
// prompts/get with 413; the rest goes to next.
type readRefuser struct{ next http.Handler }

func (g *readRefuser) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	m := mcptest.RPCMethod(r)
	body, _ := io.ReadAll(r.Body)
	r.Body = io.NopCloser(strings.NewReader(string(body)))
	switch {
	case m == "resources/read" && strings.Contains(string(body), docB):
		w.Header().Set("WWW-Authenticate", `Bearer error="insufficient_scope"`)
		http.Error(w, peerWords, http.StatusForbidden)
	case m == "prompts/get":
		http.Error(w, peerWords, http.StatusRequestEntityTooLarge)
	default:
		g.next.ServeHTTP(w, r)
	}
}

// A read or a get a client forwards is judged as a call is: its status
// is its own error, and the session and the other reads go on.
func TestHealthPerRequestStatusOfAForwardedRead(t *testing.T) {
	up := newFeatureUpstream("one")
	h := start(t, fmt.Sprintf("[[servers]]\nname = \"docs\"\nurl = %q\nprefix = \"d_\"\nbreaker = { failures = 1, window = \"1h\", cooldown = \"1h\" }\n",
		serveHTTP(t, &readRefuser{next: mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return up.s }, nil)})), fastConfig())
	breakers := watchBreakers(h)
	fc := h.featureClient()
	fc.waitNames(t, docNames...)
	ctx := ctxFor(t)
	for range 3 {
		_, err := fc.cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: docB})
		require.ErrorContains(t, err, "server docs refused")
		assert.Contains(t, err.Error(), "HTTP 403 Forbidden")
		assert.NotContains(t, err.Error(), "PEER-WORDS")
		_, err = fc.cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "d_greet", Arguments: map[string]string{"who": "ann"}})
		require.ErrorContains(t, err, "HTTP 413 Request Entity Too Large")
		got, err := fc.cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: docA})
		require.NoError(t, err)
		assert.Equal(t, "one reads "+docA, got.Contents[0].Text)
	}
	assert.Empty(t, breakers.states("docs"))
	_, found := h.states.find("docs", mcpgw.StateDown, "")
	assert.False(t, found, "the upstream was never down")
}
