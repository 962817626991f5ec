package mcpgw_test

import (
	"context"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
)

// urlInputUpstream is a Go SDK server of 2026-07-28 alone whose tool
// "visit" answers input_required, asking a url-mode elicitation, and once
// retried, what it heard and the state it was sent back.
func urlInputUpstream() *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "visitor", Version: "1"}, &mcp.ServerOptions{SupportedProtocolVersions: []string{newForm}})
	s.AddTool(&mcp.Tool{Name: "visit", InputSchema: objectSchema}, func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		if req.Params.RequestState == "" {
			return &mcp.CallToolResult{RequestState: "upstream-state", InputRequests: mcp.InputRequestMap{
				"v": &mcp.ElicitParams{Mode: "url", Message: "sign in", URL: theURL},
			}}, nil
		}
		return text(heardText(req.Params.InputResponses["v"], nil) + " with " + req.Params.RequestState), nil
	})
	return s
}

// A url-mode elicitation an upstream asks in an input_required result is
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
			assert.Equal(t, `{"action":"accept"} with upstream-state`, c.callText(t, "a_visit"))
			assert.Equal(t, []string{theURL}, c.seenURLs)
		})
	}
}
