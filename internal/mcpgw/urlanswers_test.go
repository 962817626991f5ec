package mcpgw_test

import (
	"context"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// urlInputUpstream is a Go SDK server of 2026-07-28 alone whose tool
// "visit" answers input_required, asking a url-mode elicitation, and once
// retried, what it heard and the state it was sent back.
func urlInputUpstream() *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "visitor", Version: "1"}, &mcp.ServerOptions{SupportedProtocolVersions: []string{newForm}})
	s.AddTool(&mcp.Tool{Name: "visit", InputSchema: objectSchema}, func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		if req.Params.RequestState == "" {
			return &mcp.CallToolResult{RequestState: "upstream-state", InputRequests: visitAsk()}, nil
		}
		return text(heardText(req.Params.InputResponses["v"], nil) + " with " + req.Params.RequestState), nil
	})
	s.AddResource(&mcp.Resource{URI: visitURI, Name: "visit"}, func(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
		if req.Params.RequestState == "" {
			return &mcp.ReadResourceResult{RequestState: "upstream-state", InputRequests: visitAsk()}, nil
		}
		return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: visitURI, Text: heardText(req.Params.InputResponses["v"], nil) + " with " + req.Params.RequestState}}}, nil
	})
	s.AddPrompt(&mcp.Prompt{Name: "visit"}, func(_ context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
		if req.Params.RequestState == "" {
			return &mcp.GetPromptResult{RequestState: "upstream-state", InputRequests: visitAsk()}, nil
		}
		return &mcp.GetPromptResult{Messages: []*mcp.PromptMessage{{Role: "user", Content: &mcp.TextContent{Text: heardText(req.Params.InputResponses["v"], nil) + " with " + req.Params.RequestState}}}}, nil
	})
	return s
}

// visitURI is urlInputUpstream's resource that asks as its tool does.
const visitURI = "visit://sign-in"

// visitAsk is urlInputUpstream's url-mode input request.
func visitAsk() mcp.InputRequestMap {
	return mcp.InputRequestMap{"v": &mcp.ElicitParams{Mode: "url", Message: "sign in", URL: theURL}}
}

// A url-mode elicitation an upstream asks in an input_required result (of
// tools/call, resources/read or prompts/get) is
// answered to it with the client's action alone, the client's content
// left out, whichever the client's version: for a 2026-07-28 client, which
// retries the call itself, gate cuts its answer on the retry, and the
// upstream gets its own requestState back. (The client's handler answers
// a url-mode elicitation with a password.)
func TestURLModeInputAnswerIsActionAlone(t *testing.T) {
	h := startAsking(t, urlInputUpstream(), "", true)
	for _, version := range []string{oldForm, newForm} {
		t.Run(version, func(t *testing.T) {
			c := h.answeringClient(t, caps{elicitURL: true, version: version})
			c.waitTool(t, "a_visit")
			const want = `{"action":"accept"} with upstream-state`
			assert.Equal(t, want, c.callText(t, "a_visit"))
			// A read and a prompt's get that ask the same are cut the same.
			c.waitPrompt(t, "a_visit")
			got, err := c.readText(t, visitURI)
			require.NoError(t, err)
			assert.Equal(t, want, got, "the read")
			got, err = c.getText(t, "a_visit")
			require.NoError(t, err)
			assert.Equal(t, want, got, "the get")
			assert.Equal(t, []string{theURL, theURL, theURL}, c.seenURLs)
		})
	}
}
