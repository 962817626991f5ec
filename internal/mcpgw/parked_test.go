//lint:file-ignore SA1019 MCP deprecates sampling and roots as of 2026-07-28 (SEP-2577); the older upstreams gate fronts use them

package mcpgw_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/gate-dev/gate/internal/mcpgw"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// theRoot is the root a 2026-07-28 client declares and answers with.
var theRoot = &mcp.Root{URI: "file:///work/project", Name: "project"}

// parkingUpstream is askingUpstream (the old form) with two tools more:
// "roots" asks its client's roots; "twice" asks a form elicitation and
// then sampling, two rounds; "loop" asks until it is refused; and heard, when not nil, hears what each
// tool heard back, which a call that ended never returns.
func parkingUpstream(heard chan<- string) *mcp.Server {
	s := askingUpstream(oldForm)
	tell := func(what string) *mcp.CallToolResult {
		if heard != nil {
			heard <- what
		}
		return text(what)
	}
	s.AddTool(&mcp.Tool{Name: "roots", InputSchema: objectSchema}, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		res, err := req.Session.ListRoots(ctx, nil)
		return tell(heardText(res, err)), nil
	})
	s.AddTool(&mcp.Tool{Name: "twice", InputSchema: objectSchema}, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		first, err := req.Session.Elicit(ctx, &mcp.ElicitParams{Message: "proceed?", RequestedSchema: confirmSchema})
		if err != nil {
			return tell(heardText(first, err)), nil
		}
		second, err := req.Session.CreateMessage(ctx, &mcp.CreateMessageParams{MaxTokens: 10, Messages: []*mcp.SamplingMessage{{Role: "user", Content: &mcp.TextContent{Text: "hi"}}}})
		return tell(heardText(first, nil) + " then " + heardText(second, err)), nil
	})
	s.AddTool(&mcp.Tool{Name: "loop", InputSchema: objectSchema}, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		for {
			if _, err := req.Session.Elicit(ctx, &mcp.ElicitParams{Message: "again?", RequestedSchema: confirmSchema}); err != nil {
				return tell(heardText(nil, err)), nil
			}
		}
	})
	s.AddTool(&mcp.Tool{Name: "confirmheard", InputSchema: objectSchema}, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		res, err := req.Session.Elicit(ctx, &mcp.ElicitParams{Message: "proceed?", RequestedSchema: confirmSchema})
		return tell(heardText(res, err)), nil
	})
	return s
}

// startParking starts gate, serving 2026-07-28 on /mcp, in front of
// parkingUpstream as server "a" (the old form: a session of its own over
// streamable HTTP), with extra in its [[servers]] entry.
func startParking(t *testing.T, heard chan<- string, extra string) *harness {
	return startAskingWith(t, extra, fastConfig().WithStateless(true), parkingUpstream(heard))
}

// startAskingWith starts gate, with cfg, in front of each of servers
// over streamable HTTP, each a session of its own (the old form): the
// first as server "a" (prefix "a_"), the next "b", with extra in each
// entry.
func startAskingWith(t *testing.T, extra string, cfg mcpgw.Config, servers ...*mcp.Server) *harness {
	var manifest strings.Builder
	for i, s := range servers {
		srv := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, nil))
		t.Cleanup(func() {
			srv.CloseClientConnections()
			srv.Close()
		})
		name := string(rune('a' + i))
		fmt.Fprintf(&manifest, "[[servers]]\nname = %q\nurl = %q\nprefix = \"%s_\"\n%s", name, srv.URL, name, extra)
	}
	return start(t, manifest.String(), cfg)
}

// An older upstream's requests for input during a call of a 2026-07-28
// client (form and url elicitation, sampling with and without tools,
// roots, and two of them in one call) reach that client as input_required
// results, which the Go SDK's client answers and retries by itself, and
// its answers reach the upstream: over /mcp without a session and over a
// session of 2026-07-28 (stdio's, in memory here). Another 2026-07-28
// client and an older session, able to answer the same, are never asked,
// and the roots the upstream hears are the caller's alone, not the
// union of the sessions' roots.
func TestParkedOldFormReachesNewClient(t *testing.T) {
	h := startParking(t, nil, "")
	all := caps{elicitForm: true, elicitURL: true, sample: true, sampleTools: true, version: newForm, roots: []*mcp.Root{theRoot}}
	// The bystanders' roots are elsewhere: the older session's make the
	// union gate answers other roots/list with.
	otherNew := all
	otherNew.stateless, otherNew.roots = true, []*mcp.Root{{URI: "file:///elsewhere", Name: "elsewhere"}}
	otherOld := otherNew
	otherOld.version = oldForm
	bystanders := []*answering{h.answeringClient(t, otherNew), h.answeringClient(t, otherOld)}

	sampled := `{"content":{"type":"text","text":"sampled"},"model":"test-model","role":"assistant"}`
	tests := []struct {
		tool, want string
	}{
		{"a_confirm", `{"action":"accept","content":{"ok":true}}`},
		{"a_visit", `{"action":"accept"}`},
		{"a_sample", sampled},
		{"a_sampletools", sampled},
		{"a_roots", `{"roots":[{"name":"project","uri":"file:///work/project"}]}`},
		{"a_twice", `{"action":"accept","content":{"ok":true}} then ` + sampled},
	}
	for _, stateless := range []bool{true, false} {
		t.Run(fmt.Sprintf("stateless=%v", stateless), func(t *testing.T) {
			c := all
			c.stateless = stateless
			caller := h.answeringClient(t, c)
			caller.waitTool(t, "a_confirm")
			for _, tt := range tests {
				t.Run(tt.tool, func(t *testing.T) {
					assert.Equal(t, tt.want, caller.callText(t, tt.tool))
				})
			}
			assert.Equal(t, int32(3), caller.elicits.Load())
			assert.Equal(t, int32(3), caller.samples.Load())
			assert.Equal(t, []string{theURL}, caller.seenURLs)
		})
	}
	for _, b := range bystanders {
		assert.Zero(t, b.elicits.Load()+b.samples.Load(), "a client whose call it was not was asked")
	}
	assert.Zero(t, h.gw.ParkedHeld(), "a parked call outlived its end")
}

// A 2026-07-28 client's retry whose requestState gate does not hold
// (forged, or of a call that ended) or that names a call of another tool
// is refused -32602, with a message that echoes nothing the client sent;
// the parked call goes on, and the right retry completes it.
func TestParkedRequestStateRefused(t *testing.T) {
	h := startParking(t, nil, "")
	c := h.answeringClient(t, caps{elicitForm: true, sample: true, version: newForm, stateless: true, noRoundTrip: true})
	c.waitTool(t, "a_confirm")
	ctx := ctxFor(t)
	first, err := c.cs.CallTool(ctx, &mcp.CallToolParams{Name: "a_confirm", Arguments: map[string]any{}})
	require.NoError(t, err)
	require.True(t, first.NeedsInput(), "%+v", first)
	require.Len(t, first.InputRequests, 1)
	assert.GreaterOrEqual(t, len(first.RequestState), 22, "a requestState of fewer than 128 random bits")
	var id string
	for k, ir := range first.InputRequests {
		id = k
		ep, ok := ir.(*mcp.ElicitParams)
		require.True(t, ok, "%T", ir)
		assert.Equal(t, "proceed?", ep.Message)
	}
	answer := mcp.InputResponseMap{id: &mcp.ElicitResult{Action: "accept", Content: map[string]any{"ok": true}}}

	const forged = "forged-state-<script>"
	tests := []struct {
		name, tool, state, want string
	}{
		{"forged", "a_confirm", forged, "names no call this gate process holds"},
		{"another tool", "a_sample", first.RequestState, "names a call of another tool"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := c.cs.CallTool(ctx, &mcp.CallToolParams{Name: tt.tool, Arguments: map[string]any{}, RequestState: tt.state, InputResponses: answer})
			var je *jsonrpc.Error
			require.ErrorAs(t, err, &je)
			assert.Equal(t, int64(jsonrpc.CodeInvalidParams), je.Code)
			assert.Contains(t, je.Message, tt.want)
			assert.NotContains(t, je.Message, "forged")
			assert.NotContains(t, je.Message, first.RequestState)
		})
	}
	res, err := c.cs.CallTool(ctx, &mcp.CallToolParams{Name: "a_confirm", Arguments: map[string]any{}, RequestState: first.RequestState, InputResponses: answer})
	require.NoError(t, err)
	assert.False(t, res.NeedsInput())
	assert.Equal(t, `{"action":"accept","content":{"ok":true}}`, textOf(res))

	// Its state ended with the call.
	_, err = c.cs.CallTool(ctx, &mcp.CallToolParams{Name: "a_confirm", Arguments: map[string]any{}, RequestState: first.RequestState, InputResponses: answer})
	var je *jsonrpc.Error
	require.ErrorAs(t, err, &je)
	assert.Contains(t, je.Message, "another gate process holds it")
}

// A 2026-07-28 client that is asked for input and never retries holds
// its parked call only until the call's call_timeout: then the upstream's
// request is answered with an error, the slot is free, and the state names
// nothing.
func TestParkedNeverRetriedEndsAtTheDeadline(t *testing.T) {
	heard := make(chan string, 1)
	h := startParking(t, heard, "call_timeout = \"300ms\"\n")
	c := h.answeringClient(t, caps{elicitForm: true, version: newForm, stateless: true, noRoundTrip: true})
	c.waitTool(t, "a_confirmheard")
	ctx := ctxFor(t)
	first, err := c.cs.CallTool(ctx, &mcp.CallToolParams{Name: "a_confirmheard", Arguments: map[string]any{}})
	require.NoError(t, err)
	require.True(t, first.NeedsInput())
	assert.Equal(t, 1, h.gw.ParkedHeld())
	select {
	case got := <-heard:
		// Gate's answer, or the call's cancellation, which gate sends the
		// upstream at the same deadline and may reach its handler first.
		assert.Contains(t, []string{"error -32603: the call ended before its client answered elicitation/create", "error: context canceled"}, got)
	case <-ctx.Done():
		t.Fatal("the upstream's request was never answered")
	}
	require.Eventually(t, func() bool { return h.gw.ParkedHeld() == 0 }, waitFor, 10*time.Millisecond)
	_, err = c.cs.CallTool(ctx, &mcp.CallToolParams{Name: "a_confirmheard", Arguments: map[string]any{}, RequestState: first.RequestState,
		InputResponses: mcp.InputResponseMap{"1": &mcp.ElicitResult{Action: "accept"}}})
	var je *jsonrpc.Error
	require.ErrorAs(t, err, &je)
	assert.Equal(t, int64(jsonrpc.CodeInvalidParams), je.Code)
}

// Parked calls are bounded in the process: past the cap, an upstream's
// request for input during a 2026-07-28 client's call is answered with an
// error that says so, and the call goes on to its result; once a parked
// call ends its slot serves the next.
func TestParkedCallsCapped(t *testing.T) {
	defer mcpgw.SetParkedCaps(1, 1)()
	h := startAskingWith(t, "", fastConfig().WithStateless(true), parkingUpstream(nil), parkingUpstream(nil))
	c := h.answeringClient(t, caps{elicitForm: true, version: newForm, stateless: true, noRoundTrip: true})
	c.waitTool(t, "a_confirm")
	c.waitTool(t, "b_confirm")
	ctx := ctxFor(t)
	first, err := c.cs.CallTool(ctx, &mcp.CallToolParams{Name: "a_confirm", Arguments: map[string]any{}})
	require.NoError(t, err)
	require.True(t, first.NeedsInput())
	over, err := c.cs.CallTool(ctx, &mcp.CallToolParams{Name: "b_confirm", Arguments: map[string]any{}})
	require.NoError(t, err)
	require.False(t, over.NeedsInput())
	assert.Equal(t, "error -32603: gate holds as many calls waiting for a 2026-07-28 client's input as it keeps (1, 1 for server b): the request was not relayed", textOf(over))

	var id string
	for k := range first.InputRequests {
		id = k
	}
	done, err := c.cs.CallTool(ctx, &mcp.CallToolParams{Name: "a_confirm", Arguments: map[string]any{}, RequestState: first.RequestState,
		InputResponses: mcp.InputResponseMap{id: &mcp.ElicitResult{Action: "decline"}}})
	require.NoError(t, err)
	assert.Equal(t, `{"action":"decline"}`, textOf(done))
	next, err := c.cs.CallTool(ctx, &mcp.CallToolParams{Name: "b_confirm", Arguments: map[string]any{}})
	require.NoError(t, err)
	assert.True(t, next.NeedsInput(), "the slot the first call held was not freed: %s", textOf(next))
}

// An upstream that asks a 2026-07-28 client for input again and again
// fails the call after the gateway's cap of rounds: the client is asked
// that many times, no more, and the upstream's waiting request ends.
func TestParkedRoundsCapped(t *testing.T) {
	const maxInputRounds = 8 // relay.go
	heard := make(chan string, 1)
	h := startParking(t, heard, "")
	c := h.answeringClient(t, caps{elicitForm: true, version: newForm, stateless: true})
	c.waitTool(t, "a_loop")
	_, err := c.cs.CallTool(ctxFor(t), &mcp.CallToolParams{Name: "a_loop", Arguments: map[string]any{}})
	var je *jsonrpc.Error
	require.ErrorAs(t, err, &je)
	assert.Equal(t, "server a asked for input 8 times in one call, the gateway's cap", je.Message)
	assert.Equal(t, int32(maxInputRounds), c.elicits.Load())
	select {
	case got := <-heard:
		assert.True(t, strings.HasPrefix(got, "error"), got)
	case <-ctxFor(t).Done():
		t.Fatal("the upstream's last request was never answered")
	}
	require.Eventually(t, func() bool { return h.gw.ParkedHeld() == 0 }, waitFor, 10*time.Millisecond)
}

// A panic while gate handles an older upstream's request for a 2026-07-28
// client's input fails that call, and that upstream's session (as any
// panic on an upstream's data does); the process, the other upstream's
// parked calls and the client go on, and no parked slot is left held.
func TestParkedPanicFailsThatCallOnly(t *testing.T) {
	armPanic(t, "a", "input", true)
	h := startAskingWith(t, "", fastConfig().WithStateless(true), parkingUpstream(nil), parkingUpstream(nil))
	c := h.answeringClient(t, caps{elicitForm: true, version: newForm, stateless: true})
	c.waitTool(t, "b_confirm")
	c.waitTool(t, "a_confirm")
	res, err := c.cs.CallTool(ctxFor(t), &mcp.CallToolParams{Name: "a_confirm", Arguments: map[string]any{}})
	if err == nil {
		assert.NotEqual(t, `{"action":"accept","content":{"ok":true}}`, textOf(res))
	}
	assert.Zero(t, c.elicits.Load(), "the client was asked what gate failed on")
	assert.Equal(t, `{"action":"accept","content":{"ok":true}}`, c.callText(t, "b_confirm"))
	require.Eventually(t, func() bool { return h.gw.ParkedHeld() == 0 }, waitFor, 10*time.Millisecond)
}

// gate's shutdown ends a parked call, which no session holds: the
// upstream's waiting request is answered with an error and the slot is
// free, before the call's deadline.
func TestParkedEndsAtShutdown(t *testing.T) {
	heard := make(chan string, 1)
	h := startParking(t, heard, "call_timeout = \"1h\"\n")
	c := h.answeringClient(t, caps{elicitForm: true, version: newForm, stateless: true, noRoundTrip: true})
	c.waitTool(t, "a_confirmheard")
	first, err := c.cs.CallTool(ctxFor(t), &mcp.CallToolParams{Name: "a_confirmheard", Arguments: map[string]any{}})
	require.NoError(t, err)
	require.True(t, first.NeedsInput())
	h.gw.Shutdown()
	select {
	case got := <-heard:
		assert.True(t, strings.HasPrefix(got, "error"), got)
	case <-ctxFor(t).Done():
		t.Fatal("the parked call outlived gate's shutdown")
	}
	require.Eventually(t, func() bool { return h.gw.ParkedHeld() == 0 }, waitFor, 10*time.Millisecond)
}
