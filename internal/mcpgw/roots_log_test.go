//lint:file-ignore SA1019 MCP deprecates roots as of 2026-07-28 (SEP-2577); clients and servers of the earlier versions gate speaks use it

package mcpgw_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// rootsAsked connects a client that declares roots (or not, with
// noRoots) and tells asked of each roots/list gate sends it; answer, when
// not nil, answers it instead of the client's own roots.
func (h *harness) rootsAsked(noRoots bool, asked func(), answer func() (mcp.Result, error)) (*mcp.Client, *mcp.ClientSession) {
	h.t.Helper()
	opts := &mcp.ClientOptions{}
	if noRoots {
		opts.Capabilities = &mcp.ClientCapabilities{}
	}
	cl := mcp.NewClient(&mcp.Implementation{Name: "roots-asked", Version: "1"}, opts)
	cl.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			if method != "roots/list" {
				return next(ctx, method, req)
			}
			asked()
			if answer != nil {
				return answer()
			}
			return next(ctx, method, req)
		}
	})
	ctx, cancel := context.WithTimeout(context.Background(), waitFor)
	defer cancel()
	cs, err := cl.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: h.url}, nil)
	require.NoError(h.t, err)
	h.t.Cleanup(func() { _ = cs.Close() })
	return cl, cs
}

// TestRootsFailuresLogQuietly: a client session that does not declare
// roots is never asked for them, and nothing is logged about it; one that
// declares them and fails every ask is logged once, and only at debug
// level (Config.WithDebug), however many asks it fails.
//
// The log is a queue written in order: a session that answers with more
// roots than gate takes, connected after the failing session's third
// ask, is logged after that session's first two failures, so once its
// line is in, theirs are too.
func TestRootsFailuresLogQuietly(t *testing.T) {
	for _, tc := range []struct {
		name  string
		debug bool
		lines int
	}{
		{"without debug", false, 0},
		{"with debug", true, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			log := &lockedLog{}
			h := start(t, "[[tools]]\nname = \"plain\"\n", fastConfig().WithLog(log).WithDebug(tc.debug))

			var plainAsks atomic.Int64
			_, plain := h.rootsAsked(true, func() { plainAsks.Add(1) }, nil)

			asks := make(chan struct{}, 16)
			failing, _ := h.rootsAsked(false, func() { asks <- struct{}{} }, func() (mcp.Result, error) {
				return nil, errors.New("this client fails roots/list")
			})
			for i := range 3 {
				select {
				case <-asks:
				case <-time.After(waitFor):
					t.Fatalf("gate sent %d roots/list, want 3: log:\n%s", i, log.String())
				}
				if i < 2 {
					// The client's list_changed: gate asks again, at
					// most once a second.
					failing.AddRoots(&mcp.Root{URI: fmt.Sprintf("file:///work/%d", i)})
				}
			}

			many := make([]*mcp.Root, 300)
			for i := range many {
				many[i] = &mcp.Root{URI: fmt.Sprintf("file:///many/%d", i)}
			}
			_, _ = h.rootsAsked(false, func() {}, func() (mcp.Result, error) { return &mcp.ListRootsResult{Roots: many}, nil })
			require.Eventually(t, func() bool { return strings.Contains(log.String(), "more roots than gate takes") }, waitFor, 5*time.Millisecond, "log:\n%s", log.String())

			got := log.String()
			assert.Equal(t, tc.lines, strings.Count(got, "contributes no roots"), "log:\n%s", got)
			assert.Zero(t, plainAsks.Load(), "a session without the roots capability was asked for roots")
			id := plain.ID()
			if len(id) > 8 { // as gate's log shortens it
				id = id[:8] + "…"
			}
			// Its protocol version is logged (at debug), its roots not.
			assert.NotContains(t, got, "MCP session "+id+": roots/list", "a session without the roots capability was logged")
		})
	}
}
