package mcpgw_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/gate-dev/gate/runtime"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var upstreamTools = []string{"echo", "slow", "big", "hang", "exit", "grow", "fail"}

func prefixed(prefix string, names ...string) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = prefix + n
	}
	return out
}

func without(list []string, drop ...string) []string {
	var out []string
outer:
	for _, n := range list {
		for _, d := range drop {
			if n == d {
				continue outer
			}
		}
		out = append(out, n)
	}
	return out
}

// settle waits past the SDK's 10ms notification debounce, until no
// notification has come for 200ms (tools/list answers from the set as soon
// as it changes, before the SDK's debounced list_changed, which a loaded
// machine can delay well past that), and returns the notifications that
// arrived.
func (c *client) settle() int {
	n := c.Drain()
	giveUp := time.After(waitFor) // notifications without end: the caller's assertions tell
	for {
		select {
		case <-c.Changed:
			n++
		case <-time.After(200 * time.Millisecond):
			return n
		case <-giveUp:
			return n
		}
	}
}

// oneChange asserts that the gateway applied exactly one change of the
// offered set since before (its own count), and that the client heard of
// it once, however the machine scheduled gate in the middle of it (a
// list_changed the SDK's debounce sends mid-change is held back until the
// change is made: Gateway.applyToSDK).
func oneChange(t *testing.T, h *harness, before uint64, heard int, msgAndArgs ...any) {
	t.Helper()
	assert.Equal(t, uint64(1), h.gw.Changes()-before, msgAndArgs...)
	assert.Equal(t, 1, heard, msgAndArgs...)
}

// notAvailable asserts that err is the gateway's refusal of a hidden tool,
// that it says why, and that its data has the code, whether it is
// retryable and the action, for a client program.
func notAvailable(t *testing.T, err error, why string, code runtime.Code) {
	t.Helper()
	var je *jsonrpc.Error
	require.ErrorAs(t, err, &je)
	assert.Equal(t, int64(jsonrpc.CodeInvalidParams), je.Code)
	assert.Contains(t, je.Message, "is not available now")
	assert.Contains(t, je.Message, why)
	assert.JSONEq(t, fmt.Sprintf(`{"code": %q, "retryable": %v, "action": %q}`, code, code.Retryable(), code.Action()), string(je.Data))
}

// Each cause of a flip changes the list a client sees, with one
// notifications/tools/list_changed per change: a tool rule's probe, the
// server's probe, and back.
func TestProbeFlipsChangeTheList(t *testing.T) {
	url, _ := httpUpstream(t, newUpstreamServer(""))
	server, rule := newListener(t), newListener(t)
	h := start(t, fmt.Sprintf(`
[[servers]]
name = "web"
url = %q
prefix = "w_"
probe = "tcp:%s"

[[servers.tools]]
name = "echo"
probe = "tcp:%s"
`, url, server.addr, rule.addr), fastConfig())
	c := h.client()
	all := prefixed("w_", upstreamTools...)
	c.WaitTools(t, all...)
	c.settle()

	res, err := c.call(t, "w_echo", map[string]any{"text": "hi"})
	require.NoError(t, err)
	assert.Equal(t, "echo: hi", textOf(res))

	before := h.gw.Changes()
	rule.close()
	n := c.WaitTools(t, without(all, "w_echo")...) + c.settle()
	oneChange(t, h, before, n, "one rule flip")
	_, err = c.call(t, "w_echo", nil)
	notAvailable(t, err, "web#echo", runtime.CodeRefused)

	before = h.gw.Changes()
	rule.reopen()
	n = c.WaitTools(t, all...) + c.settle()
	oneChange(t, h, before, n, "the rule coming back")

	before = h.gw.Changes()
	server.close()
	n = c.WaitTools(t) + c.settle()
	oneChange(t, h, before, n, "the server going away")
	_, err = c.call(t, "w_slow", nil)
	notAvailable(t, err, "server web is unavailable", runtime.CodeRefused)

	before = h.gw.Changes()
	server.reopen()
	n = c.WaitTools(t, all...) + c.settle()
	oneChange(t, h, before, n, "the server coming back")
}

// An upstream's own list_changed is followed: a tool it adds is offered.
func TestUpstreamListChangedFlipsTheList(t *testing.T) {
	url, _ := httpUpstream(t, newUpstreamServer(""))
	h := start(t, fmt.Sprintf("[[servers]]\nname = \"web\"\nurl = %q\nprefix = \"w_\"\n", url), fastConfig())
	c := h.client()
	all := prefixed("w_", upstreamTools...)
	c.WaitTools(t, all...)
	c.settle()

	before := h.gw.Changes()
	res, err := c.call(t, "w_grow", map[string]any{"name": "fresh"})
	require.NoError(t, err)
	assert.Equal(t, "added fresh", textOf(res))
	n := c.WaitTools(t, append(all, "w_fresh")...) + c.settle()
	oneChange(t, h, before, n, "a tool the upstream added")
	res, err = c.call(t, "w_fresh", nil)
	require.NoError(t, err)
	assert.Equal(t, "fresh", textOf(res))
}

// A manifest reload that changes the upstreams changes the list once; an
// unchanged upstream keeps its session.
func TestReloadFlipsTheList(t *testing.T) {
	url1, _ := httpUpstream(t, newUpstreamServer(""))
	url2, _ := httpUpstream(t, newUpstreamServer("extra"))
	one := fmt.Sprintf("[[servers]]\nname = \"a\"\nurl = %q\n", url1)
	h := start(t, one, fastConfig())
	c := h.client()
	c.WaitTools(t, prefixed("a_", upstreamTools...)...)
	c.settle()

	before := h.gw.Changes()
	h.rewrite(one + fmt.Sprintf("\n[[servers]]\nname = \"b\"\nurl = %q\nprefix = \"\"\n", url2))
	want := append(prefixed("a_", upstreamTools...), append(upstreamTools, "extra")...)
	n := c.WaitTools(t, want...) + c.settle()
	oneChange(t, h, before, n, "a server added")

	before = h.gw.Changes()
	h.rewrite(fmt.Sprintf("[[servers]]\nname = \"b\"\nurl = %q\nprefix = \"\"\n", url2))
	n = c.WaitTools(t, append(upstreamTools, "extra")...) + c.settle()
	oneChange(t, h, before, n, "a server removed")
}

// A call is forwarded with its progress notifications, under the client's
// own progress token, and a cancellation reaches the upstream.
func TestCallForwardsProgressAndCancellation(t *testing.T) {
	url, _ := httpUpstream(t, newUpstreamServer(""))
	h := start(t, fmt.Sprintf("[[servers]]\nname = \"web\"\nurl = %q\nprefix = \"w_\"\n", url), fastConfig())
	c := h.client()
	c.WaitTools(t, prefixed("w_", upstreamTools...)...)

	params := &mcp.CallToolParams{Name: "w_slow", Arguments: map[string]any{"steps": 3}}
	params.SetProgressToken("client-token-7")
	ctx, cancel := context.WithTimeout(context.Background(), waitFor)
	defer cancel()
	res, err := c.Session.CallTool(ctx, params)
	require.NoError(t, err)
	assert.Equal(t, "done after 3 steps", textOf(res))
	for i := 1; i <= 3; i++ {
		select {
		case p := <-c.Progress:
			assert.Equal(t, "client-token-7", p.ProgressToken)
			assert.Equal(t, float64(i), p.Progress)
			assert.Equal(t, fmt.Sprintf("step %d", i), p.Message)
		case <-time.After(waitFor):
			t.Fatalf("progress notification %d never came", i)
		}
	}

	before := cancelled.Load()
	params = &mcp.CallToolParams{Name: "w_slow", Arguments: map[string]any{"steps": 100000}}
	params.SetProgressToken(99)
	cctx, ccancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() {
		_, err := c.Session.CallTool(cctx, params)
		errc <- err
	}()
	select {
	case p := <-c.Progress:
		assert.EqualValues(t, 99, p.ProgressToken)
	case <-time.After(waitFor):
		t.Fatal("no progress before the cancellation")
	}
	ccancel()
	require.ErrorIs(t, <-errc, context.Canceled)
	require.Eventually(t, func() bool { return cancelled.Load() > before }, waitFor, 10*time.Millisecond,
		"the upstream never saw the call cancelled")
}

// The upstream's errors reach the client as they were: code and message.
func TestUpstreamErrorsPassThrough(t *testing.T) {
	url, _ := httpUpstream(t, newUpstreamServer(""))
	h := start(t, fmt.Sprintf("[[servers]]\nname = \"web\"\nurl = %q\nprefix = \"w_\"\n", url), fastConfig().WithMaxResultBytes(1<<20))
	c := h.client()
	c.WaitTools(t, prefixed("w_", upstreamTools...)...)
	_, err := c.call(t, "w_fail", nil)
	var je *jsonrpc.Error
	require.ErrorAs(t, err, &je)
	assert.Equal(t, int64(4242), je.Code)
	assert.Equal(t, "the upstream refuses", je.Message)

	// An error is bounded as a result is, and its message cleaned as any
	// text a model reads: unguarded, one of 2 MiB, with a bidirectional
	// override, was passed on as it came.
	_, err = c.call(t, "w_fail", map[string]any{"bytes": 2 << 20})
	require.ErrorAs(t, err, &je)
	assert.Equal(t, int64(4243), je.Code)
	assert.True(t, strings.HasPrefix(je.Message, "refused\ufffdeee"), "the message is cleaned")
	assert.Less(t, len(je.Message), 5<<10, "the message is cut")
	assert.Zero(t, len(je.Data), "data past the result cap is dropped")
	_, err = c.call(t, "w_fail", map[string]any{"bytes": 100})
	require.ErrorAs(t, err, &je)
	assert.JSONEq(t, `{"pad":"`+strings.Repeat("d", 100)+`"}`, string(je.Data), "data within the cap is passed on")

	_, err = c.call(t, "nothing_here", nil)
	notAvailable(t, err, "gate offers no tool of that name", runtime.CodeNoSuchTool)
}

// A stdio upstream that dies mid-call fails the call at once, its tools
// are hidden while it is away, and it is started again.
func TestStdioUpstreamKilledMidCall(t *testing.T) {
	h := start(t, "[[servers]]\nname = \"local\"\nprefix = \"l_\"\n"+stdioCommand("plain", ""), fastConfig())
	c := h.client()
	all := prefixed("l_", upstreamTools...)
	c.WaitTools(t, all...)

	started := time.Now()
	_, err := c.call(t, "l_exit", nil)
	require.Error(t, err)
	assert.Less(t, time.Since(started), waitFor/2, "the call waited for its timeout rather than failing when the upstream died")
	var je *jsonrpc.Error
	require.ErrorAs(t, err, &je)
	assert.Contains(t, je.Message, "server local")

	// It comes back by itself (a new process), and is usable.
	c.WaitTools(t, all...)
	require.Eventually(t, func() bool {
		res, err := c.call(t, "l_echo", map[string]any{"text": "again"})
		return err == nil && textOf(res) == "echo: again"
	}, waitFor, 20*time.Millisecond)
}

// An HTTP upstream that goes away is hidden, and reconnected when back.
func TestHTTPUpstreamGoneAndBack(t *testing.T) {
	up := newUpstreamServer("")
	url, stop := httpUpstream(t, up)
	h := start(t, fmt.Sprintf("[[servers]]\nname = \"web\"\nurl = %q\nprefix = \"w_\"\n", url), fastConfig().WithKeepAlive(100*time.Millisecond))
	c := h.client()
	all := prefixed("w_", upstreamTools...)
	c.WaitTools(t, all...)
	stop()
	c.WaitTools(t)
	// Down, with the reason, between its tries to reconnect (a try
	// under way is "connecting", with no reason of its own yet).
	require.Eventually(t, func() bool {
		ups := h.gw.Upstreams()
		require.Len(t, ups, 1)
		return ups[0].State == "down" && ups[0].Error != ""
	}, waitFor, time.Millisecond)
	_, err := c.call(t, "w_echo", nil)
	notAvailable(t, err, "server web is", runtime.CodeUpstreamDown)

	// Back on the same address.
	l := listenOn(t, url)
	serveUpstream(t, l, up)
	c.WaitTools(t, all...)
}

func TestHiddenToolsSayWhy(t *testing.T) {
	url, _ := httpUpstream(t, newUpstreamServer(""))
	h := start(t, fmt.Sprintf(`
[[servers]]
name = "web"
url = %q
prefix = "w_"

[[servers.tools]]
match = "s*"
probe = "env:GATE_TEST_SURELY_UNSET_VARIABLE"
`, url), fastConfig())
	c := h.client()
	c.WaitTools(t, without(prefixed("w_", upstreamTools...), "w_slow")...)
	_, err := c.call(t, "w_slow", nil)
	notAvailable(t, err, "the probe of web#s* says unavailable", runtime.CodeEnvMissing)
	assert.Contains(t, h.gw.Hidden()["w_slow"], "GATE_TEST_SURELY_UNSET_VARIABLE")
}
