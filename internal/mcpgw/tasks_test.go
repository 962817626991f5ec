package mcpgw_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// taskHandle is the answer of the 2026-07-28 tasks extension in place of
// a call's result.
type taskHandle struct {
	mcp.ResultBase
	ResultType     string `json:"resultType"`
	TaskID         string `json:"taskId"`
	Status         string `json:"status"`
	PollIntervalMs int    `json:"pollIntervalMs"`
}

// An upstream that answers a call with a task handle, which gate did not
// ask for and cannot follow with the SDK it has, gets its client an error
// that says so, never an empty result that says the call succeeded; its
// other calls go on.
func TestATaskHandleIsRefused(t *testing.T) {
	s := newUpstreamServer("")
	s.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			if r, ok := req.(*mcp.CallToolRequest); ok && r.Params.Name == "slow" {
				return &taskHandle{ResultType: "task", TaskID: "t-1", Status: "working", PollIntervalMs: 100}, nil
			}
			return next(ctx, method, req)
		}
	})
	url, _ := httpUpstream(t, s)
	h := start(t, fmt.Sprintf("[[servers]]\nname = \"web\"\nurl = %q\nprefix = \"w_\"\n", url), fastConfig())
	c := h.client()
	c.WaitTools(t, prefixed("w_", upstreamTools...)...)

	_, err := c.call(t, "w_slow", nil)
	var je *jsonrpc.Error
	require.ErrorAs(t, err, &je)
	assert.Equal(t, "server web answered the call of w_slow with a task, which gate does not pass on: it asks no upstream for one", je.Message)

	res, err := c.call(t, "w_echo", map[string]any{"text": "hi"})
	require.NoError(t, err)
	assert.Equal(t, "echo: hi", textOf(res))
}
