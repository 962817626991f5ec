package mcpgw_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gate-dev/gate/internal/mcpgw"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// panicHook is a test's panic at one point of gate's handling of one
// server's data (mcpgw.SetUpstreamDataHook), armed and disarmed by the
// test.
type panicHook struct {
	mu     sync.Mutex
	on     bool
	server string
	what   string
}

func armPanic(t *testing.T, server, what string, on bool) *panicHook {
	p := &panicHook{on: on, server: server, what: what}
	mcpgw.SetUpstreamDataHook(t, func(server, what string) {
		p.mu.Lock()
		defer p.mu.Unlock()
		if p.on && server == p.server && what == p.what {
			panic("a test's panic on " + what)
		}
	})
	return p
}

func (p *panicHook) set(on bool) {
	p.mu.Lock()
	p.on = on
	p.mu.Unlock()
}

// twoUpstreams is the manifest of two test upstreams, "bad" (prefix b_)
// and "good" (g_): one over stdio (this test binary), the other over
// streamable HTTP, the bad one over stdio when badOverStdio.
func twoUpstreams(t *testing.T, badOverStdio bool) string {
	url, _ := httpUpstream(t, newUpstreamServer(""))
	httpEntry := func(name string) string {
		return fmt.Sprintf("[[servers]]\nname = %q\nurl = %q\nprefix = %q\n", name, url, name[:1]+"_")
	}
	stdioEntry := func(name string) string {
		return fmt.Sprintf("[[servers]]\nname = %q\nprefix = %q\n", name, name[:1]+"_") + stdioCommand("plain", "")
	}
	if badOverStdio {
		return stdioEntry("bad") + "\n" + httpEntry("good")
	}
	return httpEntry("bad") + "\n" + stdioEntry("good")
}

// A panic while gate handles one upstream's answer to a forwarded call
// (its result, its error, its progress) fails that call, with an error
// that says gate failed and quotes nothing the upstream sent, and ends
// that upstream's session, logged with its name; the process, the other
// upstream and the client's session go on, and the upstream is retried.
func TestHostileCallAnswerThatPanicsFailsItsUpstream(t *testing.T) {
	tests := []struct {
		name         string
		badOverStdio bool
		what         string
		tool         string
		args         map[string]any
		upstreamText string // what the upstream would have answered
	}{
		{"its result, over stdio", true, "answer", "b_echo", map[string]any{"text": "hi"}, "echo: hi"},
		{"its result, over HTTP", false, "answer", "b_echo", map[string]any{"text": "hi"}, "echo: hi"},
		{"its error, over stdio", true, "error", "b_fail", nil, "the upstream refuses"},
		{"its error, over HTTP", false, "error", "b_fail", nil, "the upstream refuses"},
		{"its progress, over HTTP", false, "notifications/progress", "b_slow", map[string]any{"steps": 3}, "step 1"},
		{"its progress, over stdio", true, "notifications/progress", "b_slow", map[string]any{"steps": 3}, "step 1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			hook := armPanic(t, "bad", tt.what, false)
			log := &blockedLog{released: make(chan struct{})}
			close(log.released)
			h := start(t, twoUpstreams(t, tt.badOverStdio), fastConfig().WithLog(log))
			c := h.client()
			waitForTools(t, h, "b_echo", "g_echo")
			hook.set(true)

			params := &mcp.CallToolParams{Name: tt.tool, Arguments: tt.args}
			params.SetProgressToken("client-token")
			ctx, cancel := context.WithTimeout(context.Background(), waitFor)
			defer cancel()
			_, err := c.Session.CallTool(ctx, params)
			require.Error(t, err, "the call fails")
			assert.Contains(t, err.Error(), "gate panicked handling")
			assert.NotContains(t, err.Error(), "a test's panic", "the client is told gate failed, not what the panic held")
			assert.NotContains(t, err.Error(), tt.upstreamText, "nor what the upstream sent")

			reason := waitDown(t, h, "bad", "gate panicked handling")
			assert.NotContains(t, reason, "a test's panic")
			require.Eventually(t, func() bool {
				return strings.Contains(log.String(), "upstream bad: gate panicked handling") && strings.Contains(log.String(), "a test's panic on "+tt.what)
			}, waitFor, 10*time.Millisecond, "log:\n%s", log)
			echoes(t, c, "g_echo")

			hook.set(false)
			require.Eventually(t, func() bool {
				res, err := c.call(t, "b_echo", map[string]any{"text": "back"})
				return err == nil && textOf(res) == "echo: back"
			}, waitFor, 20*time.Millisecond, "the upstream is retried, and serves again")
		})
	}
}

// waitForTools waits until every tool of want is offered.
func waitForTools(t *testing.T, h *harness, want ...string) {
	t.Helper()
	require.Eventually(t, func() bool {
		o := h.gw.Offered()
		for _, w := range want {
			if !slices.Contains(o, w) {
				return false
			}
		}
		return true
	}, waitFor, 10*time.Millisecond, "offered: %v", h.gw.Offered())
}

// A panic while gate folds one server's listing into the offered set (its
// tools, or its resources, templates and prompts) drops that server: all
// of it is hidden with why, its session is ended and the panic logged
// with its name; the rest of the set is computed and offered, and the
// other server's tools are called and its resources read.
func TestHostileListingThatPanicsWhenOfferedDropsItsServer(t *testing.T) {
	t.Run("its tools", func(t *testing.T) {
		armPanic(t, "bad", "offer", true)
		log := &blockedLog{released: make(chan struct{})}
		close(log.released)
		h := start(t, twoUpstreams(t, true), fastConfig().WithLog(log))
		c := h.client()
		waitForTools(t, h, "g_echo")
		require.Eventually(t, func() bool {
			return strings.Contains(h.gw.Hidden()["b_echo"], "gate panicked handling the tools of a listing")
		}, waitFor, 10*time.Millisecond, "hidden: %v\nups: %v\nlog:\n%s", h.gw.Hidden(), h.gw.Upstreams(), log)
		assert.NotContains(t, h.gw.Hidden()["b_echo"], "a test's panic")
		for _, name := range h.gw.Offered() {
			assert.False(t, strings.HasPrefix(name, "b_"), "%s of the dropped server is offered", name)
		}
		waitDown(t, h, "bad", "gate panicked handling the tools of a listing")
		assert.Contains(t, log.String(), "upstream bad: gate panicked handling the tools of a listing of its: a test's panic on offer")
		echoes(t, c, "g_echo")
	})
	t.Run("its resource, matched against the templates before it", func(t *testing.T) {
		armPanic(t, "bad", "shadow", true)
		first := templateUpstream(t, "first", "y://{id}")
		bad := newFeatureUpstream("bad")
		badURL, _ := httpUpstream(t, bad.s)
		log := &blockedLog{released: make(chan struct{})}
		close(log.released)
		h := start(t, fmt.Sprintf("[[servers]]\nname = \"first\"\nurl = %q\nprefix = \"f_\"\n\n[[servers]]\nname = \"bad\"\nurl = %q\nprefix = \"b_\"\n", first, badURL), fastConfig().WithLog(log))
		fc := h.featureClient()
		require.Eventually(t, func() bool {
			res, prompts := h.gw.HiddenFeatures()
			return strings.Contains(res[docA], "gate panicked handling the resources of a listing") && strings.Contains(prompts["b_greet"], "gate panicked handling")
		}, waitFor, 10*time.Millisecond)
		waitDown(t, h, "bad", "gate panicked handling the resources of a listing")
		assert.Contains(t, log.String(), "upstream bad: gate panicked handling the resources of a listing of its: a test's panic on shadow")
		got, err := readText(t, fc, "y://7")
		require.NoError(t, err)
		assert.Equal(t, "first reads it", got, "the other server's template is offered and read")
		echoes := func() bool {
			res, err := fc.cs.CallTool(ctxFor(t), &mcp.CallToolParams{Name: "f_echo"})
			return err == nil && textOf(res) == "echo"
		}
		assert.True(t, echoes(), "the other server's tool is called")
	})
	t.Run("its template, matched against a later server's resource", func(t *testing.T) {
		armPanic(t, "bad", "match", true)
		bad := templateUpstream(t, "bad", "x://{id}")
		log := &blockedLog{released: make(chan struct{})}
		close(log.released)
		h := start(t, fmt.Sprintf("[[servers]]\nname = \"bad\"\nurl = %q\nprefix = \"b_\"\n\n[[servers]]\nname = \"good\"\nprefix = \"g_\"\n", bad)+stdioCommand("features", ""), fastConfig().WithLog(log))
		fc := h.featureClient()
		require.Eventually(t, func() bool {
			res, _ := h.gw.HiddenFeatures()
			return strings.Contains(res["x://{id}"], "gate panicked handling a match against its resource templates")
		}, waitFor, 10*time.Millisecond)
		waitDown(t, h, "bad", "gate panicked handling a match against its resource templates")
		assert.Contains(t, log.String(), "upstream bad: gate panicked handling a match against its resource templates of its: a test's panic on match")
		got, err := readText(t, fc, docA)
		require.NoError(t, err)
		assert.Equal(t, "stdio reads "+docA, got, "the later server, whose resource was being matched, is offered")
	})
	t.Run("its resources and prompts", func(t *testing.T) {
		hook := armPanic(t, "bad", "features", true)
		bad := newFeatureUpstream("bad")
		bad.s.AddResource(&mcp.Resource{URI: "file:///bad/only.txt", Name: "only"}, nil)
		bad.s.AddTool(&mcp.Tool{Name: "echo", InputSchema: objectSchema}, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return text("echo"), nil
		})
		badURL, _ := httpUpstream(t, bad.s)
		log := &blockedLog{released: make(chan struct{})}
		close(log.released)
		h := start(t, "[[servers]]\nname = \"good\"\nprefix = \"g_\"\n"+stdioCommand("features", "")+
			fmt.Sprintf("\n[[servers]]\nname = \"bad\"\nurl = %q\nprefix = \"b_\"\n", badURL), fastConfig().WithLog(log))
		fc := h.featureClient()
		require.Eventually(t, func() bool {
			res, prompts := h.gw.HiddenFeatures()
			return strings.Contains(res["file:///bad/only.txt"], "gate panicked handling the resources, templates and prompts of a listing") &&
				strings.Contains(prompts["b_greet"], "gate panicked handling")
		}, waitFor, 10*time.Millisecond)
		waitDown(t, h, "bad", "gate panicked handling the resources, templates and prompts of a listing")
		assert.Contains(t, log.String(), "upstream bad: gate panicked handling the resources, templates and prompts of a listing of its: a test's panic on features")

		require.Eventually(t, func() bool { return slices.Contains(fc.names(t), "prompt g_greet") }, waitFor, 10*time.Millisecond, "the other server's prompt is offered")
		assert.NotContains(t, fc.names(t), "prompt b_greet")
		for _, r := range fc.resourceList(t) {
			assert.NotEqual(t, "file:///bad/only.txt", r.URI, "the dropped server's resource is not listed")
		}
		got, err := readText(t, fc, docA)
		require.NoError(t, err)
		assert.Equal(t, "stdio reads "+docA, got, "the other server's resource is read")
		res, err := fc.cs.CallTool(ctxFor(t), &mcp.CallToolParams{Name: "g_change"})
		require.NoError(t, err)
		assert.Equal(t, "changed", textOf(res), "the other server's tool is called")

		hook.set(false)
		require.Eventually(t, func() bool {
			for _, r := range fc.resourceList(t) {
				if r.URI == "file:///bad/only.txt" {
					return true
				}
			}
			return false
		}, waitFor, 20*time.Millisecond, "the server is retried, and offered again")
	})
}

// A panic while gate handles one upstream's answer to its ping, on the
// session's own goroutine, ends that session, logged with the server's
// name; the process and the other upstream go on.
func TestHostilePingAnswerThatPanicsFailsItsUpstream(t *testing.T) {
	for _, badOverStdio := range []bool{true, false} {
		t.Run(fmt.Sprintf("over stdio %v", badOverStdio), func(t *testing.T) {
			armPanic(t, "bad", "ping", true)
			log := &blockedLog{released: make(chan struct{})}
			close(log.released)
			h := start(t, twoUpstreams(t, badOverStdio), fastConfig().WithKeepAlive(50*time.Millisecond).WithLog(log))
			c := h.client()
			waitDown(t, h, "bad", "gate panicked handling its answer to a ping")
			assert.Contains(t, log.String(), "upstream bad: gate panicked handling its answer to a ping of its: a test's panic on ping")
			// The good server is pinged as often, and may miss a ping of
			// its own on a loaded machine: it answers once it is back.
			require.Eventually(t, func() bool {
				res, err := c.call(t, "g_echo", map[string]any{"text": "still here"})
				return err == nil && textOf(res) == "echo: still here"
			}, waitFor, 20*time.Millisecond, "the other server answers")
		})
	}
}

// A panic while an upstream's link reads one of its messages, on the
// SDK's reading goroutine (a stdio upstream's line, a streamable-HTTP
// upstream's body, an HTTP+SSE upstream's event), ends that upstream's session, logged with its name;
// the call waiting on the message is answered with an error, and the
// process and the other upstream go on.
func TestHostileMessageThatPanicsTheLinkFailsItsUpstream(t *testing.T) {
	tests := []struct {
		name string
		bad  func(t *testing.T) string // its manifest entry
	}{
		{"over stdio", func(t *testing.T) string {
			return "[[servers]]\nname = \"bad\"\nprefix = \"b_\"\n" + stdioCommand("plain", "")
		}},
		{"over streamable HTTP", func(t *testing.T) string {
			url, _ := httpUpstream(t, newUpstreamServer(""))
			return fmt.Sprintf("[[servers]]\nname = \"bad\"\nurl = %q\nprefix = \"b_\"\n", url)
		}},
		{"over HTTP+SSE", func(t *testing.T) string {
			url, _ := sseUpstream(t, newUpstreamServer(""))
			return fmt.Sprintf("[[servers]]\nname = \"bad\"\nurl = %q\ntransport = \"sse\"\nprefix = \"b_\"\n", url)
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			hook := armPanic(t, "bad", "read", false)
			log := &blockedLog{released: make(chan struct{})}
			close(log.released)
			good, _ := httpUpstream(t, newUpstreamServer(""))
			h := start(t, tt.bad(t)+fmt.Sprintf("\n[[servers]]\nname = \"good\"\nurl = %q\nprefix = \"g_\"\n", good), fastConfig().WithLog(log))
			c := h.client()
			waitForTools(t, h, "b_echo", "g_echo")
			hook.set(true)
			_, err := c.call(t, "b_echo", map[string]any{"text": "hi"})
			require.Error(t, err)
			assert.Contains(t, err.Error(), "gate panicked handling the bytes of a message")
			assert.NotContains(t, err.Error(), "a test's panic")
			waitDown(t, h, "bad", "gate panicked handling the bytes of a message")
			assert.Contains(t, log.String(), "upstream bad: gate panicked handling the bytes of a message of its: a test's panic on read")
			echoes(t, c, "g_echo")
		})
	}
}

// A panic while a client's read is matched against one upstream's
// resource templates, on the client's request goroutine, is that
// upstream's failure: the read is answered with an error, its session is
// ended and logged; the process and the other upstream go on.
func TestHostileTemplateMatchThatPanicsFailsItsUpstream(t *testing.T) {
	hook := armPanic(t, "bad", "match", false)
	bad := templateUpstream(t, "bad", "x://{id}")
	log := &blockedLog{released: make(chan struct{})}
	close(log.released)
	h := start(t, fmt.Sprintf("[[servers]]\nname = \"bad\"\nurl = %q\nprefix = \"b_\"\n\n[[servers]]\nname = \"good\"\nprefix = \"g_\"\n", bad)+stdioCommand("plain", ""), fastConfig().WithLog(log))
	fc := h.featureClient()
	c := h.client()
	waitForTools(t, h, "b_echo", "g_echo")
	got, err := readText(t, fc, "x://7")
	require.NoError(t, err)
	require.Equal(t, "bad reads it", got)

	hook.set(true)
	_, err = readText(t, fc, "x://8")
	require.Error(t, err)
	assert.Contains(t, err.Error(), "server bad: gate panicked handling a match against its resource templates")
	assert.NotContains(t, err.Error(), "a test's panic")
	waitDown(t, h, "bad", "gate panicked handling a match against its resource templates")
	assert.Contains(t, log.String(), "upstream bad: gate panicked handling a match against its resource templates of its: a test's panic on match")
	echoes(t, c, "g_echo")
}
