//lint:file-ignore SA1019 MCP deprecates sampling and roots as of 2026-07-28 (SEP-2577); the older upstreams gate fronts use them

package mcpgw_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// rootsThenAskUpstream is an older (2025-11-25) Go SDK server whose tools
// "ask" and "sample" (arguments {"who": ...}) wait until two calls of them
// are in flight, ask their client's roots, then elicit a name (ask, its
// message naming who) or
// ask for a sample (sample), all in the call's context (over streamable
// HTTP, on the call's POST stream), and answer once both calls have heard
// back. Each call records in heard, under its who, what it heard: the
// roots' URIs, then the answer.
func rootsThenAskUpstream(heard *sync.Map) *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "rootsasker", Version: "1"}, &mcp.ServerOptions{SupportedProtocolVersions: []string{oldForm}})
	arrived, asked := newMeeting(2), newMeeting(2)
	paired := func(ask func(ctx context.Context, ss *mcp.ServerSession, who string) string) mcp.ToolHandler {
		return func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			var args struct {
				Who string `json:"who"`
			}
			_ = json.Unmarshal(req.Params.Arguments, &args)
			// Both calls are in flight before either asks anything.
			if err := arrived.meet(ctx); err != nil {
				return nil, err
			}
			got := rootURIs(req.Session.ListRoots(ctx, nil)) + " / " + ask(ctx, req.Session, args.Who)
			heard.Store(args.Who, got)
			// Neither call ends before both were answered.
			if err := asked.meet(ctx); err != nil {
				return nil, err
			}
			return text(got), nil
		}
	}
	s.AddTool(&mcp.Tool{Name: "ask", InputSchema: objectSchema}, paired(func(ctx context.Context, ss *mcp.ServerSession, who string) string {
		res, err := ss.Elicit(ctx, &mcp.ElicitParams{Message: "who are you, " + who + "?", RequestedSchema: nameSchema})
		if err != nil {
			return heardText(res, err)
		}
		return fmt.Sprint(res.Content["name"])
	}))
	s.AddTool(&mcp.Tool{Name: "sample", InputSchema: objectSchema}, paired(func(ctx context.Context, ss *mcp.ServerSession, _ string) string {
		res, err := ss.CreateMessage(ctx, &mcp.CreateMessageParams{MaxTokens: 10, Messages: []*mcp.SamplingMessage{{Role: "user", Content: &mcp.TextContent{Text: "hi"}}}})
		return heardText(res, err)
	}))
	return s
}

// rootURIs is the URIs of the roots an upstream heard, or the error.
func rootURIs(res *mcp.ListRootsResult, err error) string {
	if err != nil {
		return heardText(nil, err)
	}
	var uris []string
	for _, r := range res.Roots {
		uris = append(uris, r.URI)
	}
	return "[" + strings.Join(uris, " ") + "]"
}

// Two 2026-07-28 clients over /mcp without a session (each POST its own
// server session) call a tool of one older upstream over streamable HTTP
// at the same time; during each call, while both are in flight, the
// upstream asks roots/list and then elicits (or samples). Both calls are
// parked, and each request of the upstream goes to the client of the call
// whose stream it came on: each call hears its own client's roots and its
// own client's answer, each client is asked once, and nothing is refused
// as "cannot tell which client's".
func TestParkedCallsOfTwoNewClientsTiedToTheirOwn(t *testing.T) {
	const sampled = `{"content":{"type":"text","text":"sampled"},"model":"test-model","role":"assistant"}`
	tests := []struct {
		tool            string
		answer          func(who string) string
		elicits, sample int32
	}{
		{"a_ask", func(who string) string { return who }, 1, 0},
		{"a_sample", func(string) string { return sampled }, 0, 1},
	}
	for _, tt := range tests {
		t.Run(tt.tool, func(t *testing.T) {
			var heard sync.Map
			h := startAskingWith(t, "", fastConfig().WithStateless(true), rootsThenAskUpstream(&heard))
			clients := map[string]*answering{}
			for _, who := range []string{"alice", "bob"} {
				clients[who] = h.answeringClient(t, caps{elicitForm: true, sample: true, version: newForm, stateless: true,
					formAnswer: map[string]any{"name": who}, roots: []*mcp.Root{{URI: "file:///work/" + who, Name: who}}})
			}
			clients["alice"].waitTool(t, tt.tool)

			got := callBoth(t, clients, tt.tool)
			for who, a := range clients {
				want := "[file:///work/" + who + "] / " + tt.answer(who)
				assert.Equal(t, want, got[who], "%s's call answered", who)
				v, _ := heard.Load(who)
				assert.Equal(t, want, v, "the upstream's call for %s heard another's", who)
				assert.Equal(t, tt.elicits, a.elicits.Load(), "%s was asked to elicit %d times", who, a.elicits.Load())
				assert.Equal(t, tt.sample, a.samples.Load(), "%s was asked to sample %d times", who, a.samples.Load())
			}
			require.Eventually(t, func() bool { return h.gw.ParkedHeld() == 0 }, waitFor, 10*time.Millisecond, "a parked call outlived its end")
			require.Eventually(t, func() bool { return h.gw.TiedStreams("a") == 0 }, waitFor, 10*time.Millisecond, "the calls' streams are still tied")
		})
	}
}

// echoingClient is a 2026-07-28 client session of gate's (stdio's, in
// memory here) that declares roots (root) and form elicitation, and
// answers an elicitation with its message as the name, counting it in
// elicits.
func echoingClient(t *testing.T, h *harness, root *mcp.Root, elicits *atomic.Int32) *answering {
	t.Helper()
	cl := mcp.NewClient(&mcp.Implementation{Name: "echoing", Version: "1"}, &mcp.ClientOptions{
		Capabilities: &mcp.ClientCapabilities{RootsV2: &mcp.RootCapabilities{}, Elicitation: &mcp.ElicitationCapabilities{Form: &mcp.FormElicitationCapabilities{}}},
		ElicitationHandler: func(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			elicits.Add(1)
			return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"name": req.Params.Message}}, nil
		},
	})
	cl.AddRoots(root)
	ct, st := mcp.NewInMemoryTransports()
	ss, err := h.gw.Server().Connect(ctxFor(t), st, nil)
	require.NoError(t, err)
	t.Cleanup(func() { _ = ss.Close() })
	cs, err := cl.Connect(ctxFor(t), ct, &mcp.ClientSessionOptions{ProtocolVersion: newForm})
	require.NoError(t, err)
	t.Cleanup(func() { _ = cs.Close() })
	return &answering{cs: cs}
}

// One 2026-07-28 client session (stdio's, in memory here) with two calls
// of one older upstream over streamable HTTP in flight at once: each
// call's requests came on its own POST's stream, so each goes to that
// call's own input_required, and each answer to the request it answers,
// although the session has several calls parked there; none is refused.
func TestParkedCallsOfOneSessionTiedToTheirOwn(t *testing.T) {
	var heard sync.Map
	h := startAskingWith(t, "", fastConfig().WithStateless(true), rootsThenAskUpstream(&heard))
	var elicits atomic.Int32
	c := echoingClient(t, h, &mcp.Root{URI: "file:///work/one", Name: "one"}, &elicits)
	c.waitTool(t, "a_ask")

	got := callBoth(t, map[string]*answering{"x": c, "y": c}, "a_ask")
	for _, who := range []string{"x", "y"} {
		want := "[file:///work/one] / who are you, " + who + "?"
		assert.Equal(t, want, got[who], "%s's call answered", who)
		v, _ := heard.Load(who)
		assert.Equal(t, want, v, "the upstream's call for %s heard another's", who)
	}
	assert.Equal(t, int32(2), elicits.Load(), "the client was asked %d times for its two calls", elicits.Load())
	require.Eventually(t, func() bool { return h.gw.ParkedHeld() == 0 }, waitFor, 10*time.Millisecond, "a parked call outlived its end")
}

// A 2026-07-28 session's resources/read of an older upstream, while a
// call of that session is parked on the upstream, is parked on its own:
// the upstream's elicitation during the read, on the read's own stream,
// reaches the client in the read's input_required, never in the call's,
// and each goes on to its own result with its own answer.
func TestParkedCallTakesNoOtherRequestsInput(t *testing.T) {
	const askURI = "ask://old"
	s := parkingUpstream(nil)
	s.AddResource(&mcp.Resource{URI: askURI, Name: "old"}, func(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
		res, err := req.Session.Elicit(ctx, &mcp.ElicitParams{Message: "read on?", RequestedSchema: confirmSchema})
		return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: askURI, Text: heardText(res, err)}}}, nil
	})
	h := startAskingWith(t, "", fastConfig().WithStateless(true), s)
	c := h.answeringClient(t, caps{elicitForm: true, version: newForm, noRoundTrip: true})
	c.waitTool(t, "a_confirm")
	ctx := ctxFor(t)
	require.Eventually(t, func() bool {
		res, err := c.cs.ListResources(ctx, nil)
		return err == nil && len(res.Resources) == 1
	}, waitFor, 20*time.Millisecond, "resource %s never listed", askURI)

	first, err := c.cs.CallTool(ctx, &mcp.CallToolParams{Name: "a_confirm", Arguments: map[string]any{}})
	require.NoError(t, err)
	require.True(t, first.NeedsInput(), "%+v", first)
	require.Len(t, first.InputRequests, 1)

	read, err := c.cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: askURI})
	require.NoError(t, err)
	require.True(t, read.NeedsInput(), "%+v", read)
	require.Len(t, read.InputRequests, 1)
	assert.NotEqual(t, first.RequestState, read.RequestState)
	for _, ir := range read.InputRequests {
		assert.Equal(t, "read on?", ir.(*mcp.ElicitParams).Message, "the read's input_required asks the read's question")
	}

	answer := func(reqs mcp.InputRequestMap, action string) mcp.InputResponseMap {
		answers := mcp.InputResponseMap{}
		for id := range reqs {
			answers[id] = &mcp.ElicitResult{Action: action}
		}
		return answers
	}
	done, err := c.cs.CallTool(ctx, &mcp.CallToolParams{Name: "a_confirm", Arguments: map[string]any{}, RequestState: first.RequestState, InputResponses: answer(first.InputRequests, "decline")})
	require.NoError(t, err)
	assert.False(t, done.NeedsInput(), "the read's request reached the call: %+v", done.InputRequests)
	assert.Equal(t, `{"action":"decline"}`, textOf(done))
	readDone, err := c.cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: askURI, RequestState: read.RequestState, InputResponses: answer(read.InputRequests, "cancel")})
	require.NoError(t, err)
	require.False(t, readDone.NeedsInput(), "%+v", readDone)
	require.Len(t, readDone.Contents, 1)
	assert.Equal(t, `{"action":"cancel"}`, readDone.Contents[0].Text)
	assert.Zero(t, c.elicits.Load(), "the client's handler was asked")
}
