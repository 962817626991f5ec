//lint:file-ignore SA1019 MCP deprecates sampling as of 2026-07-28 (SEP-2577); clients and servers of the earlier versions gate speaks use it

package mcpgw_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The protocol versions of the two forms: the old form's server→client
// requests, and 2026-07-28's input_required results.
const (
	oldForm = "2025-11-25"
	newForm = "2026-07-28"
)

// theURL is what an upstream asks a user to open: gate passes it on as it
// is, and never fetches it (nothing listens on it).
const theURL = "https://auth.invalid/authorize?state=s1"

var confirmSchema = map[string]any{"type": "object", "properties": map[string]any{"ok": map[string]any{"type": "boolean"}}}

// askingUpstream is a Go SDK server speaking versions whose tools ask
// their client during the call, in the old form: "confirm" (a form
// elicitation), "visit" (a url one), "sample" (sampling), "sampletools"
// (sampling with tools). Each answers with what it heard back
// (heardText).
func askingUpstream(versions ...string) *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "asker", Version: "1"}, &mcp.ServerOptions{SupportedProtocolVersions: versions})
	s.AddTool(&mcp.Tool{Name: "confirm", InputSchema: objectSchema}, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		res, err := req.Session.Elicit(ctx, &mcp.ElicitParams{Message: "proceed?", RequestedSchema: confirmSchema})
		return text(heardText(res, err)), nil
	})
	s.AddTool(&mcp.Tool{Name: "visit", InputSchema: objectSchema}, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		res, err := req.Session.Elicit(ctx, &mcp.ElicitParams{Mode: "url", Message: "sign in", URL: theURL, ElicitationID: "e1"})
		if err == nil {
			// The flow at the URL is done: its client is told.
			_ = req.Session.NotifyElicitationComplete(ctx, &mcp.ElicitationCompleteParams{ElicitationID: "e1"})
		}
		return text(heardText(res, err)), nil
	})
	s.AddTool(&mcp.Tool{Name: "sample", InputSchema: objectSchema}, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		res, err := req.Session.CreateMessage(ctx, &mcp.CreateMessageParams{MaxTokens: 10, Messages: []*mcp.SamplingMessage{{Role: "user", Content: &mcp.TextContent{Text: "hi"}}}})
		return text(heardText(res, err)), nil
	})
	s.AddTool(&mcp.Tool{Name: "sampletools", InputSchema: objectSchema}, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		res, err := req.Session.CreateMessageWithTools(ctx, &mcp.CreateMessageWithToolsParams{MaxTokens: 10,
			Messages: []*mcp.SamplingMessageV2{{Role: "user", Content: []mcp.Content{&mcp.TextContent{Text: "hi"}}}},
			Tools:    []*mcp.Tool{{Name: "lookup", InputSchema: map[string]any{"type": "object"}}}})
		return text(heardText(res, err)), nil
	})
	return s
}

// heardText is what an asking tool answers: the result it heard back, as
// JSON, or "error CODE" for a JSON-RPC error.
func heardText(res any, err error) string {
	var je *jsonrpc.Error
	if errors.As(err, &je) {
		return fmt.Sprintf("error %d: %s", je.Code, je.Message)
	}
	if err != nil {
		return "error: " + err.Error()
	}
	b, _ := json.Marshal(res)
	return string(b)
}

// inputUpstream is a Go SDK server of 2026-07-28 alone (so that the SDK
// does not turn its input_required into the old form's requests) whose
// tool "confirm" answers input_required, asking a form elicitation, and
// once retried with the answer, what it heard.
func inputUpstream() *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "asker", Version: "1"}, &mcp.ServerOptions{SupportedProtocolVersions: []string{newForm}})
	s.AddTool(&mcp.Tool{Name: "confirm", InputSchema: objectSchema}, func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		if len(req.Params.InputResponses) == 0 {
			return &mcp.CallToolResult{RequestState: "state-1", InputRequests: mcp.InputRequestMap{
				"ok": &mcp.ElicitParams{Mode: "form", Message: "proceed?", RequestedSchema: confirmSchema},
			}}, nil
		}
		if req.Params.RequestState != "state-1" {
			return text("state lost: " + req.Params.RequestState), nil
		}
		return text(heardText(req.Params.InputResponses["ok"], nil)), nil
	})
	return s
}

// answering is a client of gate's, on the Go SDK, with the handlers its
// capabilities call for: each counts what it was asked and answers as
// set, and records what it saw.
type answering struct {
	cs       *mcp.ClientSession
	elicits  atomic.Int32
	samples  atomic.Int32
	mu       sync.Mutex
	seenURLs []string
	// completed hears the ids of notifications/elicitation/complete.
	completed chan string
	// hold, when set, is waited on by the elicitation handler before it
	// answers (or its context's end); entered says it was asked.
	hold    chan struct{}
	entered chan struct{}
}

type caps struct {
	elicitForm, elicitURL, sample, sampleTools bool
	version                                    string         // the protocol version it asks for; "" for the SDK's latest
	noRoundTrip                                bool           // input_required results come to the test as they are
	hold                                       bool           // its elicitation handler answers once hold is closed
	formAnswer                                 map[string]any // its answer to a form elicitation; {"ok": true} if nil
	stateless                                  bool           // at 2026-07-28: over /mcp (gate WithStateless), not in memory
	roots                                      []*mcp.Root    // roots it declares and answers with
}

func (h *harness) answeringClient(t *testing.T, c caps) *answering {
	t.Helper()
	a := &answering{completed: make(chan string, 16)}
	if c.hold {
		a.hold, a.entered = make(chan struct{}), make(chan struct{}, 16)
	}
	opts := &mcp.ClientOptions{Capabilities: &mcp.ClientCapabilities{}}
	if c.noRoundTrip {
		opts.MultiRoundTrip = &mcp.MultiRoundTripOptions{Disabled: true}
	}
	if c.elicitForm || c.elicitURL {
		e := &mcp.ElicitationCapabilities{}
		if c.elicitForm {
			e.Form = &mcp.FormElicitationCapabilities{}
		}
		if c.elicitURL {
			e.URL = &mcp.URLElicitationCapabilities{}
		}
		opts.Capabilities.Elicitation = e
		opts.ElicitationCompleteHandler = func(_ context.Context, req *mcp.ElicitationCompleteNotificationRequest) {
			a.completed <- req.Params.ElicitationID
		}
		opts.ElicitationHandler = func(ctx context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			a.elicits.Add(1)
			if a.entered != nil {
				a.entered <- struct{}{}
			}
			if a.hold != nil {
				select {
				case <-a.hold:
				case <-ctx.Done():
					return nil, ctx.Err()
				}
			}
			if req.Params.Mode == "url" {
				a.mu.Lock()
				a.seenURLs = append(a.seenURLs, req.Params.URL)
				a.mu.Unlock()
				// Content an url-mode answer must not carry: gate passes
				// on the action alone.
				return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"password": "hunter2"}}, nil
			}
			if c.formAnswer != nil {
				return &mcp.ElicitResult{Action: "accept", Content: c.formAnswer}, nil
			}
			return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"ok": true}}, nil
		}
	}
	if c.sample {
		s := &mcp.SamplingCapabilities{}
		if c.sampleTools {
			s.Tools = &mcp.SamplingToolsCapabilities{}
		}
		opts.Capabilities.Sampling = s
		opts.CreateMessageWithToolsHandler = func(context.Context, *mcp.CreateMessageWithToolsRequest) (*mcp.CreateMessageWithToolsResult, error) {
			a.samples.Add(1)
			return &mcp.CreateMessageWithToolsResult{Model: "test-model", Role: "assistant", Content: []mcp.Content{&mcp.TextContent{Text: "sampled"}}}, nil
		}
	}
	if c.roots != nil {
		opts.Capabilities.RootsV2 = &mcp.RootCapabilities{}
	}
	cl := mcp.NewClient(&mcp.Implementation{Name: "answering", Version: "1"}, opts)
	if c.roots != nil {
		cl.AddRoots(c.roots...)
	}
	// gate's streamable HTTP serves the versions before 2026-07-28; a
	// client of that version is connected to its server directly.
	var tr mcp.Transport = &mcp.StreamableClientTransport{Endpoint: h.url}
	if c.version >= newForm && c.stateless {
		tr = &mcp.StreamableClientTransport{Endpoint: h.url, MaxRetries: -1}
	} else if c.version >= newForm {
		ct, st := mcp.NewInMemoryTransports()
		ss, err := h.gw.Server().Connect(ctxFor(t), st, nil)
		require.NoError(t, err)
		t.Cleanup(func() { _ = ss.Close() })
		tr = ct
	}
	cs, err := cl.Connect(ctxFor(t), tr, &mcp.ClientSessionOptions{ProtocolVersion: c.version})
	require.NoError(t, err)
	require.Equal(t, c.version, cs.InitializeResult().ProtocolVersion)
	t.Cleanup(func() { _ = cs.Close() })
	a.cs = cs
	return a
}

// waitTool waits until a lists the tool name.
func (a *answering) waitTool(t *testing.T, name string) {
	t.Helper()
	require.Eventually(t, func() bool {
		res, err := a.cs.ListTools(ctxFor(t), nil)
		return err == nil && slices.ContainsFunc(res.Tools, func(tl *mcp.Tool) bool { return tl.Name == name })
	}, waitFor, 20*time.Millisecond, "tool %s never listed", name)
}

func (a *answering) callText(t *testing.T, name string) string {
	t.Helper()
	return a.callWith(t, name, map[string]any{})
}

func (a *answering) callWith(t *testing.T, name string, args map[string]any) string {
	t.Helper()
	res, err := a.cs.CallTool(ctxFor(t), &mcp.CallToolParams{Name: name, Arguments: args})
	require.NoError(t, err, name)
	return textOf(res)
}

// startAsking starts gate fronting upstream s over streamable HTTP, as
// server "a" (prefix "a_"); the SDK's server speaks 2026-07-28 over HTTP
// only when stateless.
func startAsking(t *testing.T, s *mcp.Server, extra string, stateless bool) *harness {
	srv := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, &mcp.StreamableHTTPOptions{Stateless: stateless}))
	t.Cleanup(func() {
		srv.CloseClientConnections()
		srv.Close()
	})
	url := srv.URL
	return start(t, fmt.Sprintf("[[servers]]\nname = \"a\"\nurl = %q\nprefix = \"a_\"\n%s", url, extra), fastConfig())
}

// An upstream's elicitation (form and url) and sampling sent during a call
// (the old form) reach the client whose call it is, through gate, and its
// answer goes back: a second client's session, able to answer them too,
// is never asked. A url-mode elicitation's URL reaches the client as the
// upstream wrote it, and the upstream hears the action alone.
func TestRelayOldFormToCallingClientOnly(t *testing.T) {
	h := startAsking(t, askingUpstream(oldForm), "", false)
	all := caps{elicitForm: true, elicitURL: true, sample: true, sampleTools: true, version: oldForm}
	caller, other := h.answeringClient(t, all), h.answeringClient(t, all)
	caller.waitTool(t, "a_confirm")

	tests := []struct {
		tool, want string
	}{
		{"a_confirm", `{"action":"accept","content":{"ok":true}}`},
		{"a_visit", `{"action":"accept"}`},
		{"a_sample", `{"content":{"type":"text","text":"sampled"},"model":"test-model","role":"assistant"}`},
		{"a_sampletools", `{"content":{"type":"text","text":"sampled"},"model":"test-model","role":"assistant"}`},
	}
	for _, tt := range tests {
		t.Run(tt.tool, func(t *testing.T) {
			assert.Equal(t, tt.want, caller.callText(t, tt.tool))
		})
	}
	assert.Equal(t, int32(2), caller.elicits.Load())
	assert.Equal(t, int32(2), caller.samples.Load())
	assert.Equal(t, []string{theURL}, caller.seenURLs)
	// The upstream's notifications/elicitation/complete goes where its
	// elicitation went.
	select {
	case id := <-caller.completed:
		assert.Equal(t, "e1", id)
	case <-ctxFor(t).Done():
		t.Fatal("the calling client was not told the url-mode elicitation completed")
	}
	assert.Zero(t, other.elicits.Load()+other.samples.Load(), "the other client's session was asked")
	assert.Empty(t, other.completed, "the other client's session was told of the completion")
}

// A request for input the calling client cannot serve is answered as the
// spec has a client answer it: -32601 for a capability it did not declare,
// -32602 for a mode of elicitation, or tools in sampling, it did not
// declare; a 2026-07-28 client's (asked with input_required, parked.go)
// by the same rules.
func TestRelayRefusedAsTheSpecSays(t *testing.T) {
	h := startAsking(t, askingUpstream(oldForm), "", false)
	tests := []struct {
		name string
		caps caps
		tool string
		code int
	}{
		{"no elicitation", caps{sample: true, version: oldForm}, "a_confirm", -32601},
		{"no sampling", caps{elicitForm: true, version: oldForm}, "a_sample", -32601},
		{"neither", caps{version: oldForm}, "a_confirm", -32601},
		{"form only, asked url", caps{elicitForm: true, version: oldForm}, "a_visit", -32602},
		{"url only, asked form", caps{elicitURL: true, version: oldForm}, "a_confirm", -32602},
		{"no tools in sampling", caps{sample: true, version: oldForm}, "a_sampletools", -32602},
		{"a 2026-07-28 client, no elicitation", caps{sample: true, version: newForm}, "a_confirm", -32601},
		{"a 2026-07-28 client, no sampling", caps{elicitForm: true, version: newForm}, "a_sample", -32601},
		{"a 2026-07-28 client, form only, asked url", caps{elicitForm: true, version: newForm}, "a_visit", -32602},
		{"a 2026-07-28 client, no tools in sampling", caps{sample: true, version: newForm}, "a_sampletools", -32602},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := h.answeringClient(t, tt.caps)
			c.waitTool(t, tt.tool)
			assert.True(t, strings.HasPrefix(c.callText(t, tt.tool), fmt.Sprintf("error %d:", tt.code)), c.callText(t, tt.tool))
			assert.Zero(t, c.elicits.Load()+c.samples.Load())
		})
	}
}

// A 2026-07-28 client gets an upstream's input_required result as it
// came, its input requests and state, and its retry with the answers
// reaches the upstream, which completes the call.
func TestRelayInputRequiredPassedToNewClient(t *testing.T) {
	h := startAsking(t, inputUpstream(), "", true)
	c := h.answeringClient(t, caps{elicitForm: true, version: newForm, noRoundTrip: true})
	c.waitTool(t, "a_confirm")
	ctx := ctxFor(t)
	res, err := c.cs.CallTool(ctx, &mcp.CallToolParams{Name: "a_confirm", Arguments: map[string]any{}})
	require.NoError(t, err)
	require.True(t, res.NeedsInput(), "%+v", res)
	assert.Equal(t, "state-1", res.RequestState)
	require.Len(t, res.InputRequests, 1)
	ep, ok := res.InputRequests["ok"].(*mcp.ElicitParams)
	require.True(t, ok, "%T", res.InputRequests["ok"])
	assert.Equal(t, "proceed?", ep.Message)

	res, err = c.cs.CallTool(ctx, &mcp.CallToolParams{Name: "a_confirm", Arguments: map[string]any{}, RequestState: res.RequestState,
		InputResponses: mcp.InputResponseMap{"ok": &mcp.ElicitResult{Action: "accept", Content: map[string]any{"ok": true}}}})
	require.NoError(t, err)
	assert.False(t, res.NeedsInput())
	assert.Equal(t, `{"action":"accept","content":{"ok":true}}`, textOf(res))
	assert.Zero(t, c.elicits.Load(), "the input requests came in the result, not as requests")
}

// A client older than 2026-07-28 calling an upstream that answers
// input_required is sent the input requests as the old form's requests,
// and gate retries the call upstream with its answers: the call completes
// with them. Another client's session is never asked.
func TestRelayInputRequiredBridgedForOldClient(t *testing.T) {
	h := startAsking(t, inputUpstream(), "", true)
	c := h.answeringClient(t, caps{elicitForm: true, version: oldForm})
	other := h.answeringClient(t, caps{elicitForm: true, version: oldForm})
	c.waitTool(t, "a_confirm")
	assert.Equal(t, `{"action":"accept","content":{"ok":true}}`, c.callText(t, "a_confirm"))
	assert.Equal(t, int32(1), c.elicits.Load())
	assert.Zero(t, other.elicits.Load())
}

// An older client that declared no elicitation, calling an upstream that
// answers input_required with one, gets the call's error, which says so;
// it is never asked.
func TestRelayInputRequiredBridgeRefusedWithoutCapability(t *testing.T) {
	h := startAsking(t, inputUpstream(), "", true)
	c := h.answeringClient(t, caps{sample: true, version: oldForm})
	c.waitTool(t, "a_confirm")
	_, err := c.cs.CallTool(ctxFor(t), &mcp.CallToolParams{Name: "a_confirm", Arguments: map[string]any{}})
	var je *jsonrpc.Error
	require.ErrorAs(t, err, &je)
	assert.Equal(t, int64(jsonrpc.CodeInternalError), je.Code)
	assert.Equal(t, "server a asked for input its client did not give: the client of the call does not offer elicitation", je.Message)
	assert.Zero(t, c.elicits.Load()+c.samples.Load())
}

// A client session has at most the gateway's cap of input requests out at
// once: one more is refused to its upstream while they are out, and once
// they are answered the calls complete.
func TestRelayInputRequestsCappedPerSession(t *testing.T) {
	const maxInputRequests = 4 // relay.go
	h := startAsking(t, askingUpstream(oldForm), "", false)
	c := h.answeringClient(t, caps{elicitForm: true, version: oldForm, hold: true})
	c.waitTool(t, "a_confirm")

	answers := make(chan string, maxInputRequests)
	for range maxInputRequests {
		go func() {
			res, err := c.cs.CallTool(ctxFor(t), &mcp.CallToolParams{Name: "a_confirm", Arguments: map[string]any{}})
			if err != nil {
				answers <- err.Error()
				return
			}
			answers <- textOf(res)
		}()
	}
	wait := ctxFor(t)
	for i := range maxInputRequests {
		select {
		case <-c.entered:
		case <-wait.Done():
			close(c.hold)
			t.Fatalf("the client was asked %d times, not %d", i, maxInputRequests)
		}
	}
	over := c.callText(t, "a_confirm")
	assert.Contains(t, over, "error -32603:")
	assert.Contains(t, over, "input requests out")
	close(c.hold)
	for range maxInputRequests {
		assert.Equal(t, `{"action":"accept","content":{"ok":true}}`, <-answers)
	}
	assert.Equal(t, int32(maxInputRequests), c.elicits.Load())
}

// A client that never answers fails only the call it was asked for, at the
// call's call_timeout; its session goes on.
func TestRelayUnansweredFailsTheCallAtItsTimeout(t *testing.T) {
	h := startAsking(t, askingUpstream(oldForm), "call_timeout = \"300ms\"\n", false)
	c := h.answeringClient(t, caps{elicitForm: true, sample: true, version: oldForm, hold: true})
	t.Cleanup(func() { close(c.hold) }) // before its session closes, which waits for the handler
	c.waitTool(t, "a_confirm")
	_, err := c.cs.CallTool(ctxFor(t), &mcp.CallToolParams{Name: "a_confirm", Arguments: map[string]any{}})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "call_timeout")
	assert.Equal(t, `{"content":{"type":"text","text":"sampled"},"model":"test-model","role":"assistant"}`, c.callText(t, "a_sample"))
}
