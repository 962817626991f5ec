package mcpgw_test

import (
	"context"
	"fmt"
	goruntime "runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gate-dev/gate/internal/mcpgw"
	"github.com/gate-dev/gate/runtime"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// featureUpstream is a Go SDK server with resources, a resource
// template, a prompt, completions and subscriptions, and what it was
// asked to subscribe and unsubscribe.
type featureUpstream struct {
	s   *mcp.Server
	tag string // in every text it answers, to tell two servers apart

	mu            sync.Mutex
	subs, unsubs  map[string]int
	subscribedNow map[string]bool
}

const (
	docA    = "file:///docs/a.txt"
	docB    = "file:///docs/b.txt"
	docTmpl = "file:///docs/{name}.md"
)

func newFeatureUpstream(tag string) *featureUpstream {
	f := &featureUpstream{tag: tag, subs: map[string]int{}, unsubs: map[string]int{}, subscribedNow: map[string]bool{}}
	f.s = mcp.NewServer(&mcp.Implementation{Name: "features-" + tag, Version: "1"}, &mcp.ServerOptions{
		SubscribeHandler: func(_ context.Context, r *mcp.SubscribeRequest) error {
			f.mu.Lock()
			defer f.mu.Unlock()
			f.subs[r.Params.URI]++
			f.subscribedNow[r.Params.URI] = true
			return nil
		},
		UnsubscribeHandler: func(_ context.Context, r *mcp.UnsubscribeRequest) error {
			f.mu.Lock()
			defer f.mu.Unlock()
			f.unsubs[r.Params.URI]++
			delete(f.subscribedNow, r.Params.URI)
			return nil
		},
		CompletionHandler: func(_ context.Context, r *mcp.CompleteRequest) (*mcp.CompleteResult, error) {
			var vals []string
			for _, v := range []string{"alice", "albert", "bob"} {
				if strings.HasPrefix(v, r.Params.Argument.Value) {
					vals = append(vals, v+"-"+tag+"-"+r.Params.Ref.Type+"-"+r.Params.Ref.Name+r.Params.Ref.URI)
				}
			}
			return &mcp.CompleteResult{Completion: mcp.CompletionResultDetails{Values: vals, Total: len(vals)}}, nil
		},
	})
	read := func(_ context.Context, r *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
		return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: r.Params.URI, MIMEType: "text/plain", Text: tag + " reads " + r.Params.URI}}}, nil
	}
	f.s.AddResource(&mcp.Resource{URI: docA, Name: "a", Description: "Doc a.", MIMEType: "text/plain"}, read)
	f.s.AddResource(&mcp.Resource{URI: docB, Name: "b", MIMEType: "text/plain"}, read)
	f.s.AddResourceTemplate(&mcp.ResourceTemplate{URITemplate: docTmpl, Name: "md", MIMEType: "text/markdown"}, read)
	f.s.AddPrompt(&mcp.Prompt{Name: "greet", Description: "Greets.", Arguments: []*mcp.PromptArgument{{Name: "who", Required: true}}},
		func(_ context.Context, r *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
			return &mcp.GetPromptResult{Description: "a greeting", Messages: []*mcp.PromptMessage{{Role: "user", Content: &mcp.TextContent{Text: tag + " says hello to " + r.Params.Arguments["who"]}}}}, nil
		})
	return f
}

func (f *featureUpstream) counts(uri string) (subs, unsubs int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.subs[uri], f.unsubs[uri]
}

// featureClient is a client session through gate that counts the
// list_changed of resources and prompts, and keeps the URIs updated.
type featureClient struct {
	cs                *mcp.ClientSession
	resources, prompt chan struct{}
	updated           chan string
}

// featureClient connects a client and waits for its standalone stream:
// what a session hears outside a call's answer (a list_changed, an update
// of a resource it subscribed to) goes there, and is lost while it is not
// open. The SDK opens it after the session starts, on its own time; a
// loaded machine let a test subscribe and make an update before it had.
func (h *harness) featureClient() *featureClient {
	h.t.Helper()
	before := h.gw.StandaloneStreams()
	fc := connectFeatureClient(h.t, &mcp.StreamableClientTransport{Endpoint: h.url})
	require.Eventually(h.t, func() bool { return h.gw.StandaloneStreams() > before }, waitFor, 5*time.Millisecond, "the client's standalone stream")
	return fc
}

func connectFeatureClient(t *testing.T, tr mcp.Transport) *featureClient {
	t.Helper()
	fc := &featureClient{resources: make(chan struct{}, 100), prompt: make(chan struct{}, 100), updated: make(chan string, 1000)}
	cl := mcp.NewClient(&mcp.Implementation{Name: "features", Version: "1"}, &mcp.ClientOptions{
		ResourceListChangedHandler: func(context.Context, *mcp.ResourceListChangedRequest) { fc.resources <- struct{}{} },
		PromptListChangedHandler:   func(context.Context, *mcp.PromptListChangedRequest) { fc.prompt <- struct{}{} },
		ResourceUpdatedHandler: func(_ context.Context, r *mcp.ResourceUpdatedNotificationRequest) {
			select {
			case fc.updated <- r.Params.URI:
			default:
			}
		},
	})
	ctx, cancel := context.WithTimeout(context.Background(), waitFor)
	defer cancel()
	cs, err := cl.Connect(ctx, tr, nil)
	require.NoError(t, err)
	t.Cleanup(func() { _ = cs.Close() })
	fc.cs = cs
	return fc
}

func ctxFor(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 2*waitFor)
	t.Cleanup(cancel)
	return ctx
}

// all lists every page of one list.
func all[T any](t *testing.T, page func(ctx context.Context, cursor string) ([]T, string, error)) []T {
	t.Helper()
	var out []T
	cursor := ""
	for range 1000 {
		items, next, err := page(ctxFor(t), cursor)
		require.NoError(t, err)
		out = append(out, items...)
		if next == "" {
			return out
		}
		cursor = next
	}
	t.Fatal("no end to the pages")
	return nil
}

func (fc *featureClient) resourceList(t *testing.T) []*mcp.Resource {
	return all(t, func(ctx context.Context, c string) ([]*mcp.Resource, string, error) {
		r, err := fc.cs.ListResources(ctx, &mcp.ListResourcesParams{Cursor: c})
		if err != nil {
			return nil, "", err
		}
		return r.Resources, r.NextCursor, nil
	})
}

func (fc *featureClient) templateList(t *testing.T) []*mcp.ResourceTemplate {
	return all(t, func(ctx context.Context, c string) ([]*mcp.ResourceTemplate, string, error) {
		r, err := fc.cs.ListResourceTemplates(ctx, &mcp.ListResourceTemplatesParams{Cursor: c})
		if err != nil {
			return nil, "", err
		}
		return r.ResourceTemplates, r.NextCursor, nil
	})
}

func (fc *featureClient) promptList(t *testing.T) []*mcp.Prompt {
	return all(t, func(ctx context.Context, c string) ([]*mcp.Prompt, string, error) {
		r, err := fc.cs.ListPrompts(ctx, &mcp.ListPromptsParams{Cursor: c})
		if err != nil {
			return nil, "", err
		}
		return r.Prompts, r.NextCursor, nil
	})
}

// names is what a client sees of the three lists: resources as URI=name,
// templates as template=name, prompts by name.
func (fc *featureClient) names(t *testing.T) []string {
	var out []string
	for _, r := range fc.resourceList(t) {
		out = append(out, r.URI+"="+r.Name)
	}
	for _, r := range fc.templateList(t) {
		out = append(out, r.URITemplate+"="+r.Name)
	}
	for _, p := range fc.promptList(t) {
		out = append(out, "prompt "+p.Name)
	}
	return out
}

func (fc *featureClient) waitNames(t *testing.T, want ...string) {
	t.Helper()
	var got []string
	if !assert.Eventually(t, func() bool { got = fc.names(t); return slices.Equal(got, want) }, waitFor, 20*time.Millisecond) {
		t.Fatalf("lists are %q, want %q", got, want)
	}
}

// heard counts the list_changed of each kind until none has come for
// 200ms (past the SDK's 10ms debounce).
func (fc *featureClient) heard() (resources, prompts int) {
	giveUp := time.After(waitFor)
	for {
		select {
		case <-fc.resources:
			resources++
		case <-fc.prompt:
			prompts++
		case <-time.After(200 * time.Millisecond):
			return
		case <-giveUp:
			return
		}
	}
}

// directSession is a client session straight to an upstream, to compare
// with what gate answers.
func directSession(t *testing.T, tr mcp.Transport) *mcp.ClientSession {
	t.Helper()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "direct", Version: "1"}, nil).Connect(ctxFor(t), tr, nil)
	require.NoError(t, err)
	t.Cleanup(func() { _ = cs.Close() })
	return cs
}

var docNames = []string{
	docA + "=d_a", docB + "=d_b", docTmpl + "=d_md", "prompt d_greet",
}

// An upstream's resources, template and prompt are listed through gate
// with the server's prefix on their names (URIs as they are), and reads,
// gets and completions answer what the upstream answers.
func TestFrontedFeaturesListedAndForwarded(t *testing.T) {
	up := newFeatureUpstream("one")
	url, _ := httpUpstream(t, up.s)
	h := start(t, fmt.Sprintf("[[servers]]\nname = \"docs\"\nurl = %q\nprefix = \"d_\"\n", url), fastConfig())
	fc := h.featureClient()
	fc.waitNames(t, docNames...)
	direct := directSession(t, &mcp.StreamableClientTransport{Endpoint: url})
	ctx := ctxFor(t)

	// The entries are the upstream's, but for the prefix.
	dr, err := direct.ListResources(ctx, nil)
	require.NoError(t, err)
	for i, r := range dr.Resources {
		c := *r
		c.Name = "d_" + c.Name
		assert.Equal(t, &c, fc.resourceList(t)[i])
	}

	for _, uri := range []string{docA, docB, "file:///docs/notes.md"} {
		want, err := direct.ReadResource(ctx, &mcp.ReadResourceParams{URI: uri})
		require.NoError(t, err)
		got, err := fc.cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: uri})
		require.NoError(t, err, uri)
		assert.Equal(t, want, got, uri)
	}
	want, err := direct.GetPrompt(ctx, &mcp.GetPromptParams{Name: "greet", Arguments: map[string]string{"who": "ann"}})
	require.NoError(t, err)
	got, err := fc.cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "d_greet", Arguments: map[string]string{"who": "ann"}})
	require.NoError(t, err)
	assert.Equal(t, want, got)
	assert.Equal(t, "one says hello to ann", got.Messages[0].Content.(*mcp.TextContent).Text)

	tests := []struct {
		name     string
		ref, at  *mcp.CompleteReference
		want     []string
		notFound bool
	}{
		{"a prompt by its prefixed name", &mcp.CompleteReference{Type: "ref/prompt", Name: "d_greet"}, &mcp.CompleteReference{Type: "ref/prompt", Name: "greet"}, []string{"alice-one-ref/prompt-greet", "albert-one-ref/prompt-greet"}, false},
		{"a template by its URI template", &mcp.CompleteReference{Type: "ref/resource", URI: docTmpl}, &mcp.CompleteReference{Type: "ref/resource", URI: docTmpl}, []string{"alice-one-ref/resource-" + docTmpl, "albert-one-ref/resource-" + docTmpl}, false},
		{"a prompt nobody offers", &mcp.CompleteReference{Type: "ref/prompt", Name: "greet"}, nil, []string{}, false},
		{"a template nobody offers", &mcp.CompleteReference{Type: "ref/resource", URI: "file:///{x}"}, nil, []string{}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			arg := mcp.CompleteParamsArgument{Name: "who", Value: "al"}
			got, err := fc.cs.Complete(ctx, &mcp.CompleteParams{Ref: tt.ref, Argument: arg})
			require.NoError(t, err)
			assert.Equal(t, tt.want, got.Completion.Values)
			if tt.at != nil {
				want, err := direct.Complete(ctx, &mcp.CompleteParams{Ref: tt.at, Argument: arg})
				require.NoError(t, err)
				assert.Equal(t, want, got)
			}
		})
	}

	// A URI nobody lists or matches is MCP's "resource not found".
	_, err = fc.cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "file:///elsewhere.txt"})
	var je *jsonrpc.Error
	require.ErrorAs(t, err, &je)
	assert.Equal(t, int64(jsonrpc.CodeInvalidParams), je.Code) // the SDK's "Resource not found" (SEP-2164)
	assert.Equal(t, "Resource not found", je.Message)
	assert.Contains(t, string(je.Data), "file:///elsewhere.txt")
	_, err = fc.cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "greet"})
	require.ErrorAs(t, err, &je)
	assert.Equal(t, int64(jsonrpc.CodeInvalidParams), je.Code)
	assert.Contains(t, je.Message, "gate offers no prompt of that name")
}

// A server's resources, templates and prompts are hidden with it, with
// its reason, and come back with it; each change of each kind is one
// list_changed of that kind.
func TestFrontedFeaturesHiddenWithTheirServer(t *testing.T) {
	up := newFeatureUpstream("one")
	url, _ := httpUpstream(t, up.s)
	probe := newListener(t)
	h := start(t, fmt.Sprintf("[[servers]]\nname = \"docs\"\nurl = %q\nprefix = \"d_\"\nprobe = \"tcp:%s\"\n", url, probe.addr), fastConfig())
	fc := h.featureClient()
	fc.waitNames(t, docNames...)
	fc.heard()
	ctx := ctxFor(t)

	r0, p0 := h.gw.ResourceChanges(), h.gw.PromptChanges()
	probe.close()
	fc.waitNames(t)
	res, prompts := fc.heard()
	assert.Equal(t, uint64(1), h.gw.ResourceChanges()-r0, "the resources and template hidden: one change")
	assert.Equal(t, uint64(1), h.gw.PromptChanges()-p0, "the prompt hidden: one change")
	assert.Equal(t, 1, res, "one resources/list_changed")
	assert.Equal(t, 1, prompts, "one prompts/list_changed")

	for _, uri := range []string{docA, "file:///docs/x.md"} {
		_, err := fc.cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: uri})
		notAvailable(t, err, "server docs is unavailable", runtime.CodeRefused)
	}
	_, err := fc.cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "d_greet", Arguments: map[string]string{"who": "x"}})
	notAvailable(t, err, "server docs is unavailable", runtime.CodeRefused)
	_, err = fc.cs.Complete(ctx, &mcp.CompleteParams{Ref: &mcp.CompleteReference{Type: "ref/prompt", Name: "d_greet"}, Argument: mcp.CompleteParamsArgument{Name: "who"}})
	notAvailable(t, err, "server docs is unavailable", runtime.CodeRefused)
	err = fc.cs.Subscribe(ctx, &mcp.SubscribeParams{URI: docA})
	notAvailable(t, err, "server docs is unavailable", runtime.CodeRefused)

	r0, p0 = h.gw.ResourceChanges(), h.gw.PromptChanges()
	probe.reopen()
	fc.waitNames(t, docNames...)
	res, prompts = fc.heard()
	assert.Equal(t, uint64(1), h.gw.ResourceChanges()-r0)
	assert.Equal(t, uint64(1), h.gw.PromptChanges()-p0)
	assert.Equal(t, 1, res)
	assert.Equal(t, 1, prompts)
	_, err = fc.cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: docA})
	require.NoError(t, err)

	// The upstream's own list_changed of one kind changes that kind only.
	r0, p0 = h.gw.ResourceChanges(), h.gw.PromptChanges()
	up.s.AddPrompt(&mcp.Prompt{Name: "bye"}, func(context.Context, *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
		return &mcp.GetPromptResult{Messages: []*mcp.PromptMessage{{Role: "user", Content: &mcp.TextContent{Text: "bye"}}}}, nil
	})
	fc.waitNames(t, append(slices.Clone(docNames[:3]), "prompt d_bye", "prompt d_greet")...)
	res, prompts = fc.heard()
	assert.Equal(t, uint64(0), h.gw.ResourceChanges()-r0)
	assert.Equal(t, uint64(1), h.gw.PromptChanges()-p0)
	assert.Equal(t, 0, res)
	assert.Equal(t, 1, prompts)
}

// Two servers that list the same URI, URI template or prefixed prompt
// name: the first in the manifest owns it, even while it is hidden; an
// upstream's gate: URI is hidden; gate's skills prompt wins its name.
func TestFrontedFeatureConflicts(t *testing.T) {
	first, second := newFeatureUpstream("first"), newFeatureUpstream("second")
	for _, uri := range []string{gatePrompt, "gate://elsewhere"} {
		second.s.AddResource(&mcp.Resource{URI: uri, Name: "fake"}, func(context.Context, *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: uri, Text: "not gate's"}}}, nil
		})
	}
	second.s.AddPrompt(&mcp.Prompt{Name: "skills"}, func(context.Context, *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
		return &mcp.GetPromptResult{Messages: []*mcp.PromptMessage{{Role: "user", Content: &mcp.TextContent{Text: "not gate's"}}}}, nil
	})
	url1, _ := httpUpstream(t, first.s)
	url2, _ := httpUpstream(t, second.s)
	probe := newListener(t)
	skillsDir := t.TempDir()
	writeSkill(t, skillsDir, "notes", notesSkill)
	h := start(t, fmt.Sprintf(`[skills]
paths = [%q]

[[servers]]
name = "first"
url = %q
prefix = "x_"
probe = "tcp:%s"

[[servers]]
name = "second"
url = %q
prefix = ""
`, skillsDir, url1, probe.addr, url2), fastConfig())
	fc := h.featureClient()
	fc.waitNames(t,
		docA+"=x_a", docB+"=x_b", "gate://skills/notes/SKILL.md=notes", gatePrompt+"=skills-prompt",
		docTmpl+"=x_md",
		"prompt greet", "prompt skills", "prompt x_greet")
	ctx := ctxFor(t)

	read := func(uri string) (string, error) {
		res, err := fc.cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: uri})
		if err != nil {
			return "", err
		}
		return res.Contents[0].Text, nil
	}
	for _, uri := range []string{docA, "file:///docs/n.md"} {
		text, err := read(uri)
		require.NoError(t, err)
		assert.Equal(t, "first reads "+uri, text, "the first server owns %s", uri)
	}
	text, err := read(gatePrompt)
	require.NoError(t, err)
	assert.NotContains(t, text, "not gate's")
	p, err := fc.cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "skills"})
	require.NoError(t, err)
	assert.NotContains(t, p.Messages[0].Content.(*mcp.TextContent).Text, "not gate's")
	p, err = fc.cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "greet", Arguments: map[string]string{"who": "z"}})
	require.NoError(t, err)
	assert.Equal(t, "second says hello to z", p.Messages[0].Content.(*mcp.TextContent).Text)

	hiddenRes, _ := h.gw.HiddenFeatures()
	assert.Contains(t, hiddenRes["gate://elsewhere"], "server second lists it, but gate: URIs are gate's own")
	_, err = read("gate://elsewhere")
	notAvailable(t, err, "gate: URIs are gate's own", runtime.CodeNotOffered)

	// The owner hidden: its URIs are refused with its reason, not read
	// from the second server.
	probe.close()
	fc.waitNames(t, "gate://skills/notes/SKILL.md=notes", gatePrompt+"=skills-prompt", "prompt greet", "prompt skills")
	for _, uri := range []string{docA, "file:///docs/n.md"} {
		_, err := read(uri)
		// The code is the probe's: a dial to the closed listener is
		// refused, or, on a machine too loaded to see the refusal in
		// time, unreachable.
		var je *jsonrpc.Error
		require.ErrorAs(t, err, &je)
		code := runtime.CodeRefused
		if strings.Contains(string(je.Data), string(runtime.CodeUnreachable)) {
			code = runtime.CodeUnreachable
		}
		notAvailable(t, err, "server first is unavailable", code)
	}
}

// Sessions subscribed to an upstream resource hear its updates, others
// do not; gate subscribes at the upstream once, and unsubscribes when the
// last subscriber unsubscribes or closes.
func TestFrontedSubscriptionsFanOut(t *testing.T) {
	up := newFeatureUpstream("one")
	url, _ := httpUpstream(t, up.s)
	h := start(t, fmt.Sprintf("[[servers]]\nname = \"docs\"\nurl = %q\nprefix = \"d_\"\n", url), fastConfig().WithMaxSubscriptions(2))
	c1, c2, c3 := h.featureClient(), h.featureClient(), h.featureClient()
	c1.waitNames(t, docNames...)
	ctx := ctxFor(t)
	require.NoError(t, c1.cs.Subscribe(ctx, &mcp.SubscribeParams{URI: docA}))
	require.NoError(t, c2.cs.Subscribe(ctx, &mcp.SubscribeParams{URI: docA}))
	require.NoError(t, c3.cs.Subscribe(ctx, &mcp.SubscribeParams{URI: docB}))
	subs, _ := up.counts(docA)
	assert.Equal(t, 1, subs, "one subscription upstream for two sessions")

	require.NoError(t, up.s.ResourceUpdated(ctx, &mcp.ResourceUpdatedNotificationParams{URI: docA}))
	require.NoError(t, up.s.ResourceUpdated(ctx, &mcp.ResourceUpdatedNotificationParams{URI: docB}))
	for _, c := range []*featureClient{c1, c2} {
		select {
		case uri := <-c.updated:
			assert.Equal(t, docA, uri)
		case <-time.After(2 * waitFor):
			t.Fatal("a subscriber heard no update")
		}
	}
	select {
	case uri := <-c3.updated:
		assert.Equal(t, docB, uri, "c3 hears only of what it subscribed to")
	case <-time.After(2 * waitFor):
		t.Fatal("c3 heard no update")
	}

	// The per-session cap.
	require.NoError(t, c1.cs.Subscribe(ctx, &mcp.SubscribeParams{URI: docB}))
	err := c1.cs.Subscribe(ctx, &mcp.SubscribeParams{URI: "file:///docs/n.md"})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "2 subscriptions, the gateway's cap")

	require.NoError(t, c1.cs.Unsubscribe(ctx, &mcp.UnsubscribeParams{URI: docA}))
	_, unsubs := up.counts(docA)
	assert.Equal(t, 0, unsubs, "c2 is still subscribed")
	require.NoError(t, c2.cs.Close())
	require.Eventually(t, func() bool { _, n := up.counts(docA); return n == 1 }, waitFor, 10*time.Millisecond, "the last subscriber closed")
	require.Eventually(t, func() bool { _, on := h.gw.Subscribed()[docA]; return !on }, waitFor, 10*time.Millisecond)
	assert.Equal(t, 2, h.gw.Subscribed()[docB].Sessions, "c1 and c3 on b")
}

// An upstream that comes back on a new session is subscribed again to the
// URIs that still have subscribers, and their updates reach them.
func TestFrontedSubscriptionsSurviveAReconnection(t *testing.T) {
	up := newFeatureUpstream("one")
	url, stop := httpUpstream(t, up.s)
	h := start(t, fmt.Sprintf("[[servers]]\nname = \"docs\"\nurl = %q\nprefix = \"d_\"\n", url), fastConfig().WithKeepAlive(100*time.Millisecond))
	fc := h.featureClient()
	fc.waitNames(t, docNames...)
	ctx := ctxFor(t)
	require.NoError(t, fc.cs.Subscribe(ctx, &mcp.SubscribeParams{URI: docA}))

	stop()
	fc.waitNames(t)
	serveUpstream(t, listenOn(t, url), up.s)
	fc.waitNames(t, docNames...)
	require.Eventually(t, func() bool { n, _ := up.counts(docA); return n == 2 }, waitFor, 10*time.Millisecond, "subscribed again on the new session")
	require.NoError(t, up.s.ResourceUpdated(ctx, &mcp.ResourceUpdatedNotificationParams{URI: docA}))
	select {
	case uri := <-fc.updated:
		assert.Equal(t, docA, uri)
	case <-time.After(2 * waitFor):
		t.Fatal("no update after the reconnection")
	}
}

// A listing of resources or prompts that fails keeps the last good list
// and the server's tools: it is logged, and the session goes on.
func TestFrontedListingFailureKeepsTheLastGoodList(t *testing.T) {
	up := newFeatureUpstream("one")
	up.s.AddTool(&mcp.Tool{Name: "echo", InputSchema: objectSchema}, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return text("echo"), nil
	})
	var failing atomic.Bool
	up.s.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			if failing.Load() && (method == "resources/list" || method == "prompts/list") {
				return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "the listing broke"}
			}
			return next(ctx, method, req)
		}
	})
	url, _ := httpUpstream(t, up.s)
	log := &blockedLog{released: make(chan struct{})}
	close(log.released)
	h := start(t, fmt.Sprintf("[[servers]]\nname = \"docs\"\nurl = %q\nprefix = \"d_\"\n", url), fastConfig().WithLog(log))
	fc := h.featureClient()
	fc.waitNames(t, docNames...)
	listings := h.gw.Upstreams()[0].Listings

	failing.Store(true)
	up.s.AddResource(&mcp.Resource{URI: "file:///docs/c.txt", Name: "c"}, nil)
	up.s.AddPrompt(&mcp.Prompt{Name: "later"}, nil)
	require.Eventually(t, func() bool {
		return strings.Contains(log.String(), `calling "resources/list": the listing broke; its last good list is kept`) &&
			strings.Contains(log.String(), `calling "prompts/list": the listing broke; its last good list is kept`)
	}, waitFor, 10*time.Millisecond, "log:\n%s", log)
	assert.Equal(t, docNames, fc.names(t))
	assert.Equal(t, []string{"d_echo"}, h.gw.Offered())
	ups := h.gw.Upstreams()
	assert.Equal(t, mcpgw.StateReady, ups[0].State)
	assert.Equal(t, listings, ups[0].Listings, "the tools were not listed again for a list_changed of resources or prompts")

	failing.Store(false)
	up.s.AddResource(&mcp.Resource{URI: "file:///docs/d.txt", Name: "d"}, nil)
	fc.waitNames(t, docA+"=d_a", docB+"=d_b", "file:///docs/c.txt=d_c", "file:///docs/d.txt=d_d", docTmpl+"=d_md", "prompt d_greet")
}

// subscribableDocs is a gateway in front of one upstream, docs (prefix
// d_), that takes subscriptions and keeps nothing of them but what its
// SDK keeps until it is unsubscribed, with the resource template docTmpl;
// it returns once a client sees the template.
func subscribableDocs(t *testing.T) *harness {
	up := mcp.NewServer(&mcp.Implementation{Name: "docs", Version: "1"}, &mcp.ServerOptions{
		SubscribeHandler:   func(context.Context, *mcp.SubscribeRequest) error { return nil },
		UnsubscribeHandler: func(context.Context, *mcp.UnsubscribeRequest) error { return nil },
	})
	up.AddResourceTemplate(&mcp.ResourceTemplate{URITemplate: docTmpl, Name: "md"}, func(context.Context, *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
		return &mcp.ReadResourceResult{}, nil
	})
	url, _ := httpUpstream(t, up)
	h := start(t, fmt.Sprintf("[[servers]]\nname = \"docs\"\nurl = %q\nprefix = \"d_\"\n", url), fastConfig())
	h.featureClient().waitNames(t, docTmpl+"=d_md")
	return h
}

// Sessions that subscribe to many long URIs and close leave nothing
// behind, in gate's table or the SDK's (which kept every URI a closed
// session had held). (A URI past the bound: subscription_size_test.go.)
func TestSubscriptionsEndWithTheirSession(t *testing.T) {
	h := subscribableDocs(t)
	long := func(session, i, n int) string {
		return fmt.Sprintf("file:///docs/%d-%d-%s.md", session, i, strings.Repeat("x", n))
	}

	heap := func() uint64 {
		goruntime.GC()
		var m goruntime.MemStats
		goruntime.ReadMemStats(&m)
		return m.HeapAlloc
	}
	before := heap()
	const sessions, each = 8, 64
	for s := range sessions {
		c := h.featureClient()
		for i := range each {
			// Each its own wait: 512 of them, under the race detector
			// on a loaded machine, may take longer than one.
			require.NoError(t, c.cs.Subscribe(ctxFor(t), &mcp.SubscribeParams{URI: long(s, i, 8<<10-64)}))
		}
		require.NoError(t, c.cs.Close())
	}
	require.Eventually(t, func() bool { return len(h.gw.Subscribed()) == 0 }, waitFor, 10*time.Millisecond, "gate's table")
	held := int64(heap()) - int64(before)
	t.Logf("%d sessions of %d subscriptions of 8 KiB: %d bytes held after they closed", sessions, each, held)
	// They held 4 MiB of URIs; a table that keeps them holds all of it.
	assert.Less(t, held, int64(1<<20), "bytes held after the sessions closed")
}
