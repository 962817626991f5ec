package mcpgw_test

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The resource and prompt of featureInputUpstream: "confirm" asks once,
// "again" asks on every read or get.
const (
	confirmURI = "ask://confirm"
	againURI   = "ask://again"
	manyURI    = "ask://many"
)

// heardConfirm is what featureInputUpstream's "confirm" answers once
// retried with the answering client's form answer.
const heardConfirm = `{"action":"accept","content":{"ok":true}}`

// featureInputUpstream is a Go SDK server of 2026-07-28 alone (so that the
// SDK does not turn its input_required into the old form's requests)
// whose resource and prompt "confirm" answer input_required, asking a
// form elicitation, and once retried with the answer and the state, what
// they heard; "again" answers input_required on every round, each with a
// new state; "many" asks more than the gateway's cap in one result.
// asked counts the reads and gets of "again".
func featureInputUpstream(asked *atomic.Int32) *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "asker", Version: "1"}, &mcp.ServerOptions{SupportedProtocolVersions: []string{newForm}})
	ask := mcp.InputRequestMap{"ok": &mcp.ElicitParams{Mode: "form", Message: "proceed?", RequestedSchema: confirmSchema}}
	heard := func(answers mcp.InputResponseMap, state string) string {
		if state != "state-1" {
			return "state lost: " + state
		}
		return heardText(answers["ok"], nil)
	}
	s.AddResource(&mcp.Resource{URI: confirmURI, Name: "confirm"}, func(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
		if len(req.Params.InputResponses) == 0 {
			return &mcp.ReadResourceResult{RequestState: "state-1", InputRequests: ask}, nil
		}
		return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: confirmURI, Text: heard(req.Params.InputResponses, req.Params.RequestState)}}}, nil
	})
	s.AddPrompt(&mcp.Prompt{Name: "confirm"}, func(_ context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
		if len(req.Params.InputResponses) == 0 {
			return &mcp.GetPromptResult{RequestState: "state-1", InputRequests: ask}, nil
		}
		return &mcp.GetPromptResult{Messages: []*mcp.PromptMessage{{Role: "user", Content: &mcp.TextContent{Text: heard(req.Params.InputResponses, req.Params.RequestState)}}}}, nil
	})
	s.AddResource(&mcp.Resource{URI: againURI, Name: "again"}, func(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
		n := asked.Add(1)
		return &mcp.ReadResourceResult{RequestState: fmt.Sprintf("state-%d", n), InputRequests: ask}, nil
	})
	s.AddResource(&mcp.Resource{URI: manyURI, Name: "many"}, func(context.Context, *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
		many := mcp.InputRequestMap{}
		for i := range 5 {
			many[fmt.Sprint(i)] = &mcp.ElicitParams{Mode: "form", Message: "proceed?", RequestedSchema: confirmSchema}
		}
		return &mcp.ReadResourceResult{RequestState: "state-1", InputRequests: many}, nil
	})
	s.AddPrompt(&mcp.Prompt{Name: "again"}, func(_ context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
		n := asked.Add(1)
		return &mcp.GetPromptResult{RequestState: fmt.Sprintf("state-%d", n), InputRequests: ask}, nil
	})
	return s
}

// waitPrompt waits until a lists the prompt name.
func (a *answering) waitPrompt(t *testing.T, name string) {
	t.Helper()
	require.Eventually(t, func() bool {
		res, err := a.cs.ListPrompts(ctxFor(t), nil)
		return err == nil && slices.ContainsFunc(res.Prompts, func(p *mcp.Prompt) bool { return p.Name == name })
	}, waitFor, 20*time.Millisecond, "prompt %s never listed", name)
}

// readText is the text of the resource uri as a reads it.
func (a *answering) readText(t *testing.T, uri string) (string, error) {
	t.Helper()
	res, err := a.cs.ReadResource(ctxFor(t), &mcp.ReadResourceParams{URI: uri})
	if err != nil {
		return "", err
	}
	require.Len(t, res.Contents, 1)
	return res.Contents[0].Text, nil
}

// getText is the text of the prompt name as a gets it.
func (a *answering) getText(t *testing.T, name string) (string, error) {
	t.Helper()
	res, err := a.cs.GetPrompt(ctxFor(t), &mcp.GetPromptParams{Name: name})
	if err != nil {
		return "", err
	}
	require.Len(t, res.Messages, 1)
	return res.Messages[0].Content.(*mcp.TextContent).Text, nil
}

// A 2026-07-28 client reading a resource or getting a prompt whose
// upstream answers input_required gets that result as it came, its input
// requests and state; the Go SDK's client answers it with its own
// handlers and retries, and the retry's answers and state reach the same
// upstream, which completes the request: its result says resultType
// "complete".
func TestRelayReadAndGetInputRequiredPassedToNewClient(t *testing.T) {
	h := startAsking(t, featureInputUpstream(new(atomic.Int32)), "", true)

	t.Run("as it came", func(t *testing.T) {
		c := h.answeringClient(t, caps{elicitForm: true, version: newForm, noRoundTrip: true})
		c.waitPrompt(t, "a_confirm")
		ctx := ctxFor(t)
		read, err := c.cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: confirmURI})
		require.NoError(t, err)
		require.True(t, read.NeedsInput(), "%+v", read)
		assert.Equal(t, "state-1", read.RequestState)
		require.IsType(t, &mcp.ElicitParams{}, read.InputRequests["ok"])
		assert.Equal(t, "proceed?", read.InputRequests["ok"].(*mcp.ElicitParams).Message)
		get, err := c.cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "a_confirm"})
		require.NoError(t, err)
		require.True(t, get.NeedsInput(), "%+v", get)
		assert.Equal(t, "state-1", get.RequestState)
		require.IsType(t, &mcp.ElicitParams{}, get.InputRequests["ok"])
		assert.Zero(t, c.elicits.Load(), "the input requests came in the result, not as requests")

		// More than the gateway's cap of input requests in one result
		// (4, relay.go) is not passed on.
		_, err = c.cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: manyURI})
		var je *jsonrpc.Error
		require.ErrorAs(t, err, &je)
		assert.Equal(t, "server a asked for 5 inputs in one input_required result, over the gateway's cap of 4: it was not passed on", je.Message)
	})
	t.Run("answered by the SDK's client", func(t *testing.T) {
		c := h.answeringClient(t, caps{elicitForm: true, version: newForm})
		c.waitPrompt(t, "a_confirm")
		ctx := ctxFor(t)
		read, err := c.cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: confirmURI})
		require.NoError(t, err)
		require.Len(t, read.Contents, 1)
		assert.Equal(t, heardConfirm, read.Contents[0].Text)
		assert.Equal(t, "complete", resultTypeOf(t, read))
		get, err := c.cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "a_confirm"})
		require.NoError(t, err)
		require.Len(t, get.Messages, 1)
		assert.Equal(t, heardConfirm, get.Messages[0].Content.(*mcp.TextContent).Text)
		assert.Equal(t, "complete", resultTypeOf(t, get))
		assert.Equal(t, int32(2), c.elicits.Load(), "the SDK's client answered each once")
	})
}

// A client older than 2026-07-28 reading a resource or getting a prompt
// whose upstream answers input_required is sent the input request as the
// old form's request, and gate retries upstream with its answer and the
// state: the request completes with them. Another client's session is
// never asked.
func TestRelayReadAndGetInputRequiredBridgedForOldClient(t *testing.T) {
	h := startAsking(t, featureInputUpstream(new(atomic.Int32)), "", true)
	c := h.answeringClient(t, caps{elicitForm: true, version: oldForm, noRoundTrip: true})
	other := h.answeringClient(t, caps{elicitForm: true, version: oldForm})
	c.waitPrompt(t, "a_confirm")

	read, err := c.readText(t, confirmURI)
	require.NoError(t, err)
	assert.Equal(t, heardConfirm, read)
	get, err := c.getText(t, "a_confirm")
	require.NoError(t, err)
	assert.Equal(t, heardConfirm, get)
	assert.Equal(t, int32(2), c.elicits.Load())
	assert.Zero(t, other.elicits.Load())
}

// An upstream that answers input_required on every round of a read or a
// get bridged for an older client is retried at most the gateway's cap of
// rounds (8, relay.go); the client then gets an error that says so.
func TestRelayReadAndGetInputRoundsCapped(t *testing.T) {
	const maxInputRounds = 8 // relay.go
	var asked atomic.Int32
	h := startAsking(t, featureInputUpstream(&asked), "", true)
	c := h.answeringClient(t, caps{elicitForm: true, version: oldForm, noRoundTrip: true})
	c.waitPrompt(t, "a_again")

	tests := []struct {
		name, what string
		do         func(*testing.T) (string, error)
	}{
		{"read", "read", func(t *testing.T) (string, error) { return c.readText(t, againURI) }},
		{"get", "get", func(t *testing.T) (string, error) { return c.getText(t, "a_again") }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			asked.Store(0)
			c.elicits.Store(0)
			_, err := tt.do(t)
			var je *jsonrpc.Error
			require.ErrorAs(t, err, &je)
			assert.Equal(t, int64(jsonrpc.CodeInternalError), je.Code)
			assert.Equal(t, fmt.Sprintf("server a asked for input %d times in one %s, the gateway's cap", maxInputRounds, tt.what), je.Message)
			assert.Equal(t, int32(maxInputRounds), c.elicits.Load(), "the client was asked once a round")
			assert.Equal(t, int32(maxInputRounds+1), asked.Load(), "the upstream was asked the first time and once a round")
		})
	}
}

// A client that never answers a bridged input request fails the read at
// its call_timeout; its session goes on.
func TestRelayReadInputUnansweredFailsAtItsTimeout(t *testing.T) {
	h := startAsking(t, featureInputUpstream(new(atomic.Int32)), "call_timeout = \"300ms\"\n", true)
	c := h.answeringClient(t, caps{elicitForm: true, version: oldForm, noRoundTrip: true, hold: true})
	t.Cleanup(func() { close(c.hold) }) // before its session closes, which waits for the handler
	c.waitPrompt(t, "a_confirm")
	_, err := c.readText(t, confirmURI)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "call_timeout")
	_, err = c.cs.ListPrompts(ctxFor(t), nil)
	assert.NoError(t, err)
}

// resultTypeOf is the resultType a result says, as the SDK writes it.
func resultTypeOf(t *testing.T, res mcp.Result) string {
	t.Helper()
	b, err := json.Marshal(res)
	require.NoError(t, err)
	var m struct{ ResultType string }
	require.NoError(t, json.Unmarshal(b, &m))
	return m.ResultType
}

// MCP 2026-07-28 requires every resources/read and prompts/get result to
// say resultType, as the SDK's own server does: a read or get forwarded to
// an upstream of an older version, whose result has none, reaches a
// 2026-07-28 client as "complete"; one of an older client is left as it
// came.
func TestReadAndGetResultIsCompleteForNewClient(t *testing.T) {
	s := mcp.NewServer(&mcp.Implementation{Name: "old", Version: "1"}, &mcp.ServerOptions{SupportedProtocolVersions: []string{oldForm}})
	s.AddResource(&mcp.Resource{URI: "old://r", Name: "r"}, func(context.Context, *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
		return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: "old://r", Text: "read"}}}, nil
	})
	s.AddPrompt(&mcp.Prompt{Name: "p"}, func(context.Context, *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
		return &mcp.GetPromptResult{Messages: []*mcp.PromptMessage{{Role: "user", Content: &mcp.TextContent{Text: "got"}}}}, nil
	})
	h := startAsking(t, s, "", false)
	tests := []struct {
		version, want string
	}{
		{newForm, "complete"},
		{oldForm, ""},
	}
	for _, tt := range tests {
		t.Run(tt.version, func(t *testing.T) {
			c := h.answeringClient(t, caps{version: tt.version})
			c.waitPrompt(t, "a_p")
			ctx := ctxFor(t)
			read, err := c.cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "old://r"})
			require.NoError(t, err)
			assert.Equal(t, "read", read.Contents[0].Text)
			assert.Equal(t, tt.want, resultTypeOf(t, read))
			get, err := c.cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "a_p"})
			require.NoError(t, err)
			assert.Equal(t, "got", get.Messages[0].Content.(*mcp.TextContent).Text)
			assert.Equal(t, tt.want, resultTypeOf(t, get))
		})
	}
}
