//lint:file-ignore SA1019 MCP deprecates sampling as of 2026-07-28 (SEP-2577); clients and servers of the earlier versions gate speaks use it

package mcpgw_test

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func init() {
	// "paired" is pairedUpstream over stdio, asking in each call's context.
	rawModes["paired"] = func() {
		_ = pairedUpstream(nil, false).Run(context.Background(), &mcp.StdioTransport{})
	}
}

var nameSchema = map[string]any{"type": "object", "properties": map[string]any{"name": map[string]any{"type": "string"}}}

// pairedUpstream is a Go SDK server of the old form whose tools "ask"
// and "sample" (arguments {"who": ...}) wait until two calls of them are
// in flight, elicit a name (ask) or ask for a sample, and answer once both
// calls have heard back. It elicits
// in the call's context (over streamable HTTP, on the call's POST
// stream), or, when standalone, in none (on the GET stream). Each call
// answers, and records in heard (when not nil) under its who, what it
// heard back.
func pairedUpstream(heard *sync.Map, standalone bool) *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "paired", Version: "1"}, &mcp.ServerOptions{SupportedProtocolVersions: []string{oldForm}})
	arrived, asked := newMeeting(2), newMeeting(2)
	paired := func(ask func(context.Context, *mcp.ServerSession) string) mcp.ToolHandler {
		return func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			var args struct {
				Who string `json:"who"`
			}
			_ = json.Unmarshal(req.Params.Arguments, &args)
			if err := arrived.meet(ctx); err != nil {
				return nil, err
			}
			ectx := ctx
			if standalone {
				// A context of no request: the SDK sends the request on
				// the session's standalone stream.
				var cancel context.CancelFunc
				ectx, cancel = context.WithTimeout(context.Background(), waitFor)
				defer cancel()
			}
			got := ask(ectx, req.Session)
			if heard != nil {
				heard.Store(args.Who, got)
			}
			// Neither call ends before both were answered: each request
			// is handled while both calls are in flight.
			if err := asked.meet(ctx); err != nil {
				return nil, err
			}
			return text(got), nil
		}
	}
	s.AddTool(&mcp.Tool{Name: "ask", InputSchema: objectSchema}, paired(func(ctx context.Context, ss *mcp.ServerSession) string {
		res, err := ss.Elicit(ctx, &mcp.ElicitParams{Message: "who are you?", RequestedSchema: nameSchema})
		if err != nil {
			return heardText(res, err)
		}
		return fmt.Sprint(res.Content["name"])
	}))
	s.AddTool(&mcp.Tool{Name: "sample", InputSchema: objectSchema}, paired(func(ctx context.Context, ss *mcp.ServerSession) string {
		res, err := ss.CreateMessage(ctx, &mcp.CreateMessageParams{MaxTokens: 10, Messages: []*mcp.SamplingMessage{{Role: "user", Content: &mcp.TextContent{Text: "hi"}}}})
		return heardText(res, err)
	}))
	return s
}

// meeting lets n callers of meet on until all n have come.
type meeting struct {
	mu   sync.Mutex
	left int
	all  chan struct{}
}

func newMeeting(n int) *meeting { return &meeting{left: n, all: make(chan struct{})} }

func (m *meeting) meet(ctx context.Context) error {
	m.mu.Lock()
	if m.left--; m.left == 0 {
		close(m.all)
	}
	m.mu.Unlock()
	select {
	case <-m.all:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// callBoth calls tool from each client at once, as who, and returns what
// each call answered.
func callBoth(t *testing.T, clients map[string]*answering, tool string) map[string]string {
	t.Helper()
	var mu sync.Mutex
	out := map[string]string{}
	var wg sync.WaitGroup
	for who, a := range clients {
		wg.Go(func() {
			res, err := a.cs.CallTool(ctxFor(t), &mcp.CallToolParams{Name: tool, Arguments: map[string]any{"who": who}})
			got := "error: " + fmt.Sprint(err)
			if err == nil {
				got = textOf(res)
			}
			mu.Lock()
			out[who] = got
			mu.Unlock()
		})
	}
	wg.Wait()
	return out
}

func namedClients(t *testing.T, h *harness) map[string]*answering {
	clients := map[string]*answering{}
	for _, who := range []string{"alice", "bob"} {
		clients[who] = h.answeringClient(t, caps{elicitForm: true, sample: true, version: oldForm, formAnswer: map[string]any{"name": who}})
	}
	clients["alice"].waitTool(t, "a_ask")
	return clients
}

// Over streamable HTTP, an upstream's elicitation on the event stream of
// a call's POST goes to that call's client, even while another client's
// call is in flight on the same upstream: each client is asked once, and
// each answer reaches the call it was asked for (checked at the
// upstream). The streams' ties end with them.
func TestRelayTiedToTheCallOfItsStream(t *testing.T) {
	var heard sync.Map
	h := startAsking(t, pairedUpstream(&heard, false), "", false)
	clients := namedClients(t, h)

	got := callBoth(t, clients, "a_ask")
	assert.Equal(t, map[string]string{"alice": "alice", "bob": "bob"}, got)
	for _, who := range []string{"alice", "bob"} {
		v, _ := heard.Load(who)
		assert.Equal(t, who, v, "the upstream's call for %s heard another answer", who)
		assert.Equal(t, int32(1), clients[who].elicits.Load(), "%s was asked %d times", who, clients[who].elicits.Load())
	}
	require.Eventually(t, func() bool { return h.gw.TiedStreams("a") == 0 }, waitFor, 10*time.Millisecond, "the calls' streams are still tied")
}

// So is its sampling request: each client is asked once, for its own call.
func TestRelaySamplingTiedToTheCallOfItsStream(t *testing.T) {
	h := startAsking(t, pairedUpstream(nil, false), "", false)
	clients := namedClients(t, h)

	const sampled = `{"content":{"type":"text","text":"sampled"},"model":"test-model","role":"assistant"}`
	assert.Equal(t, map[string]string{"alice": sampled, "bob": sampled}, callBoth(t, clients, "a_sample"))
	for who, a := range clients {
		assert.Equal(t, int32(1), a.samples.Load(), "%s was asked %d times", who, a.samples.Load())
	}
}

// A request for input that comes on the upstream's standalone GET stream
// is tied to no call: with two clients' calls in flight on the upstream,
// gate cannot tell whose it is, and refuses it; neither client is asked.
func TestRelayOnTheStandaloneStreamRefusedAmongSessions(t *testing.T) {
	var heard sync.Map
	h := startAsking(t, pairedUpstream(&heard, true), "", false)
	clients := namedClients(t, h)

	for who, res := range callBoth(t, clients, "a_ask") {
		assert.Contains(t, res, "error -32603: gate cannot tell which client's request", who)
		assert.Zero(t, clients[who].elicits.Load(), "%s was asked", who)
	}
}

// A stdio upstream's requests come on its one pipe, tied to no call: as
// before, with two clients' calls in flight it is refused, and neither
// client is asked.
func TestRelayOverStdioRefusedAmongSessions(t *testing.T) {
	h := start(t, "[[servers]]\nname = \"a\"\nprefix = \"a_\"\n"+stdioCommand("paired", ""), fastConfig())
	clients := namedClients(t, h)

	for who, res := range callBoth(t, clients, "a_ask") {
		assert.Contains(t, res, "error -32603: gate cannot tell which client's request", who)
		assert.Zero(t, clients[who].elicits.Load(), "%s was asked", who)
	}
}
