package mcpgw_test

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gate-dev/gate/runtime"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Calls are counted by server and outcome, and upstream states are
// exported and published as events of type "upstream".
func TestMetricsAndEvents(t *testing.T) {
	url, _ := httpUpstream(t, newUpstreamServer(""))
	reg := prometheus.NewRegistry()
	h := start(t, fmt.Sprintf("[[servers]]\nname = \"web\"\nurl = %q\nprefix = \"w_\"\n", url), fastConfig().WithMetrics(reg))
	var mu sync.Mutex
	var events []runtime.Event
	defer h.svc.Subscribe(func(e runtime.Event) {
		mu.Lock()
		events = append(events, e)
		mu.Unlock()
	})()
	c := h.client()
	c.WaitTools(t, prefixed("w_", upstreamTools...)...)
	_, err := c.call(t, "w_echo", nil)
	require.NoError(t, err)
	_, err = c.call(t, "w_fail", nil)
	require.Error(t, err)
	_, err = c.call(t, "nope", nil)
	require.Error(t, err)

	assert.Equal(t, 1.0, value(t, reg, "gate_mcp_calls_total", "server", "web", "tool", "w_echo", "outcome", "ok"))
	assert.Equal(t, 1.0, value(t, reg, "gate_mcp_calls_total", "server", "web", "tool", "w_fail", "outcome", "error"))
	assert.Equal(t, 1.0, value(t, reg, "gate_mcp_calls_total", "server", "", "tool", "", "outcome", "unavailable"),
		"a name the client made up is not a label")
	assert.Equal(t, 1.0, value(t, reg, "gate_mcp_upstream_state", "server", "web", "state", "ready"))
	assert.Equal(t, float64(len(upstreamTools)), value(t, reg, "gate_mcp_tools", "offered", "true"))
	assert.Equal(t, 1.0, value(t, reg, "gate_mcp_upstream_up", "server", "web"))
	assert.Equal(t, float64(len(upstreamTools)), value(t, reg, "gate_mcp_upstream_tools", "server", "web"), "the upstream's own count")

	// A reload that drops the upstream hides its tools and its series.
	h.rewrite("[[servers]]\nname = \"plain\"\n")
	c.WaitTools(t)
	require.Eventually(t, func() bool {
		return value(t, reg, "gate_mcp_upstream_state", "server", "web") == -1
	}, waitFor, 10*time.Millisecond)
	assert.Equal(t, -1.0, value(t, reg, "gate_mcp_upstream_up", "server", "web"))
	assert.Equal(t, -1.0, value(t, reg, "gate_mcp_upstream_tools", "server", "web"))
	mu.Lock()
	defer mu.Unlock()
	var ups []string
	for _, e := range events {
		if e.Type == "upstream" {
			ups = append(ups, e.State)
		}
	}
	assert.Contains(t, ups, "ready")
}

// value reads one series of a metric by its labels; -1 when absent.
func value(t *testing.T, reg *prometheus.Registry, name string, labels ...string) float64 {
	t.Helper()
	mfs, err := reg.Gather()
	require.NoError(t, err)
	for _, mf := range mfs {
		if mf.GetName() != name {
			continue
		}
	metrics:
		for _, m := range mf.GetMetric() {
			got := map[string]string{}
			for _, lp := range m.GetLabel() {
				got[lp.GetName()] = lp.GetValue()
			}
			for i := 0; i < len(labels); i += 2 {
				if got[labels[i]] != labels[i+1] {
					continue metrics
				}
			}
			return m.GetCounter().GetValue() + m.GetGauge().GetValue()
		}
	}
	return -1
}

// The upstream's state changes reach the service's subscribers.
func TestUpstreamEventsArePublished(t *testing.T) {
	url, stop := httpUpstream(t, newUpstreamServer(""))
	h := start(t, fmt.Sprintf("[[servers]]\nname = \"web\"\nurl = %q\n", url), fastConfig().WithKeepAlive(100*time.Millisecond))
	states := make(chan string, 100)
	defer h.svc.Subscribe(func(e runtime.Event) {
		if e.Type == "upstream" && e.Name == "web" {
			states <- e.State
		}
	})()
	c := h.client()
	c.WaitTools(t, prefixed("web_", upstreamTools...)...)
	stop()
	deadline := time.After(waitFor)
	for {
		select {
		case s := <-states:
			if s == "down" {
				return
			}
		case <-deadline:
			t.Fatal("no upstream down event")
		}
	}
}

// An upstream's up and tool count follow its session: when it goes down,
// its tools are hidden and it counts none.
func TestUpstreamUpAndToolsFollowItsSession(t *testing.T) {
	url, stop := httpUpstream(t, newUpstreamServer(""))
	reg := prometheus.NewRegistry()
	h := start(t, fmt.Sprintf("[[servers]]\nname = \"web\"\nurl = %q\n", url), fastConfig().WithKeepAlive(100*time.Millisecond).WithMetrics(reg))
	c := h.client()
	c.WaitTools(t, prefixed("web_", upstreamTools...)...)
	assert.Equal(t, 1.0, value(t, reg, "gate_mcp_upstream_up", "server", "web"))
	assert.Equal(t, float64(len(upstreamTools)), value(t, reg, "gate_mcp_upstream_tools", "server", "web"))

	stop()
	require.Eventually(t, func() bool {
		return value(t, reg, "gate_mcp_upstream_up", "server", "web") == 0 &&
			value(t, reg, "gate_mcp_upstream_tools", "server", "web") == 0
	}, waitFor, 10*time.Millisecond, "the upstream went down: up and its tool count go to 0")
}

// Skills are offered as resources and a prompt.
func TestSkillsAsResourcesAndPrompt(t *testing.T) {
	skillsDir := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(skillsDir, "notes"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(skillsDir, "notes", "SKILL.md"), []byte("---\nname: notes\ndescription: Keep notes\u202e.\n---\nWrite notes down.\n"), 0o644))
	h := start(t, fmt.Sprintf("[skills]\npaths = [%q]\n", skillsDir), fastConfig())
	c := h.client()
	ctx, cancel := context.WithTimeout(context.Background(), waitFor)
	defer cancel()
	var uris []string
	require.Eventually(t, func() bool {
		res, err := c.Session.ListResources(ctx, nil)
		require.NoError(t, err)
		uris = uris[:0]
		for _, r := range res.Resources {
			uris = append(uris, r.URI)
		}
		return len(uris) == 2
	}, waitFor, 20*time.Millisecond)
	assert.ElementsMatch(t, []string{"gate://skills/prompt", "gate://skills/notes/SKILL.md"}, uris)

	res, err := c.Session.ReadResource(ctx, &mcp.ReadResourceParams{URI: "gate://skills/notes/SKILL.md"})
	require.NoError(t, err)
	assert.Contains(t, res.Contents[0].Text, "Write notes down.")
	assert.NotContains(t, res.Contents[0].Text, "\u202e")

	res, err = c.Session.ReadResource(ctx, &mcp.ReadResourceParams{URI: "gate://skills/prompt"})
	require.NoError(t, err)
	assert.Contains(t, res.Contents[0].Text, "<available_skills>")
	assert.Contains(t, res.Contents[0].Text, "notes")

	p, err := c.Session.GetPrompt(ctx, &mcp.GetPromptParams{Name: "skills"})
	require.NoError(t, err)
	require.Len(t, p.Messages, 1)
	assert.Contains(t, p.Messages[0].Content.(*mcp.TextContent).Text, "<available_skills>")
}

// Past the session cap a new session is refused with 503, while the
// requests of open sessions go on, and the cap frees with a session; a
// request body over the cap is refused.
func TestHTTPCaps(t *testing.T) {
	h := start(t, "", fastConfig().WithMaxSessions(1).WithMaxRequestBytes(1024))
	ctx, cancel := context.WithTimeout(context.Background(), waitFor)
	defer cancel()
	legacy := func(name string) (*mcp.ClientSession, error) {
		cl := mcp.NewClient(&mcp.Implementation{Name: name, Version: "1"}, nil)
		return cl.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: h.url, MaxRetries: -1}, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	}
	first, err := legacy("first")
	require.NoError(t, err)
	defer first.Close()
	_, err = legacy("second")
	require.Error(t, err)
	assert.Contains(t, err.Error(), "Service Unavailable")

	_, err = first.ListTools(ctx, nil)
	require.NoError(t, err)

	// The cap frees with the session.
	require.NoError(t, first.Close())
	require.Eventually(t, func() bool {
		cs, err := legacy("third")
		if err == nil {
			cs.Close()
		}
		return err == nil
	}, waitFor, 20*time.Millisecond)

	body := `{"jsonrpc":"2.0","id":1,"method":"ping","params":{"pad":"` + strings.Repeat("x", 4096) + `"}}`
	req, err := http.NewRequest(http.MethodPost, h.url, strings.NewReader(body))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusRequestEntityTooLarge, resp.StatusCode)
}
