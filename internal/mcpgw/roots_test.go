//lint:file-ignore SA1019 MCP deprecates roots as of 2026-07-28 (SEP-2577); clients and servers of the earlier versions gate speaks use it

package mcpgw_test

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// rootsUpstream is a real Go SDK server whose tool "roots" asks its client
// (gate) for its roots, and answers them one a line, "URI name"; it
// counts the roots/list_changed it hears.
func rootsUpstream(changed *atomic.Int64) *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "roots", Version: "1"}, &mcp.ServerOptions{
		RootsListChangedHandler: func(context.Context, *mcp.RootsListChangedRequest) { changed.Add(1) },
	})
	s.AddTool(&mcp.Tool{Name: "roots", InputSchema: objectSchema}, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		res, err := req.Session.ListRoots(ctx, nil)
		if err != nil {
			return nil, err
		}
		var lines []string
		for _, r := range res.Roots {
			lines = append(lines, r.URI+" "+r.Name)
		}
		return text(strings.Join(lines, "\n")), nil
	})
	return s
}

// rootsClient connects a client with the given roots (nil: without the
// roots capability); hang makes it never answer roots/list.
func (h *harness) rootsClient(roots []*mcp.Root, hang bool) (*mcp.Client, *mcp.ClientSession) {
	h.t.Helper()
	opts := &mcp.ClientOptions{}
	if roots == nil {
		opts.Capabilities = &mcp.ClientCapabilities{}
	}
	cl := mcp.NewClient(&mcp.Implementation{Name: "roots-client", Version: "1"}, opts)
	cl.AddRoots(roots...)
	if hang {
		cl.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
			return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
				if method == "roots/list" {
					<-ctx.Done()
					return nil, ctx.Err()
				}
				return next(ctx, method, req)
			}
		})
	}
	ctx, cancel := context.WithTimeout(context.Background(), waitFor)
	defer cancel()
	cs, err := cl.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: h.url}, nil)
	require.NoError(h.t, err)
	h.t.Cleanup(func() { _ = cs.Close() })
	return cl, cs
}

// upstreamRoots is what the upstream is given as roots, through a call.
func upstreamRoots(t *testing.T, cs *mcp.ClientSession) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), waitFor)
	defer cancel()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "r_roots", Arguments: map[string]any{}})
	require.NoError(t, err)
	require.False(t, res.IsError, textOf(res))
	return textOf(res)
}

// The upstream is given the union of the roots of the sessions open that
// declare roots, each URI once, sorted; a change of it is announced to
// the upstream; a session's end takes its roots away; a session that does
// not declare roots, or does not answer, gives none.
func TestRootsReachUpstreams(t *testing.T) {
	var changed atomic.Int64
	log := &lockedLog{}
	url, _ := httpUpstream(t, rootsUpstream(&changed))
	h := start(t, fmt.Sprintf("[[servers]]\nname = \"up\"\nurl = %q\nprefix = \"r_\"\n", url), fastConfig().WithListTimeout(time.Second).WithLog(log).WithDebug(true))
	_, plain := h.rootsClient(nil, false)
	waitTools(t, plain, "r_roots")
	require.Equal(t, "", upstreamRoots(t, plain), "no client declared roots")

	_, a := h.rootsClient([]*mcp.Root{{URI: "file:///work/a", Name: "a"}}, false)
	require.Eventually(t, func() bool { return upstreamRoots(t, a) == "file:///work/a a" }, waitFor, 5*time.Millisecond)
	require.Eventually(t, func() bool { return changed.Load() >= 1 }, waitFor, time.Millisecond, "no roots/list_changed")

	bc, b := h.rootsClient([]*mcp.Root{{URI: "file:///work/c", Name: "c"}, {URI: "file:///work/a", Name: "also a"}}, false)
	want := "file:///work/a a\nfile:///work/c c"
	require.Eventually(t, func() bool { return upstreamRoots(t, plain) == want }, waitFor, 5*time.Millisecond, "got %q", upstreamRoots(t, plain))

	// The client's list_changed: gate asks again.
	before := changed.Load()
	bc.RemoveRoots("file:///work/c")
	bc.AddRoots(&mcp.Root{URI: "file:///work/b", Name: "b"})
	require.Eventually(t, func() bool { return upstreamRoots(t, plain) == "file:///work/a a\nfile:///work/b b" }, waitFor, 5*time.Millisecond, "got %q", upstreamRoots(t, plain))
	require.Eventually(t, func() bool { return changed.Load() > before }, waitFor, time.Millisecond)

	// A session that does not answer roots/list gives nothing, and holds
	// up no one.
	_, _ = h.rootsClient([]*mcp.Root{{URI: "file:///never"}}, true)
	require.NoError(t, b.Close())
	require.Eventually(t, func() bool { return upstreamRoots(t, plain) == "file:///work/a a" }, waitFor, 5*time.Millisecond, "got %q", upstreamRoots(t, plain))
	require.Eventually(t, func() bool { return strings.Contains(log.String(), "contributes no roots") }, waitFor, 5*time.Millisecond, "log:\n%s", log.String())
	require.Equal(t, "file:///work/a a", upstreamRoots(t, plain))
}

// lockedLog is gate's log, for a test to read.
type lockedLog struct {
	mu  sync.Mutex
	buf strings.Builder
}

func (l *lockedLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.Write(p)
}

func (l *lockedLog) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.String()
}

// rawSession is a client of /mcp written by hand, to open its session's
// standalone stream exactly when a test wants.
type rawSession struct {
	t   *testing.T
	ctx context.Context
	url string
	sid string
}

// newRawSession initializes a session that declares roots, without
// saying it is initialized yet.
func newRawSession(t *testing.T, ctx context.Context, url string) *rawSession {
	r := &rawSession{t: t, ctx: ctx, url: url}
	resp := r.do(http.MethodPost, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{"roots":{}},"clientInfo":{"name":"raw","version":"1"}}}`)
	_, _ = io.Copy(io.Discard, resp.Body)
	_ = resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode)
	r.sid = resp.Header.Get("Mcp-Session-Id")
	require.NotEmpty(t, r.sid)
	return r
}

func (r *rawSession) do(method, body string) *http.Response {
	r.t.Helper()
	req, err := http.NewRequestWithContext(r.ctx, method, r.url, strings.NewReader(body))
	require.NoError(r.t, err)
	req.Header.Set("Accept", "application/json, text/event-stream")
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	if r.sid != "" {
		req.Header.Set("Mcp-Session-Id", r.sid)
		req.Header.Set("Mcp-Protocol-Version", "2025-06-18")
	}
	resp, err := http.DefaultClient.Do(req)
	require.NoError(r.t, err)
	return resp
}

func (r *rawSession) initialized() {
	resp := r.do(http.MethodPost, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	_ = resp.Body.Close()
}

// close ends the session, failing the test unless gate answers at once:
// the test's context bounds the wait.
func (r *rawSession) close() {
	r.t.Helper()
	resp := r.do(http.MethodDelete, "")
	_ = resp.Body.Close()
	assert.Less(r.t, resp.StatusCode, 300)
}

// awaitRootsAsk opens the standalone stream and reads it until gate's
// roots/list comes, then goes away without answering.
func (r *rawSession) awaitRootsAsk(before func()) {
	r.t.Helper()
	ctx, stop := context.WithCancel(r.ctx)
	defer stop()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, r.url, nil)
	require.NoError(r.t, err)
	req.Header.Set("Accept", "text/event-stream")
	req.Header.Set("Mcp-Session-Id", r.sid)
	req.Header.Set("Mcp-Protocol-Version", "2025-06-18")
	stream, err := http.DefaultClient.Do(req)
	require.NoError(r.t, err)
	defer stream.Body.Close()
	if before != nil {
		before()
	}
	sc := bufio.NewScanner(stream.Body)
	for sc.Scan() && !strings.Contains(sc.Text(), `"roots/list"`) {
	}
	require.NoError(r.t, sc.Err(), "gate never asked the client for its roots on its stream")
}

// A client over /mcp that opens its standalone stream after it said it
// is initialized (the TypeScript SDK's does) has gate's first ask for its
// roots go nowhere: the SDK holds it until it times out (an hour here).
// It is asked again on its stream, at once.
func TestRootsAskedAgainWhenTheStreamOpens(t *testing.T) {
	h := start(t, "", fastConfig().WithListTimeout(time.Hour))
	ctx, cancel := context.WithTimeout(context.Background(), waitFor)
	defer cancel()
	r := newRawSession(t, ctx, h.url)
	r.initialized()
	r.awaitRootsAsk(nil)
	r.close()
}

// A client that closes its session while gate is asking it for its roots
// is not kept waiting for the ask's timeout: the SDK closes a session only
// once no request of gate's to it is in flight, and gate ends the ask when
// the client asks to close. The client here declares roots and never opens
// the stream a request of gate's would come on, so the ask is in flight
// until its timeout (an hour).
func TestClosingWhileAskedForRoots(t *testing.T) {
	h := start(t, "", fastConfig().WithListTimeout(time.Hour))
	ctx, cancel := context.WithTimeout(context.Background(), waitFor)
	defer cancel()
	r := newRawSession(t, ctx, h.url)
	// The stream is open before the client says it is initialized, so
	// that the ask comes on it.
	r.awaitRootsAsk(r.initialized)
	r.close()
}

// A client that says its roots changed in a loop, and changes them each
// time, is asked for them at most once a second, and each upstream told
// of a change at most once a second: its loop costs neither gate nor the
// upstreams more than that, and the upstream ends with its last roots.
func TestRootsChangedInALoopArePaced(t *testing.T) {
	var changed atomic.Int64
	url, _ := httpUpstream(t, rootsUpstream(&changed))
	h := start(t, fmt.Sprintf("[[servers]]\nname = \"up\"\nurl = %q\nprefix = \"r_\"\n", url), fastConfig())
	var asked atomic.Int64
	cl, cs := h.rootsClient([]*mcp.Root{{URI: "file:///work/0"}}, false)
	cl.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			if method == "roots/list" {
				asked.Add(1)
			}
			return next(ctx, method, req)
		}
	})
	waitTools(t, cs, "r_roots")
	require.Eventually(t, func() bool { return upstreamRoots(t, cs) == "file:///work/0 " }, waitFor, 5*time.Millisecond)
	askedBefore, changedBefore := asked.Load(), changed.Load()

	began := time.Now()
	last := 0
	for i := 1; time.Since(began) < 1500*time.Millisecond; i++ {
		cl.RemoveRoots(fmt.Sprintf("file:///work/%d", i-1))
		cl.AddRoots(&mcp.Root{URI: fmt.Sprintf("file:///work/%d", i)})
		last = i
		time.Sleep(time.Millisecond)
	}
	want := fmt.Sprintf("file:///work/%d ", last)
	require.Eventually(t, func() bool { return upstreamRoots(t, cs) == want }, waitFor, 50*time.Millisecond, "the upstream ends with the last roots")
	// Each pace may start a new ask, or notification, at once; then one a
	// second at most.
	seconds := int64(time.Since(began)/time.Second) + 1
	t.Logf("%d changes in %v: %d asks, %d notifications", 2*last, time.Since(began), asked.Load()-askedBefore, changed.Load()-changedBefore)
	assert.LessOrEqual(t, asked.Load()-askedBefore, seconds+1, "asks of the client")
	assert.LessOrEqual(t, changed.Load()-changedBefore, seconds+1, "notifications to the upstream")
}
