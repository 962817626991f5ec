package mcpgw_test

import (
	"fmt"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/gate-dev/gate/internal/mcpgw"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A subscription's URI past its size bound is refused before it is
// matched against any server's templates: the bound is there to keep
// what a URI costs small, and matching a long one is its largest cost.
func TestSubscriptionURIRefusedBeforeMatching(t *testing.T) {
	c := subscribableDocs(t).featureClient()
	var matched atomic.Int64
	mcpgw.SetMatchingHook(t, func() { matched.Add(1) })

	for _, uri := range []string{"file:///docs/" + strings.Repeat("x", 9<<10) + ".md", "nowhere://" + strings.Repeat("x", 1<<20)} {
		err := c.cs.Subscribe(ctxFor(t), &mcp.SubscribeParams{URI: uri})
		require.Error(t, err)
		assert.Contains(t, err.Error(), fmt.Sprintf("a subscription's URI is at most 8192 bytes; this one has %d", len(uri)))
		assert.NotContains(t, err.Error(), "xxxx", "the URI is not echoed")
	}
	assert.Zero(t, matched.Load(), "a URI past the bound was matched against the templates")
	require.NoError(t, c.cs.Subscribe(ctxFor(t), &mcp.SubscribeParams{URI: "file:///docs/short.md"}))
	assert.Positive(t, matched.Load(), "the hook sees a match")
}
