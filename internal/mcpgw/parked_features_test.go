package mcpgw_test

import (
	"context"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// otherConfirmURI is a second resource of parkingFeatures that asks as
// confirmURI does.
const otherConfirmURI = "ask://confirm-too"

// parkingFeatures is parkingUpstream (the old form, 2025-11-25) with the
// resources confirmURI and otherConfirmURI and the prompt "confirm", each
// asking a form elicitation of its client during the read or get, and
// answering with what it heard back (heardText).
func parkingFeatures() *mcp.Server {
	s := parkingUpstream(nil)
	ask := func(ctx context.Context, ss *mcp.ServerSession) string {
		res, err := ss.Elicit(ctx, &mcp.ElicitParams{Message: "proceed?", RequestedSchema: confirmSchema})
		return heardText(res, err)
	}
	for _, uri := range []string{confirmURI, otherConfirmURI} {
		s.AddResource(&mcp.Resource{URI: uri, Name: "confirm"}, func(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: uri, Text: ask(ctx, req.Session)}}}, nil
		})
	}
	s.AddPrompt(&mcp.Prompt{Name: "confirm"}, func(ctx context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
		return &mcp.GetPromptResult{Messages: []*mcp.PromptMessage{{Role: "user", Content: &mcp.TextContent{Text: ask(ctx, req.Session)}}}}, nil
	})
	return s
}

// An older upstream's elicitation during a resources/read or prompts/get
// of a 2026-07-28 client over /mcp reaches that client as an input_required
// result, which the Go SDK's client answers and retries by itself, and
// its answer reaches the upstream; another 2026-07-28 client and an older
// session, able to answer the same, are never asked.
func TestParkedReadAndGetReachNewClient(t *testing.T) {
	h := startAskingWith(t, "", fastConfig().WithStateless(true), parkingFeatures())
	bystanders := []*answering{
		h.answeringClient(t, caps{elicitForm: true, version: newForm, stateless: true}),
		h.answeringClient(t, caps{elicitForm: true, version: oldForm}),
	}
	caller := h.answeringClient(t, caps{elicitForm: true, version: newForm, stateless: true})
	caller.waitPrompt(t, "a_confirm")

	read, err := caller.readText(t, confirmURI)
	require.NoError(t, err)
	assert.Equal(t, heardConfirm, read)
	got, err := caller.getText(t, "a_confirm")
	require.NoError(t, err)
	assert.Equal(t, heardConfirm, got)

	assert.Equal(t, int32(2), caller.elicits.Load())
	for _, b := range bystanders {
		assert.Zero(t, b.elicits.Load(), "a client whose request it was not was asked")
	}
	require.Eventually(t, func() bool { return h.gw.ParkedHeld() == 0 }, waitFor, 10*time.Millisecond, "a parked read or get outlived its end")
}

// A parked request's requestState resumes only a request of its method
// and of what it named: a call's used on a read, a read's on a call or a
// get, or on a read of another resource, is refused -32602 with a message
// that echoes nothing the client sent; the parked requests go on, and the
// right retries complete them.
func TestParkedRequestStateBoundToMethod(t *testing.T) {
	h := startAskingWith(t, "", fastConfig().WithStateless(true), parkingFeatures())
	c := h.answeringClient(t, caps{elicitForm: true, version: newForm, stateless: true, noRoundTrip: true})
	c.waitPrompt(t, "a_confirm")
	ctx := ctxFor(t)

	call, err := c.cs.CallTool(ctx, &mcp.CallToolParams{Name: "a_confirm", Arguments: map[string]any{}})
	require.NoError(t, err)
	require.True(t, call.NeedsInput(), "%+v", call)
	read, err := c.cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: confirmURI})
	require.NoError(t, err)
	require.True(t, read.NeedsInput(), "%+v", read)
	require.Len(t, read.InputRequests, 1)
	get, err := c.cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "a_confirm"})
	require.NoError(t, err)
	require.True(t, get.NeedsInput(), "%+v", get)
	answerTo := func(reqs mcp.InputRequestMap) mcp.InputResponseMap {
		out := mcp.InputResponseMap{}
		for id := range reqs {
			out[id] = &mcp.ElicitResult{Action: "accept", Content: map[string]any{"ok": true}}
		}
		return out
	}
	callAnswer, readAnswer, getAnswer := answerTo(call.InputRequests), answerTo(read.InputRequests), answerTo(get.InputRequests)

	tests := []struct {
		name  string
		retry func() error
		want  string
	}{
		{"a call's state on a read", func() error {
			_, err := c.cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: confirmURI, RequestState: call.RequestState, InputResponses: callAnswer})
			return err
		}, "the requestState of this read names a request of another method, tools/call"},
		{"a read's state on a call", func() error {
			_, err := c.cs.CallTool(ctx, &mcp.CallToolParams{Name: "a_confirm", Arguments: map[string]any{}, RequestState: read.RequestState, InputResponses: readAnswer})
			return err
		}, "the requestState of this call names a request of another method, resources/read"},
		{"a read's state on a get", func() error {
			_, err := c.cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "a_confirm", RequestState: read.RequestState, InputResponses: readAnswer})
			return err
		}, "the requestState of this get names a request of another method, resources/read"},
		{"a get's state on a call", func() error {
			_, err := c.cs.CallTool(ctx, &mcp.CallToolParams{Name: "a_confirm", Arguments: map[string]any{}, RequestState: get.RequestState, InputResponses: getAnswer})
			return err
		}, "the requestState of this call names a request of another method, prompts/get"},
		{"a read's state on another resource", func() error {
			_, err := c.cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: otherConfirmURI, RequestState: read.RequestState, InputResponses: readAnswer})
			return err
		}, "the requestState of this read names a read of another resource"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var je *jsonrpc.Error
			require.ErrorAs(t, tt.retry(), &je)
			assert.Equal(t, int64(jsonrpc.CodeInvalidParams), je.Code)
			assert.Equal(t, tt.want, je.Message)
			for _, sent := range []string{call.RequestState, read.RequestState, get.RequestState, confirmURI, otherConfirmURI} {
				assert.NotContains(t, je.Message, sent)
			}
		})
	}

	doneRead, err := c.cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: confirmURI, RequestState: read.RequestState, InputResponses: readAnswer})
	require.NoError(t, err)
	require.False(t, doneRead.NeedsInput())
	require.Len(t, doneRead.Contents, 1)
	assert.Equal(t, heardConfirm, doneRead.Contents[0].Text)
	doneGet, err := c.cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "a_confirm", RequestState: get.RequestState, InputResponses: getAnswer})
	require.NoError(t, err)
	require.Len(t, doneGet.Messages, 1)
	assert.Equal(t, heardConfirm, doneGet.Messages[0].Content.(*mcp.TextContent).Text)
	doneCall, err := c.cs.CallTool(ctx, &mcp.CallToolParams{Name: "a_confirm", Arguments: map[string]any{}, RequestState: call.RequestState, InputResponses: callAnswer})
	require.NoError(t, err)
	assert.Equal(t, heardConfirm, textOf(doneCall))
	require.Eventually(t, func() bool { return h.gw.ParkedHeld() == 0 }, waitFor, 10*time.Millisecond)
}
