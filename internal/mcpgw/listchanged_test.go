package mcpgw_test

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// listedOrder is tools/list as the client gets it, every page, in the
// order given.
func listedOrder(t *testing.T, c *client) []string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), waitFor)
	defer cancel()
	var names []string
	for tool, err := range c.Session.Tools(ctx, nil) {
		require.NoError(t, err)
		names = append(names, tool.Name)
	}
	return names
}

// With a list_changed interval, the flips of a tool within one interval
// reach a client as one notifications/tools/list_changed; without one,
// as one each. Whatever flips, tools/list keeps its order: by name.
func TestListChangedIsSpaced(t *testing.T) {
	const flips = 4
	// Long enough that the flips below (each a probe answer, some tens of
	// milliseconds) end within it even on a loaded machine.
	const interval = 4 * time.Second
	for _, tc := range []struct {
		name     string
		interval time.Duration
		want     int
	}{
		{"default: one per change", 0, flips},
		{"spaced: one per interval", interval, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			url, _ := httpUpstream(t, newUpstreamServer(""))
			rule := newListener(t)
			h := start(t, fmt.Sprintf(`
[[servers]]
name = "web"
url = %q
prefix = "w_"

[[servers.tools]]
name = "echo"
probe = "tcp:%s"
`, url, rule.addr), fastConfig().WithListChangedInterval(tc.interval))
			all := prefixed("w_", upstreamTools...)
			slices.Sort(all)
			require.Eventually(t, func() bool { return slices.Equal(h.gw.Offered(), all) }, waitFor, 5*time.Millisecond)
			c := h.client()
			require.Equal(t, all, listedOrder(t, c))
			if tc.interval > 0 {
				// A change made as the client connected is told at the end
				// of its interval: let it pass.
				time.Sleep(tc.interval)
			}
			c.settle()

			before := h.gw.Changes()
			heard := 0
			for i := range flips {
				want := all
				if i%2 == 0 {
					rule.close()
					want = without(all, "w_echo")
				} else {
					rule.reopen()
				}
				heard += c.WaitTools(t, want...)
				assert.Equal(t, want, listedOrder(t, c), "flip %d: tools/list in the order of their names", i)
			}
			assert.Equal(t, uint64(flips), h.gw.Changes()-before, "the gateway made each change")
			if tc.interval > 0 {
				require.Zero(t, heard+c.Drain(), "a notification before the interval ended")
				c.WaitChanged(t)
				heard = 1
			}
			heard += c.settle()
			assert.Equal(t, tc.want, heard, "notifications/tools/list_changed heard")
			assert.Equal(t, all, listedOrder(t, c))
		})
	}
}
