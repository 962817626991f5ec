package runtime

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestVersion: Version changes with every answer stored, even one that
// says what the last one said, with a flip a policy holds back and with
// every registration change; reads of stored answers leave it alone.
func TestVersion(t *testing.T) {
	ctx := context.Background()
	h := newHarness(newRegistryConfig().WithTTL(10 * time.Second).WithBackgroundRefresh(true).WithPolicy(Policy{FailureThreshold: 2}))
	p := script(ok, ok, no)
	require.NoError(t, h.Register(Tool{Name: "a", Probe: p}, false))
	require.NoError(t, h.Register(Tool{Name: "plain"}, false))
	_, err := h.Status(ctx) // the first answer
	require.NoError(t, err)

	for _, c := range []struct {
		name    string
		do      func()
		changes bool
	}{
		{"reads of stored answers", func() {
			h.clock.At(time.Hour)
			_, _ = h.Status(ctx)
			h.ListAvailable(ctx)
		}, false},
		{"a refresh with the same answer", func() { _, _ = h.Refresh(ctx, "a") }, true},
		{"an answer a policy holds back", func() {
			_, _ = h.Refresh(ctx, "a")
			require.NotNil(t, h.status(t, "a").Pending)
		}, true},
		{"a tool registered", func() { require.NoError(t, h.Register(Tool{Name: "b"}, false)) }, true},
		{"a tool replaced", func() { require.NoError(t, h.Register(Tool{Name: "b", Description: "new"}, true)) }, true},
		{"a tool removed", func() { require.True(t, h.Unregister("b")) }, true},
		{"every tool removed", h.Clear, true},
	} {
		before := h.Version()
		c.do()
		if c.changes {
			assert.NotEqual(t, before, h.Version(), c.name)
		} else {
			assert.Equal(t, before, h.Version(), c.name)
		}
	}
}
