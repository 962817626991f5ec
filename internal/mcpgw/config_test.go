package mcpgw

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// Every bound given as 0 (or less) is its default: a bound of 0 would fail
// or refuse everything at once, or never pause. (WithKeepAlive(0) is the
// exception, documented: it turns pings off.)
func TestZeroBoundsAreTheDefaults(t *testing.T) {
	d := NewConfig()
	for _, neg := range []int{0, -1} {
		c := NewConfig().WithCallTimeout(0).WithConnectTimeout(0).WithListTimeout(0).WithBackoff(0, 0).
			WithMaxTools(neg).WithMaxResultBytes(neg).WithMaxMessageBytes(neg).WithMaxPending(neg).
			WithMaxSessions(neg).WithMaxRequestBytes(neg).WithSessionQueue(neg).WithMaxSessionRequests(neg).
			WithMaxUpstreamCalls(neg).WithMaxListingBytes(neg).WithUpstreamWriteTimeout(0).WithStopGrace(0).
			WithSessionIdle(0).WithWriteTimeout(0)
		assert.Equal(t, d, c, "bounds of %d", neg)
	}
	assert.Equal(t, DefaultBackoffMin*3, NewConfig().WithBackoff(DefaultBackoffMin*3, DefaultBackoffMin).backoffMax, "a most below the least")
}
