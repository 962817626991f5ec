package mcpgw_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gate-dev/gate/internal/mcpgw"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// templateUpstream is a Go SDK server with one tool, echo, and the
// resource templates given, whose resources/read it answers itself with
// its tag: the SDK's own matching of a template past Go's regexp limits
// panics, and this upstream must not.
func templateUpstream(t *testing.T, tag string, templates ...string) string {
	t.Helper()
	s := mcp.NewServer(&mcp.Implementation{Name: tag, Version: "1"}, &mcp.ServerOptions{PageSize: 5000})
	s.AddTool(&mcp.Tool{Name: "echo", InputSchema: objectSchema}, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return text("echo"), nil
	})
	for i, tmpl := range templates {
		s.AddResourceTemplate(&mcp.ResourceTemplate{URITemplate: tmpl, Name: fmt.Sprintf("t%d", i)}, nil)
	}
	s.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			if r, ok := req.(*mcp.ReadResourceRequest); ok {
				return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: r.Params.URI, Text: tag + " reads it"}}}, nil
			}
			return next(ctx, method, req)
		}
	})
	url, _ := httpUpstream(t, s)
	return url
}

func readText(t *testing.T, fc *featureClient, uri string) (string, error) {
	t.Helper()
	res, err := fc.cs.ReadResource(ctxFor(t), &mcp.ReadResourceParams{URI: uri})
	if err != nil {
		return "", err
	}
	require.Len(t, res.Contents, 1)
	return res.Contents[0].Text, nil
}

func manyVariables(n int) string {
	vars := make([]string, n)
	for i := range vars {
		vars[i] = fmt.Sprintf("v%d", i)
	}
	return "x://h{/" + strings.Join(vars, ",") + "}"
}

// A template with more variables than Go's regexp repeats (the library's
// regexp of it panics) is matched all the same, as the RFC reads it: the
// process goes on, and so does every other upstream.
func TestHostileTemplateWithManyVariables(t *testing.T) {
	bad := templateUpstream(t, "bad", manyVariables(1002))
	good := templateUpstream(t, "good", "y://{id}")
	h := start(t, fmt.Sprintf("[[servers]]\nname = \"bad\"\nurl = %q\nprefix = \"b_\"\n\n[[servers]]\nname = \"good\"\nurl = %q\nprefix = \"g_\"\n", bad, good), fastConfig())
	fc := h.featureClient()
	require.Eventually(t, func() bool { return len(fc.templateList(t)) == 2 }, waitFor, 10*time.Millisecond)
	got, err := readText(t, fc, "x://h/a/b/c")
	require.NoError(t, err)
	assert.Equal(t, "bad reads it", got)
	got, err = readText(t, fc, "y://7")
	require.NoError(t, err)
	assert.Equal(t, "good reads it", got)
	_, err = readText(t, fc, "x://h"+strings.Repeat("/a", 1003))
	require.ErrorContains(t, err, "Resource not found", "one segment per variable at most, as the RFC reads it")
	assert.ElementsMatch(t, []string{"b_echo", "g_echo"}, h.gw.Offered())
}

// A URI whose match against one server's templates runs past its share
// of steps is refused with an error that names the server, not the URI;
// the templates stay offered, and other URIs are read.
func TestHostileTemplatesTooCostlyToMatch(t *testing.T) {
	// Each byte of the URI steps every one of a template's 600
	// expressions: within the bound on a URI's length, past the steps.
	many := "x://" + strings.Repeat("{+a}", 600)
	costly := templateUpstream(t, "costly", many+"z", many+"y", many+"w")
	h := start(t, fmt.Sprintf("[[servers]]\nname = \"costly\"\nurl = %q\n", costly), fastConfig())
	fc := h.featureClient()
	require.Eventually(t, func() bool { return len(fc.templateList(t)) == 3 }, waitFor, 10*time.Millisecond)
	long := "x://" + strings.Repeat("a", 8<<10-4)
	_, err := readText(t, fc, long)
	var rpc *jsonrpc.Error
	require.ErrorAs(t, err, &rpc)
	assert.Equal(t, int64(jsonrpc.CodeInvalidParams), rpc.Code)
	assert.Contains(t, rpc.Message, "server costly's resource templates take more than gate's bound")
	assert.NotContains(t, rpc.Message, "aaaa", "the URI is not echoed")
	got, err := readText(t, fc, "x://abcz")
	require.NoError(t, err)
	assert.Equal(t, "costly reads it", got)
}

// A later server's resource whose URI is in an earlier server's template
// is the earlier server's, as a tool name is: server order decides, the
// log says so, and the later server's resource is not offered (a client
// would read something else), with why.
func TestFrontedResourceInAnEarlierServersTemplate(t *testing.T) {
	first := templateUpstream(t, "first", "file:///docs/{name}.md")
	second := newFeatureUpstream("second")
	second.s.AddResource(&mcp.Resource{URI: "file:///docs/x.md", Name: "x"}, func(_ context.Context, r *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
		return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: r.Params.URI, Text: "second reads it"}}}, nil
	})
	url2, _ := httpUpstream(t, second.s)
	log := &blockedLog{released: make(chan struct{})}
	close(log.released)
	h := start(t, fmt.Sprintf("[[servers]]\nname = \"first\"\nurl = %q\nprefix = \"f_\"\n\n[[servers]]\nname = \"second\"\nurl = %q\nprefix = \"s_\"\n", first, url2), fastConfig().WithLog(log))
	fc := h.featureClient()
	require.Eventually(t, func() bool {
		res, _ := h.gw.HiddenFeatures()
		_, hidden := res["file:///docs/x.md"]
		return hidden && slices.ContainsFunc(fc.resourceList(t), func(r *mcp.Resource) bool { return r.URI == docA })
	}, waitFor, 10*time.Millisecond)
	res, _ := h.gw.HiddenFeatures()
	assert.Equal(t, `server second lists it, but its URI is in resource template "file:///docs/{name}.md" of server first, which comes first in the manifest: a read of it goes to server first`, res["file:///docs/x.md"])
	assert.False(t, slices.ContainsFunc(fc.resourceList(t), func(r *mcp.Resource) bool { return r.URI == "file:///docs/x.md" }), "a resource whose read another server answers is not listed")
	got, err := readText(t, fc, "file:///docs/x.md")
	require.NoError(t, err)
	assert.Equal(t, "first reads it", got, "the earlier server's template owns the URI")
	_, err = readText(t, fc, "file:///docs/x.md")
	require.NoError(t, err)
	assert.Equal(t, 1, strings.Count(log.String(), `resources/read: a URI a later server lists is in resource template "file:///docs/{name}.md" of server first, which comes first in the manifest`), "logged once:\n%s", log)
	got, err = readText(t, fc, docA)
	require.NoError(t, err)
	assert.Equal(t, "second reads "+docA, got, "outside the template, the later server's own")
}

// A URI longer than gate matches against templates (8 KiB) is refused
// before any match, by its length: a read, whether or not a server has
// templates, never carries it back; a listed resource with such a URI is
// hidden behind an earlier server's templates (it cannot be shown to be
// outside them), and offered where none come before it.
func TestHostileResourceURIPastTheBound(t *testing.T) {
	longListed := "file:///long/" + strings.Repeat("b", 9<<10)
	listing := func(tag string) string {
		s := mcp.NewServer(&mcp.Implementation{Name: tag, Version: "1"}, nil)
		s.AddTool(&mcp.Tool{Name: "echo", InputSchema: objectSchema}, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return text("echo"), nil
		})
		s.AddResource(&mcp.Resource{URI: longListed, Name: "long"}, func(_ context.Context, r *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: r.Params.URI, Text: tag + " reads the long one"}}}, nil
		})
		url, _ := httpUpstream(t, s)
		return url
	}
	refusedByLength := func(t *testing.T, err error, uri string) {
		t.Helper()
		var rpc *jsonrpc.Error
		require.ErrorAs(t, err, &rpc)
		assert.Equal(t, int64(jsonrpc.CodeInvalidParams), rpc.Code)
		assert.Contains(t, rpc.Message, fmt.Sprintf("the resource URI of %d bytes", len(uri)))
		assert.Contains(t, rpc.Message, "gate matches URIs of at most 8192 bytes")
		assert.Less(t, len(rpc.Message)+len(rpc.Data), 1024, "the URI is not carried back")
	}
	huge := "x://" + strings.Repeat("a", 1<<20)

	t.Run("behind templates", func(t *testing.T) {
		tmpl := templateUpstream(t, "tmpl", "x://{+a}", "file:///other/{name}")
		h := start(t, fmt.Sprintf("[[servers]]\nname = \"tmpl\"\nurl = %q\nprefix = \"t_\"\n\n[[servers]]\nname = \"later\"\nurl = %q\nprefix = \"l_\"\n", tmpl, listing("later")), fastConfig())
		fc := h.featureClient()
		require.Eventually(t, func() bool { return len(fc.templateList(t)) == 2 }, waitFor, 10*time.Millisecond)
		var matched atomic.Int64
		mcpgw.SetMatchingHook(t, func() { matched.Add(1) })
		_, err := readText(t, fc, huge)
		refusedByLength(t, err, huge)
		assert.Zero(t, matched.Load(), "matched before the length was checked")
		require.Eventually(t, func() bool {
			res, _ := h.gw.HiddenFeatures()
			return strings.Contains(res[longListed], "gate matches URIs of at most 8192 bytes")
		}, waitFor, 10*time.Millisecond, "the long listed resource is hidden, with why")
		_, err = readText(t, fc, longListed)
		refusedByLength(t, err, longListed)
	})
	t.Run("no templates", func(t *testing.T) {
		h := start(t, fmt.Sprintf("[[servers]]\nname = \"only\"\nurl = %q\n", listing("only")), fastConfig())
		fc := h.featureClient()
		require.Eventually(t, func() bool { return len(fc.resourceList(t)) == 1 }, waitFor, 10*time.Millisecond)
		got, err := readText(t, fc, longListed)
		require.NoError(t, err)
		assert.Equal(t, "only reads the long one", got)
		_, err = readText(t, fc, huge)
		refusedByLength(t, err, huge)
	})
}

// Matching a URI against the templates holds no lock another client
// needs: while one read is being matched (held here, in the middle),
// another client lists the tools and is answered.
func TestResourceReadMatchesOutsideTheLock(t *testing.T) {
	up := templateUpstream(t, "up", "x://{+a}")
	h := start(t, fmt.Sprintf("[[servers]]\nname = \"up\"\nurl = %q\n", up), fastConfig())
	fc := h.featureClient()
	other := h.client()
	require.Eventually(t, func() bool { return len(fc.templateList(t)) == 1 }, waitFor, 10*time.Millisecond)

	matching, release := make(chan struct{}), make(chan struct{})
	var once sync.Once
	mcpgw.SetMatchingHook(t, func() {
		once.Do(func() {
			close(matching)
			<-release
		})
	})
	read := make(chan error, 1)
	go func() {
		_, err := readText(t, fc, "x://"+strings.Repeat("a", 4<<10))
		read <- err
	}()
	<-matching
	ctx, cancel := context.WithTimeout(context.Background(), waitFor)
	defer cancel()
	res, err := other.Session.ListTools(ctx, nil)
	close(release)
	require.NoError(t, err, "tools/list waited for the match")
	assert.Len(t, res.Tools, 1)
	require.NoError(t, <-read)
}

// A panic while gate handles what one upstream sent (its listing, a
// message of its, the answer to a read) fails that upstream alone, with a
// log line that names it; the process, the clients and the other upstream
// go on, and the upstream is retried.
func TestHostileUpstreamDataThatPanicsFailsItsUpstream(t *testing.T) {
	tests := []struct {
		name, what string
		trigger    func(t *testing.T, fc *featureClient, bad *mcp.Server)
	}{
		{"its listing", "listing", nil},
		{"a message of its", "notifications/resources/list_changed", func(t *testing.T, _ *featureClient, bad *mcp.Server) {
			bad.AddResource(&mcp.Resource{URI: "file:///docs/c.txt", Name: "c"}, nil)
		}},
		{"its answer to a read", "answer", func(t *testing.T, fc *featureClient, _ *mcp.Server) {
			_, err := readText(t, fc, docA)
			require.ErrorContains(t, err, "gate panicked handling the answer to")
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			bad := newFeatureUpstream("bad")
			badURL, _ := httpUpstream(t, bad.s)
			good := templateUpstream(t, "good", "y://{id}")
			log := &blockedLog{released: make(chan struct{})}
			close(log.released)
			var armed sync.Mutex
			on := tt.trigger == nil
			mcpgw.SetUpstreamDataHook(t, func(server, what string) {
				armed.Lock()
				defer armed.Unlock()
				if on && server == "bad" && what == tt.what {
					panic("a test's panic on " + what)
				}
			})
			h := start(t, fmt.Sprintf("[[servers]]\nname = \"bad\"\nurl = %q\nprefix = \"b_\"\n\n[[servers]]\nname = \"good\"\nurl = %q\nprefix = \"g_\"\n", badURL, good), fastConfig().WithLog(log))
			fc := h.featureClient()
			if tt.trigger != nil {
				require.Eventually(t, func() bool { return h.gw.Upstreams()[0].State == mcpgw.StateReady }, waitFor, 10*time.Millisecond)
				armed.Lock()
				on = true
				armed.Unlock()
				tt.trigger(t, fc, bad.s)
			}
			reason := waitDown(t, h, "bad", "gate panicked handling")
			assert.NotContains(t, reason, "a test's panic", "the reason says what failed, not what the panic held")
			require.Eventually(t, func() bool {
				return strings.Contains(log.String(), "upstream bad: gate panicked handling") && strings.Contains(log.String(), "a test's panic on "+tt.what)
			}, waitFor, 10*time.Millisecond, "log:\n%s", log)
			require.Eventually(t, func() bool {
				o := h.gw.Offered()
				return len(o) == 1 && o[0] == "g_echo"
			}, waitFor, 10*time.Millisecond, "the other upstream is offered")
			got, err := readText(t, fc, "y://7")
			require.NoError(t, err)
			assert.Equal(t, "good reads it", got)
		})
	}
}
