package mcpgw_test

import (
	"context"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func init() {
	// "features" is the feature upstream over stdio, with a tool "change"
	// that adds a resource and a prompt (the SDK then sends their
	// list_changed) and reports an update of docA.
	rawModes["features"] = func() {
		f := newFeatureUpstream("stdio")
		f.s.AddTool(&mcp.Tool{Name: "change", InputSchema: map[string]any{"type": "object"}}, func(ctx context.Context, _ *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			f.s.AddResource(&mcp.Resource{URI: "file:///docs/new.txt", Name: "new"}, nil)
			f.s.AddPrompt(&mcp.Prompt{Name: "new"}, nil)
			if err := f.s.ResourceUpdated(ctx, &mcp.ResourceUpdatedNotificationParams{URI: docA}); err != nil {
				return nil, err
			}
			return text("changed"), nil
		})
		_ = f.s.Run(context.Background(), &mcp.StdioTransport{})
	}
}

// A stdio upstream's resource and prompt list_changed, and its updates of
// a resource a client subscribed to, reach the client: the stdio link
// reads the notifications gate acts on, and drops only the others.
func TestFrontedNotificationsOfAStdioUpstream(t *testing.T) {
	h := start(t, `
[[servers]]
name = "pipe"
`+stdioCommand("features", ""), fastConfig())
	fc := h.featureClient()
	ctx := ctxFor(t)
	require.NoError(t, fc.cs.Subscribe(ctx, &mcp.SubscribeParams{URI: docA}))

	res, err := fc.cs.CallTool(ctx, &mcp.CallToolParams{Name: "pipe_change"})
	require.NoError(t, err)
	require.False(t, res.IsError, textOf(res))

	select {
	case uri := <-fc.updated:
		assert.Equal(t, docA, uri)
	case <-ctx.Done():
		t.Fatal("no notifications/resources/updated through gate")
	}
	// The list_changed the upstream sent made gate list again: the new
	// prompt is offered.
	require.Eventually(t, func() bool {
		prompts, err := fc.cs.ListPrompts(ctx, nil)
		require.NoError(t, err)
		for _, p := range prompts.Prompts {
			if p.Name == "pipe_new" {
				return true
			}
		}
		return false
	}, waitFor, 10*time.Millisecond, "the upstream's new prompt is not offered")
	for what, ch := range map[string]chan struct{}{"resources": fc.resources, "prompts": fc.prompt} {
		select {
		case <-ch:
		case <-ctx.Done():
			t.Fatalf("no notifications/%s/list_changed through gate", what)
		}
	}
}
