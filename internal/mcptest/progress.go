package mcptest

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// StepsArgs are the arguments of NewProgressServer's tools.
type StepsArgs struct {
	Steps int `json:"steps,omitempty"`
}

// NewProgressServer is an upstream MCP server whose tools report progress
// as fast as they can, or never answer:
//
//	steps  sends "steps" progress notifications, then answers
//	       "done after N steps"
//	flood  the same, each with a 4 KiB message: it fills a client's
//	       stream within a few hundred steps
//	hang   answers when cancelled, or after Wait
func NewProgressServer() *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "progress-upstream", Version: "1"}, nil)
	report := func(message func(int) string) func(context.Context, *mcp.CallToolRequest, StepsArgs) (*mcp.CallToolResult, any, error) {
		return func(ctx context.Context, req *mcp.CallToolRequest, in StepsArgs) (*mcp.CallToolResult, any, error) {
			tok := req.Params.GetProgressToken()
			for i := 1; i <= in.Steps && tok != nil; i++ {
				if err := req.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{ProgressToken: tok, Progress: float64(i), Total: float64(in.Steps), Message: message(i)}); err != nil {
					return nil, nil, err
				}
			}
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: fmt.Sprintf("done after %d steps", in.Steps)}}}, nil, nil
		}
	}
	mcp.AddTool(s, &mcp.Tool{Name: "steps"}, report(func(i int) string { return fmt.Sprintf("step %d", i) }))
	pad := strings.Repeat("p", 4<<10)
	mcp.AddTool(s, &mcp.Tool{Name: "flood"}, report(func(int) string { return pad }))
	mcp.AddTool(s, &mcp.Tool{Name: "hang"}, func(ctx context.Context, _ *mcp.CallToolRequest, _ StepsArgs) (*mcp.CallToolResult, any, error) {
		select {
		case <-ctx.Done():
			return nil, nil, ctx.Err()
		case <-time.After(Wait):
			return nil, nil, errors.New("hang: never cancelled")
		}
	})
	return s
}

// ProgressTools are NewProgressServer's tools, sorted.
var ProgressTools = []string{"flood", "hang", "steps"}

// Steps is 1, 2, ... n: the progress of a call of steps.
func Steps(n int) []float64 {
	out := make([]float64, n)
	for i := range out {
		out[i] = float64(i + 1)
	}
	return out
}

// ProgressOf waits for n progress notifications and returns their
// progress values, in the order they came.
func (c *Client) ProgressOf(t testing.TB, n int) []float64 {
	t.Helper()
	var got []float64
	for len(got) < n {
		select {
		case p := <-c.Progress:
			got = append(got, p.Progress)
		case <-time.After(Wait):
			t.Fatalf("%d progress notifications of %d came: %v", len(got), n, got)
		}
	}
	return got
}
