package mcpgw_test

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// startDelay is how long the "late" stdio upstream sleeps before it
// serves: longer than a client takes to initialize and list, far shorter
// than the startup wait of these tests.
const startDelay = 600 * time.Millisecond

func init() {
	rawModes["late"] = func() {
		time.Sleep(startDelay)
		_ = newUpstreamServer(os.Getenv("GATE_TEST_TOOLS")).Run(context.Background(), &mcp.StdioTransport{})
	}
	rawModes["late-docs"] = func() {
		time.Sleep(startDelay)
		s := newUpstreamServer("")
		s.AddResource(&mcp.Resource{URI: "file:///late/doc.txt", Name: "doc"}, func(_ context.Context, r *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: r.Params.URI, Text: "late doc"}}}, nil
		})
		s.AddPrompt(&mcp.Prompt{Name: "hello"}, func(context.Context, *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
			return &mcp.GetPromptResult{Messages: []*mcp.PromptMessage{{Role: "user", Content: &mcp.TextContent{Text: "hello"}}}}, nil
		})
		_ = s.Run(context.Background(), &mcp.StdioTransport{})
	}
}

// listOnce is what a client that lists once sees: the names of the tools
// of its first tools/list, made right after initialize.
func (c *client) listOnce(t *testing.T) []string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), waitFor)
	defer cancel()
	res, err := c.Session.ListTools(ctx, nil)
	require.NoError(t, err)
	var names []string
	for _, tool := range res.Tools {
		names = append(names, tool.Name)
	}
	return names
}

// A client that lists once, right after initialize, sees every tool of an
// upstream that connects within the startup wait, and a call made as its
// first request reaches a tool whose upstream is still starting.
func TestTheFirstLookIsWhole(t *testing.T) {
	h := start(t, `
[[servers]]
name = "late"
`+stdioCommand("late", "")+`
[[servers]]
name = "quick"
`+stdioCommand("plain", ""), fastConfig().WithStartupWait(time.Minute))

	assert.Subset(t, h.client().listOnce(t), []string{"late_echo", "quick_echo"})

	// A reload that adds a server holds the next first look for it too.
	h.rewrite(`
[[servers]]
name = "late"
` + stdioCommand("late", "") + `
[[servers]]
name = "later"
` + stdioCommand("late", ""))
	res, err := h.client().call(t, "later_echo", map[string]any{"text": "hi"})
	require.NoError(t, err)
	require.False(t, res.IsError, textOf(res))
	assert.Equal(t, "echo: hi", textOf(res))
}

// The first look waits for no upstream longer than the startup wait: one
// that never answers initialize leaves the listing to be answered without
// it, and a call of one of its tools says it is connecting. The wait is
// long enough for the quick upstream (this test binary, started again) to
// connect on a loaded machine: what is asserted is that the stuck one,
// whose connect timeout is an hour, holds nothing past the wait.
func TestTheFirstLookNeverHangs(t *testing.T) {
	h := start(t, `
[[servers]]
name = "stuck"
`+stdioCommand("hang", "")+`
[[servers]]
name = "quick"
`+stdioCommand("plain", ""), fastConfig().WithConnectTimeout(time.Hour).WithStartupWait(3*time.Second))

	c := h.client()
	assert.Contains(t, c.listOnce(t), "quick_echo")
	_, err := c.call(t, "stuck_echo", nil)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "stuck_echo")
	assert.Equal(t, []string{"connecting: "}, h.states.of("stuck"))
}

// Without a startup wait, the first look is what the gateway has at the
// moment it is asked: the late upstream's tools are not in it yet. This
// is what the wait buys.
func TestNoStartupWaitAnswersAtOnce(t *testing.T) {
	h := start(t, `
[[servers]]
name = "late"
`+stdioCommand("late", ""), fastConfig().WithStartupWait(-1))

	names := h.client().listOnce(t)
	assert.False(t, strings.Contains(strings.Join(names, ","), "late_"), "listed %v before the upstream could have started", names)
}

// The first look holds resources and prompts as it holds tools: a client
// that lists or gets them first thing sees those of an upstream still
// starting.
func TestTheFirstLookHoldsResourcesAndPrompts(t *testing.T) {
	h := start(t, `
[[servers]]
name = "late"
`+stdioCommand("late-docs", ""), fastConfig().WithStartupWait(time.Minute))
	ctx, cancel := context.WithTimeout(context.Background(), waitFor)
	defer cancel()

	got, err := h.client().Session.GetPrompt(ctx, &mcp.GetPromptParams{Name: "late_hello"})
	require.NoError(t, err)
	require.Len(t, got.Messages, 1)

	h.rewrite(`
[[servers]]
name = "later"
` + stdioCommand("late-docs", ""))
	res, err := h.client().Session.ListResources(ctx, nil)
	require.NoError(t, err)
	var uris []string
	for _, r := range res.Resources {
		uris = append(uris, r.URI)
	}
	assert.Contains(t, uris, "file:///late/doc.txt")

	h.rewrite(`
[[servers]]
name = "latest"
` + stdioCommand("late-docs", ""))
	prompts, err := h.client().Session.ListPrompts(ctx, nil)
	require.NoError(t, err)
	var names []string
	for _, p := range prompts.Prompts {
		names = append(names, p.Name)
	}
	assert.Equal(t, []string{"latest_hello"}, names)
}
