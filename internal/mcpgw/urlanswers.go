package mcpgw

import (
	"encoding/base64"
	"encoding/json"
	"maps"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// A url-mode elicitation's answer goes to its upstream as the client's
// action alone (relay.go): what the user gives goes to the URL's site,
// never through gate. A 2026-07-28 client answers an upstream's
// input_required in its retry's inputResponses, which gate forwards to
// the upstream; nothing in the retry says which of them answered a
// url-mode request, and gate keeps nothing between the rounds (the
// client may retry through another gate process). So when the
// input_required it passes on asks for a url-mode elicitation, gate
// wraps the upstream's requestState, which the client must echo as it
// is, in a state of its own naming those requests; on the retry it
// unwraps it, forwards the upstream's own state, and passes on only the
// action of those requests' answers (another kind of answer to one of
// them is dropped).
//
// The wrapper is not sealed: a client that alters it changes only what
// gate strips of that client's own answers, and an upstream whose state
// looks like one only what gate forwards to that upstream.

// urlStatePrefix begins a requestState gate wrapped.
const urlStatePrefix = "gate-url-elicitations:"

// urlState is what a wrapped requestState holds, base64url-encoded JSON
// after urlStatePrefix.
type urlState struct {
	URL   []string `json:"url"`             // the ids of the url-mode elicitations asked
	State string   `json:"state,omitempty"` // the upstream's requestState
}

// wrappedState is an input_required result's requestState, wrapped when
// its requests (reqs) ask for a url-mode elicitation.
func wrappedState(reqs mcp.InputRequestMap, state string) string {
	var ids []string
	for id, ir := range reqs {
		if p, ok := ir.(*mcp.ElicitParams); ok && p.Mode == "url" {
			ids = append(ids, id)
		}
	}
	if len(ids) == 0 {
		return state
	}
	b, _ := json.Marshal(urlState{URL: ids, State: state})
	return urlStatePrefix + base64.RawURLEncoding.EncodeToString(b)
}

// unwrapURLAnswers is what a retry forwards upstream: its answers, those
// to the url-mode elicitations a wrapped state names cut to their action,
// and the upstream's own state. A state gate did not wrap goes as it came.
func unwrapURLAnswers(answers mcp.InputResponseMap, state string) (mcp.InputResponseMap, string) {
	rest, ok := strings.CutPrefix(state, urlStatePrefix)
	if !ok {
		return answers, state
	}
	b, err := base64.RawURLEncoding.DecodeString(rest)
	var us urlState
	if err != nil || json.Unmarshal(b, &us) != nil {
		return answers, state
	}
	answers = maps.Clone(answers)
	for _, id := range us.URL {
		answer, ok := answers[id]
		if !ok {
			continue
		}
		if r, ok := answer.(*mcp.ElicitResult); ok {
			answers[id] = &mcp.ElicitResult{Action: r.Action}
		} else {
			delete(answers, id)
		}
	}
	return answers, us.State
}
