//lint:file-ignore SA1019 MCP deprecates sampling as of 2026-07-28 (SEP-2577); an answer of that kind to a url-mode elicitation is what one case sends

package mcpgw

import (
	"encoding/json"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// wrapped is the requestState gate passes on for res.
func wrapped(res *mcp.CallToolResult) string {
	return wrappedState(res.InputRequests, res.RequestState)
}

func TestUnwrapURLAnswers(t *testing.T) {
	asks := func(state string) *mcp.CallToolResult {
		return &mcp.CallToolResult{RequestState: state, InputRequests: mcp.InputRequestMap{
			"u":    &mcp.ElicitParams{Mode: "url", URL: "https://example.invalid/"},
			"form": &mcp.ElicitParams{Message: "name?"},
		}}
	}
	withPassword := &mcp.ElicitResult{Action: "accept", Content: map[string]any{"password": "hunter2"}}
	form := &mcp.ElicitResult{Action: "accept", Content: map[string]any{"name": "Ann"}}
	sampled := &mcp.CreateMessageWithToolsResult{Model: "m", Role: "assistant"}
	tests := []struct {
		name      string
		state     string
		answers   mcp.InputResponseMap
		want      mcp.InputResponseMap
		wantState string
	}{
		{"a url answer cut to its action", wrapped(asks("s1")),
			mcp.InputResponseMap{"u": withPassword, "form": form},
			mcp.InputResponseMap{"u": &mcp.ElicitResult{Action: "accept"}, "form": form}, "s1"},
		{"another kind of answer to a url request dropped", wrapped(asks("s1")),
			mcp.InputResponseMap{"u": sampled, "form": form},
			mcp.InputResponseMap{"form": form}, "s1"},
		{"an upstream state that was empty", wrapped(asks("")),
			mcp.InputResponseMap{"u": withPassword},
			mcp.InputResponseMap{"u": &mcp.ElicitResult{Action: "accept"}}, ""},
		{"a state gate did not wrap goes as it came", "s1",
			mcp.InputResponseMap{"u": withPassword},
			mcp.InputResponseMap{"u": withPassword}, "s1"},
		{"a wrapper that does not decode goes as it came", urlStatePrefix + "!!",
			mcp.InputResponseMap{"u": withPassword},
			mcp.InputResponseMap{"u": withPassword}, urlStatePrefix + "!!"},
		{"no answers", wrapped(asks("s1")), nil, nil, "s1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, state := unwrapURLAnswers(tt.answers, tt.state)
			assert.Equal(t, tt.want, got)
			assert.Equal(t, tt.wantState, state)
		})
	}
	t.Run("the client's map is left as it was", func(t *testing.T) {
		answers := mcp.InputResponseMap{"u": withPassword}
		unwrapURLAnswers(answers, wrapped(asks("s1")))
		assert.Same(t, withPassword, answers["u"])
	})
	t.Run("no url request, no wrapper", func(t *testing.T) {
		res := &mcp.CallToolResult{RequestState: "s1", InputRequests: mcp.InputRequestMap{"form": &mcp.ElicitParams{Message: "name?"}}}
		assert.Equal(t, "s1", wrapped(res))
	})
}

// FuzzUnwrapURLAnswers: whatever state a client sends back, unwrapping it
// never panics, and never adds an answer or gives back content it was
// asked to cut.
func FuzzUnwrapURLAnswers(f *testing.F) {
	f.Add(wrapped(&mcp.CallToolResult{RequestState: "s", InputRequests: mcp.InputRequestMap{"u": &mcp.ElicitParams{Mode: "url"}}}))
	f.Add(urlStatePrefix + "e30")
	f.Add("plain")
	f.Fuzz(func(t *testing.T, state string) {
		answers := mcp.InputResponseMap{"u": &mcp.ElicitResult{Action: "accept", Content: map[string]any{"k": "v"}}}
		got, _ := unwrapURLAnswers(answers, state)
		require.LessOrEqual(t, len(got), len(answers))
		if r, ok := got["u"].(*mcp.ElicitResult); ok && r.Content == nil {
			b, _ := json.Marshal(r)
			assert.JSONEq(t, `{"action":"accept"}`, string(b))
		}
	})
}
