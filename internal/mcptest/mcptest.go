// Package mcptest is a downstream MCP client for gate's tests: the Go
// SDK's client, with what it hears (tools/list_changed, progress) kept on
// channels, and waits that fail a test rather than hang it.
package mcptest

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/require"
)

// Wait bounds every wait of a Client: long enough for a machine loaded
// with other work, and failing rather than hanging when gate never gets
// there.
const Wait = 15 * time.Second

// Client is a session with gate and what it has heard. Set Session after
// connecting the Client's SDK client (see New).
type Client struct {
	Session  *mcp.ClientSession
	Changed  chan struct{}                        // one per notifications/tools/list_changed
	Progress chan *mcp.ProgressNotificationParams // every progress notification
}

// New returns the SDK client to connect, and the Client it reports to.
func New(name string) (*mcp.Client, *Client) {
	c := &Client{Changed: make(chan struct{}, 1000), Progress: make(chan *mcp.ProgressNotificationParams, 100)}
	cl := mcp.NewClient(&mcp.Implementation{Name: name, Version: "1"}, &mcp.ClientOptions{
		ToolListChangedHandler: func(context.Context, *mcp.ToolListChangedRequest) { c.Changed <- struct{}{} },
		ProgressNotificationHandler: func(_ context.Context, r *mcp.ProgressNotificationClientRequest) {
			c.Progress <- r.Params
		},
	})
	return cl, c
}

// Tools lists every page of the session's tools, names sorted.
func (c *Client) Tools(t testing.TB) []string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), Wait)
	defer cancel()
	var names []string
	for tool, err := range c.Session.Tools(ctx, nil) {
		require.NoError(t, err)
		names = append(names, tool.Name)
	}
	slices.Sort(names)
	return names
}

// WaitTools waits until tools/list is want, and returns how many
// list_changed notifications came meanwhile (and are drained).
func (c *Client) WaitTools(t testing.TB, want ...string) int {
	t.Helper()
	slices.Sort(want)
	deadline := time.Now().Add(Wait)
	n := 0
	for {
		got := c.Tools(t)
		if slices.Equal(got, want) || len(got) == 0 && len(want) == 0 {
			return n + c.Drain()
		}
		if time.Now().After(deadline) {
			t.Fatalf("tools/list is %v; want %v", got, want)
		}
		select {
		case <-c.Changed:
			n++
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// Drain empties Changed and returns how many notifications it held.
func (c *Client) Drain() int {
	n := 0
	for {
		select {
		case <-c.Changed:
			n++
		default:
			return n
		}
	}
}

// WaitChanged waits for one list_changed.
func (c *Client) WaitChanged(t testing.TB) {
	t.Helper()
	select {
	case <-c.Changed:
	case <-time.After(Wait):
		t.Fatal("no notifications/tools/list_changed")
	}
}

// Text is the text of a result's content, concatenated.
func Text(r *mcp.CallToolResult) string {
	var b strings.Builder
	for _, c := range r.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

// StartCalls makes n calls at once on the session, taking tools in turn,
// and returns the channel each call's error comes on (nil for a result).
// Each is bounded by twice Wait, only so that a test never hangs: a
// gateway's own timeout (at most Wait in these tests) ends a call first,
// even when a loaded machine delays its answer.
func (c *Client) StartCalls(n int, tools ...string) <-chan error {
	errs := make(chan error, n)
	for i := range n {
		tool := tools[i%len(tools)]
		go func() {
			ctx, cancel := context.WithTimeout(context.Background(), 2*Wait)
			defer cancel()
			_, err := c.Session.CallTool(ctx, &mcp.CallToolParams{Name: tool})
			errs <- err
		}()
	}
	return errs
}
