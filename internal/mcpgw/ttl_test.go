package mcpgw_test

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/gate-dev/gate/internal/mcpgw"
	"github.com/gate-dev/gate/internal/mcptest"
	"github.com/gate-dev/gate/runtime"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// handClock is gate's clock in these tests: it stands still until moved,
// so that a ttlMs can be checked to the millisecond whatever the machine.
type handClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *handClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *handClock) add(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

// startOnClock is start, with the whole manifest given and gate's clock
// clk: probe answers expire, and are refreshed, only as clk moves.
func startOnClock(t *testing.T, toml string, clk runtime.Clock, gwCfg ...mcpgw.Config) *harness {
	t.Helper()
	h := &harness{t: t, dir: t.TempDir()}
	h.manifest = filepath.Join(h.dir, "gate.toml")
	require.NoError(t, os.WriteFile(h.manifest, []byte(toml), 0o600))
	ctx, cancel := context.WithCancel(context.Background())
	cfg := runtime.NewServiceConfig().WithGate(runtime.NewGateConfig().WithClock(clk)).WithTick(10 * time.Millisecond).WithWatchInterval(0)
	svc, err := runtime.OpenService(ctx, h.manifest, cfg)
	require.NoError(t, err)
	h.svc = svc
	h.gw = mcpgw.New(svc, append(gwCfg, fastConfig())[0])
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); _ = svc.Run(ctx) }()
	go func() { defer wg.Done(); _ = h.gw.Run(ctx) }()
	t.Cleanup(func() {
		h.gw.CloseSessions()
		cancel()
		wg.Wait()
		_ = svc.Close(context.Background())
	})
	return h
}

// session connects a Go SDK client to the gateway's server in memory, at
// version; a new one per look, as the client caches a list for its ttlMs.
func (h *harness) session(t *testing.T, version string) *mcp.ClientSession {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), waitFor)
	defer cancel()
	ct, st := mcp.NewInMemoryTransports()
	ss, err := h.gw.Server().Connect(ctx, st, nil)
	require.NoError(t, err)
	t.Cleanup(func() { _ = ss.Close() })
	cl, _ := mcptest.New("ttl-client")
	cs, err := cl.Connect(ctx, ct, &mcp.ClientSessionOptions{ProtocolVersion: version})
	require.NoError(t, err)
	t.Cleanup(func() { _ = cs.Close() })
	return cs
}

// listTools is one tools/list of a new session at version.
func (h *harness) listTools(t *testing.T, version string) *mcp.ListToolsResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), waitFor)
	defer cancel()
	res, err := h.session(t, version).ListTools(ctx, nil)
	require.NoError(t, err)
	return res
}

// nextLook is the soonest NextProbe of the server registry's answers, as
// time from clk's now.
func (h *harness) nextLook(t *testing.T, clk runtime.Clock) time.Duration {
	t.Helper()
	sts, err := h.svc.Gate().Servers().Status(context.Background())
	require.NoError(t, err)
	var soonest time.Time
	for _, st := range sts {
		require.False(t, st.HasProbe && st.NextProbe.IsZero(), "%s: a probe under way", st.Name)
		if st.HasProbe && (soonest.IsZero() || st.NextProbe.Before(soonest)) {
			soonest = st.NextProbe
		}
	}
	return soonest.Sub(clk.Now())
}

// ttlSettles waits until tools/list's ttlMs is the time to the next look,
// to the millisecond on gate's clock (the registry's answers settle after
// the offered set's change), and returns it.
func (h *harness) ttlSettles(t *testing.T, clk runtime.Clock) time.Duration {
	t.Helper()
	var got, want time.Duration
	deadline := time.Now().Add(waitFor)
	for time.Now().Before(deadline) {
		got = time.Duration(h.listTools(t, "2026-07-28").TTLMs) * time.Millisecond
		want = h.nextLook(t, clk).Truncate(time.Millisecond)
		if got == want {
			return got
		}
	}
	require.Equal(t, want, got, "ttlMs is the time to the soonest probe of what the list depends on")
	return got
}

// tools/list's ttlMs is the time, on gate's clock, to the soonest probe
// of the servers and tool rules the offered tools depend on: ahead of the
// TTL by the refresher's lead while they are healthy, the retry interval
// once one fails. It counts down with gate's clock, not the machine's.
func TestToolsListTTLIsTheNextProbe(t *testing.T) {
	url, _ := httpUpstream(t, newUpstreamServer(""))
	server, rule := newListener(t), newListener(t)
	clk := &handClock{t: time.Unix(1_000_000, 0)}
	h := startOnClock(t, fmt.Sprintf(`[runtime]
ttl = "10s"
grace = "0s"
retry = "2s"

[[servers]]
name = "web"
url = %q
prefix = "w_"
probe = "tcp:%s"

[[servers.tools]]
name = "echo"
probe = "tcp:%s"
`, url, server.addr, rule.addr), clk)
	all := prefixed("w_", upstreamTools...)
	waitListed(t, h, all)

	ttl := h.ttlSettles(t, clk)
	// The refresher takes an answer a fifth of the TTL ahead of its expiry,
	// less a jitter of up to a tenth.
	assert.GreaterOrEqual(t, ttl, 7*time.Second)
	assert.LessOrEqual(t, ttl, 8*time.Second)

	clk.add(3 * time.Second)
	assert.Equal(t, int((ttl - 3*time.Second).Milliseconds()), h.listTools(t, "2026-07-28").TTLMs, "it counts down on gate's clock")

	rule.close()
	clk.add(ttl - 3*time.Second + 2*time.Second) // past both answers' next probe
	waitListed(t, h, without(all, "w_echo"))
	ttl = h.ttlSettles(t, clk)
	// The rule's probe fails: it is probed again after the retry interval,
	// less the refresher's lead.
	assert.GreaterOrEqual(t, ttl, 1400*time.Millisecond)
	assert.LessOrEqual(t, ttl, 1600*time.Millisecond)
}

// A down upstream comes back, at the earliest, when gate reconnects: the
// list's ttlMs is no longer than the backoff, however far its probe's next
// look.
func TestToolsListTTLWaitsForTheReconnect(t *testing.T) {
	url, stop := httpUpstream(t, newUpstreamServer(""))
	server := newListener(t)
	clk := &handClock{t: time.Unix(1_000_000, 0)}
	backoff := time.Second
	h := startOnClock(t, fmt.Sprintf(`[runtime]
ttl = "10s"

[[servers]]
name = "web"
url = %q
probe = "tcp:%s"
`, url, server.addr), clk, mcpgw.NewConfig().WithBackoff(backoff, backoff).WithKeepAlive(0))
	waitListed(t, h, prefixed("web_", upstreamTools...))
	require.Greater(t, h.ttlSettles(t, clk), backoff, "the probe's next look")

	stop()
	waitListed(t, h, nil)
	assert.LessOrEqual(t, time.Duration(h.listTools(t, "2026-07-28").TTLMs)*time.Millisecond, backoff)
}

// An open breaker whose failure no probe saw lets its tools back for a
// trial at the end of its cool-down: the list's ttlMs is no longer than
// that, however far its probe's next look.
func TestToolsListTTLWaitsForTheCoolDown(t *testing.T) {
	s, _ := statusServer(503)
	url := serveHTTP(t, &statusUpstream{next: mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, nil)})
	server := newListener(t)
	clk := &handClock{t: time.Unix(1_000_000, 0)}
	coolDown := 5 * time.Second
	h := startOnClock(t, fmt.Sprintf(`[runtime]
ttl = "10s"

[[servers]]
name = "web"
url = %q
probe = "tcp:%s"
breaker = { failures = 2, cooldown = %q }
`, url, server.addr, coolDown), clk)
	waitListed(t, h, prefixed("web_", append(upstreamTools, "s503")...))
	require.Greater(t, h.ttlSettles(t, clk), coolDown, "the probe's next look")

	ctx, cancel := context.WithTimeout(context.Background(), waitFor)
	defer cancel()
	for range 2 { // two clients
		_, err := h.session(t, "2025-11-25").CallTool(ctx, &mcp.CallToolParams{Name: "web_s503"})
		require.ErrorContains(t, err, "HTTP 503")
	}
	waitListed(t, h, nil)
	assert.LessOrEqual(t, time.Duration(h.listTools(t, "2026-07-28").TTLMs)*time.Millisecond, coolDown)
}

// Every list gate answers says cacheScope "public" (it is the same for
// every client), and a ttlMs only to a client of a version that defines
// it: to an earlier one the SDK still writes both fields, at the values
// their absence means. A forwarded read keeps the upstream's scope, and
// its ttlMs no longer than the resources list's.
func TestListsCacheFields(t *testing.T) {
	up := newUpstreamServer("")
	up.AddResource(&mcp.Resource{URI: "test://cached", Name: "cached"}, func(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
		res := &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: req.Params.URI, Text: "kept a minute"}}}
		res.TTLMs, res.CacheScope = 60_000, "private"
		return res, nil
	})
	url, _ := httpUpstream(t, up)
	server := newListener(t)
	clk := &handClock{t: time.Unix(1_000_000, 0)}
	h := startOnClock(t, fmt.Sprintf(`[runtime]
ttl = "10s"

[[servers]]
name = "web"
url = %q
probe = "tcp:%s"
`, url, server.addr), clk)
	waitListed(t, h, prefixed("web_", upstreamTools...))
	ctx, cancel := context.WithTimeout(context.Background(), waitFor)
	defer cancel()
	for _, version := range []string{"2026-07-28", "2025-11-25", "2025-06-18"} {
		cs := h.session(t, version)
		tools, err := cs.ListTools(ctx, nil)
		require.NoError(t, err)
		res, err := cs.ListResources(ctx, nil)
		require.NoError(t, err)
		tmpl, err := cs.ListResourceTemplates(ctx, nil)
		require.NoError(t, err)
		prompts, err := cs.ListPrompts(ctx, nil)
		require.NoError(t, err)
		read, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "test://cached"})
		require.NoError(t, err)
		assert.Equal(t, "private", read.CacheScope, "a read keeps the upstream's scope")
		if version == "2026-07-28" {
			assert.Equal(t, res.TTLMs, read.TTLMs, "a read is kept no longer than the list it was read from")
		} else {
			assert.Zero(t, read.TTLMs)
		}
		for what, c := range map[string]mcp.Cacheable{"tools": tools.Cacheable, "resources": res.Cacheable, "templates": tmpl.Cacheable, "prompts": prompts.Cacheable} {
			assert.Equal(t, "public", c.CacheScope, "%s at %s", what, version)
			if version == "2026-07-28" {
				assert.Positive(t, c.TTLMs, "%s at %s", what, version)
				assert.LessOrEqual(t, c.TTLMs, 8000, "%s at %s", what, version)
			} else {
				assert.Zero(t, c.TTLMs, "%s at %s", what, version)
			}
		}
	}
}

// waitListed waits until tools/list (of a client that caches nothing) is
// want.
func waitListed(t *testing.T, h *harness, want []string) {
	t.Helper()
	c := &mcptest.Client{Session: h.session(t, "2025-11-25"), Changed: make(chan struct{}, 1000)}
	c.WaitTools(t, want...)
}

// While the manifest has skills, the resources and prompts lists and a
// skill's read say ttlMs 0 (their resources follow the tools' probes),
// with cacheScope "public" on the read gate answers itself too.
func TestSkillsListsAreNotCached(t *testing.T) {
	skillsDir := t.TempDir()
	writeSkill(t, skillsDir, "notes", notesSkill)
	h := start(t, fmt.Sprintf("[skills]\npaths = [%q]\n", skillsDir), fastConfig())
	ctx, cancel := context.WithTimeout(context.Background(), waitFor)
	defer cancel()
	for _, version := range []string{"2026-07-28", "2025-11-25"} {
		cs := h.session(t, version)
		res, err := cs.ListResources(ctx, nil)
		require.NoError(t, err)
		require.NotEmpty(t, res.Resources)
		prompts, err := cs.ListPrompts(ctx, nil)
		require.NoError(t, err)
		read, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: mcpgw.SkillsPromptURI})
		require.NoError(t, err)
		for what, c := range map[string]mcp.Cacheable{"resources": res.Cacheable, "prompts": prompts.Cacheable, "read": read.Cacheable} {
			assert.Equal(t, mcp.Cacheable{CacheScope: "public"}, c, "%s at %s", what, version)
		}
	}
}
