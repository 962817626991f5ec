package mcpgw_test

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sync/atomic"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/require"
)

// shuffledServer is an upstream whose every list answers in an order of
// its own: rotated by the listing's number, and reversed while reverse is
// set; each list has an entry twice (one key, two definitions), as a
// careless server may list.
func shuffledServer(name string, reverse *atomic.Bool) *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: name, Version: "1"}, nil)
	for i := range 12 {
		n := fmt.Sprintf("%s%02d", name, i)
		s.AddTool(&mcp.Tool{Name: n, Description: "Tool " + n, InputSchema: objectSchema}, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) { return text(n), nil })
		s.AddResource(&mcp.Resource{Name: n, URI: "test://" + n}, nil)
		s.AddPrompt(&mcp.Prompt{Name: n, Description: "Prompt " + n}, nil)
		s.AddResourceTemplate(&mcp.ResourceTemplate{Name: n, URITemplate: "test://" + n + "/{id}"}, nil)
	}
	var listings atomic.Int64
	order := func(n int) []int {
		k := int(listings.Add(1))
		idx := make([]int, n)
		for i := range idx {
			idx[i] = (i + k) % n
		}
		if reverse.Load() {
			slices.Reverse(idx)
		}
		return idx
	}
	s.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			res, err := next(ctx, method, req)
			if err != nil {
				return res, err
			}
			switch r := res.(type) {
			case *mcp.ListToolsResult:
				r.Tools = append(r.Tools, &mcp.Tool{Name: name + "00", Description: "Another tool of the same name", InputSchema: objectSchema})
				r.Tools = permute(r.Tools, order(len(r.Tools)))
			case *mcp.ListResourcesResult:
				r.Resources = append(r.Resources, &mcp.Resource{Name: "again", URI: "test://" + name + "00"})
				r.Resources = permute(r.Resources, order(len(r.Resources)))
			case *mcp.ListPromptsResult:
				r.Prompts = append(r.Prompts, &mcp.Prompt{Name: name + "00", Description: "Another prompt of the same name"})
				r.Prompts = permute(r.Prompts, order(len(r.Prompts)))
			case *mcp.ListResourceTemplatesResult:
				r.ResourceTemplates = permute(r.ResourceTemplates, order(len(r.ResourceTemplates)))
			}
			return res, nil
		}
	})
	return s
}

func permute[T any](l []T, idx []int) []T {
	out := make([]T, len(l))
	for i, j := range idx {
		out[i] = l[j]
	}
	return out
}

// lists is every list a client sees, as JSON.
func (c *client) lists(t *testing.T) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), waitFor)
	defer cancel()
	tools, err := c.Session.ListTools(ctx, nil)
	require.NoError(t, err)
	res, err := c.Session.ListResources(ctx, nil)
	require.NoError(t, err)
	tmpl, err := c.Session.ListResourceTemplates(ctx, nil)
	require.NoError(t, err)
	prompts, err := c.Session.ListPrompts(ctx, nil)
	require.NoError(t, err)
	b, err := json.MarshalIndent([]any{tools, res, tmpl, prompts}, "", " ")
	require.NoError(t, err)
	return string(b)
}

// Every list gate answers is the same for the same state: across client
// sessions, and across a restart of gate whose upstreams answer their
// lists in other orders, one entry twice among them.
func TestListsAreInAStableOrder(t *testing.T) {
	var reverse atomic.Bool
	urlA, _ := httpUpstream(t, shuffledServer("a", &reverse))
	urlB, _ := httpUpstream(t, shuffledServer("b", &reverse))
	toml := fmt.Sprintf("[[servers]]\nname = \"one\"\nurl = %q\n\n[[servers]]\nname = \"two\"\nurl = %q\n", urlA, urlB)
	var want []string
	for i := range 12 {
		want = append(want, fmt.Sprintf("one_a%02d", i), fmt.Sprintf("two_b%02d", i))
	}

	first := start(t, toml, fastConfig())
	c := first.client()
	c.WaitTools(t, want...)
	seen := c.lists(t)
	require.Equal(t, seen, first.client().lists(t), "another session")
	first.stop()

	reverse.Store(true)
	again := start(t, toml, fastConfig())
	c = again.client()
	c.WaitTools(t, want...)
	require.Equal(t, seen, c.lists(t), "after a restart, the upstreams answering in other orders")
}
