package mcpgw_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/require"
)

// barrier holds each call until n have arrived, then lets the n go.
type barrier struct {
	n       int
	mu      sync.Mutex
	arrived int
	open    chan struct{}
}

func newBarrier(n int) *barrier { return &barrier{n: n, open: make(chan struct{})} }

func (b *barrier) wait(ctx context.Context) error {
	b.mu.Lock()
	open := b.open
	if b.arrived++; b.arrived == b.n {
		close(open)
		b.open, b.arrived = make(chan struct{}), 0
	}
	b.mu.Unlock()
	select {
	case <-open:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Calls to one HTTP upstream run at once, and the connections they open
// are kept for the next: rounds of n calls that each wait for all n to
// arrive (so that every round holds n connections at once) open fewer
// new connections, all rounds after the first together, than one round
// needs; nor do calls one after another. Once the calls stop, the
// connections they kept close.
func TestForwardedCallsReuseConnections(t *testing.T) {
	const n, rounds, sequential = 8, 6, 50
	meet := newBarrier(n)
	s := mcp.NewServer(&mcp.Implementation{Name: "meet", Version: "1"}, nil)
	s.AddTool(&mcp.Tool{Name: "meet", InputSchema: objectSchema}, func(ctx context.Context, _ *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		if err := meet.wait(ctx); err != nil {
			return nil, err
		}
		return text("met"), nil
	})
	s.AddTool(&mcp.Tool{Name: "echo", InputSchema: objectSchema}, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return text("echo"), nil
	})
	up := countingUpstream(t, s)
	h := start(t, fmt.Sprintf("[[servers]]\nname = \"up\"\nurl = %q\nprefix = \"p_\"\n", up.url), fastConfig())
	waitOffered(t, h.gw, 2)
	c := h.client()

	round := func() {
		errs := make(chan error, n)
		for range n {
			go func() {
				res, err := c.call(t, "p_meet", nil)
				if err == nil && textOf(res) != "met" {
					err = fmt.Errorf("answered %q", textOf(res))
				}
				errs <- err
			}()
		}
		for range n {
			require.NoError(t, <-errs, "a call of %d held until all had arrived: the gateway did not send them to the upstream at once", n)
		}
	}
	round()
	before := up.accepted.Load()
	for range rounds - 1 {
		round()
	}
	for range sequential {
		res, err := c.call(t, "p_echo", nil)
		require.NoError(t, err)
		require.Equal(t, "echo", textOf(res))
	}
	opened := up.accepted.Load() - before
	require.Less(t, opened, int64(n),
		"after a first round of %d calls at once, %d more rounds and %d calls one by one opened %d new connections to the upstream: the idle ones were not kept", n, rounds-1, sequential, opened)
	// Kept while they are of use, not after: once the calls stop, the
	// connections close but the session's event stream.
	require.Eventually(t, func() bool { return up.open.Load() <= 1 }, waitFor, 10*time.Millisecond,
		"the burst's idle connections to the upstream were still open: %d", up.open.Load())
}
