package mcpgw_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gate-dev/gate/internal/mcptest"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// While a server's tools are renamed again and again (a reload changing
// its prefix), every tools/list a client makes shows the whole set under
// the old names or the whole set under the new ones, never a mix, and a
// call of either name is answered by the upstream or refused by gate with
// why, never the SDK's bare "unknown tool" (unguarded, both happened: the
// SDK's set changes one tool at a time).
func TestRenameIsAtomic(t *testing.T) {
	var extra []string
	for i := range 150 {
		extra = append(extra, fmt.Sprintf("t%03d", i))
	}
	url, _ := httpUpstream(t, newUpstreamServer(strings.Join(extra, ",")))
	names := append(slices.Clone(upstreamTools), extra...)
	manifest := func(prefix string) string {
		return fmt.Sprintf("[[servers]]\nname = \"web\"\nprefix = %q\nurl = %q\n", prefix, url)
	}
	h := start(t, manifest("a_"), fastConfig())
	setA, setB := prefixed("a_", names...), prefixed("b_", names...)
	slices.Sort(setA)
	slices.Sort(setB)
	h.client().WaitTools(t, setA...)

	stop := make(chan struct{})
	var wg sync.WaitGroup
	var lists, mixed, calls, unknown atomic.Int64
	var firstMix atomic.Value
	for range 3 {
		c := h.client()
		wg.Add(2)
		go func() { // lists
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				got := listAll(t, c.Client)
				lists.Add(1)
				if got != nil && !slices.Equal(got, setA) && !slices.Equal(got, setB) {
					mixed.Add(1)
					firstMix.CompareAndSwap(nil, fmt.Sprintf("%d tools: %v...", len(got), got[:min(len(got), 5)]))
				}
			}
		}()
		go func() { // calls
			defer wg.Done()
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				name := "a_echo"
				if i%2 == 1 {
					name = "b_echo"
				}
				ctx, cancel := context.WithTimeout(context.Background(), waitFor)
				res, err := c.Session.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: map[string]any{"text": "x"}})
				cancel()
				calls.Add(1)
				var je *jsonrpc.Error
				switch {
				case err == nil:
					if textOf(res) != "echo: x" {
						unknown.Add(1)
					}
				case errors.As(err, &je) && strings.Contains(je.Message, "is not available now"):
				default:
					unknown.Add(1)
					firstMix.CompareAndSwap(nil, "call: "+err.Error())
				}
			}
		}()
	}
	for i := range 40 {
		prefix := "b_"
		if i%2 == 1 {
			prefix = "a_"
		}
		h.rewrite(manifest(prefix))
		want := setB
		if prefix == "a_" {
			want = setA
		}
		require.Eventually(t, func() bool { return slices.Equal(h.gw.Offered(), want) }, waitFor, 5*time.Millisecond)
	}
	close(stop)
	wg.Wait()
	t.Logf("%d listings, %d calls over 40 renames", lists.Load(), calls.Load())
	assert.Zero(t, mixed.Load(), "listings that mixed the sets, first: %v", firstMix.Load())
	assert.Zero(t, unknown.Load(), "calls answered by neither the upstream nor gate, first: %v", firstMix.Load())
	assert.NotZero(t, lists.Load())
}

// listAll lists every page; nil when a request failed (a test ending).
func listAll(t *testing.T, c *mcptest.Client) []string {
	ctx, cancel := context.WithTimeout(context.Background(), waitFor)
	defer cancel()
	var out []string
	for tool, err := range c.Session.Tools(ctx, nil) {
		if err != nil {
			return nil
		}
		out = append(out, tool.Name)
	}
	slices.Sort(out)
	return out
}
