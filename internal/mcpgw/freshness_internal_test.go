package mcpgw

import (
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
)

// TestForwardedCacheScope: a forwarded answer keeps the upstream's
// cacheScope when it is one MCP defines, "public" when it wrote none, and
// any other value is "private", the scope that lets no one but the
// requesting user's client keep it: an upstream's word gate cannot read
// is not passed on to the client's caches.
func TestForwardedCacheScope(t *testing.T) {
	for _, tc := range []struct{ upstream, want string }{
		{"", "public"},
		{"public", "public"},
		{"private", "private"},
		{"shared-with-everyone", "private"},
		{"PUBLIC", "private"},
		{"public ", "private"},
	} {
		t.Run(tc.upstream, func(t *testing.T) {
			c := mcp.Cacheable{CacheScope: tc.upstream, TTLMs: 1000}
			forwardedCacheable(&mcp.ReadResourceRequest{}, &c, time.Minute)
			assert.Equal(t, tc.want, c.CacheScope)
		})
	}
}
