package mcpgw_test

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// sseUpstream serves s over the HTTP+SSE transport of 2024-11-05 (the Go
// SDK's SSE handler) on loopback; stop closes it, its streams with it.
func sseUpstream(t *testing.T, s *mcp.Server) (url string, stop func()) {
	t.Helper()
	srv := httptest.NewServer(mcp.NewSSEHandler(func(*http.Request) *mcp.Server { return s }, nil))
	var once atomic.Bool
	stop = func() {
		if once.CompareAndSwap(false, true) {
			srv.CloseClientConnections()
			srv.Close()
		}
	}
	t.Cleanup(stop)
	return srv.URL, stop
}

func sseServer(name, url string) string {
	return fmt.Sprintf("[[servers]]\nname = %q\nurl = %q\ntransport = \"sse\"\nprefix = \"s_\"\n", name, url)
}

// A server that speaks only HTTP+SSE is fronted like any other: its tools
// listed, called (with progress), hidden while it is gone and offered
// again once it is back.
func TestSSEUpstream(t *testing.T) {
	up := newUpstreamServer("")
	url, stop := sseUpstream(t, up)
	h := start(t, sseServer("legacy", url), fastConfig())
	c := h.client()
	all := prefixed("s_", upstreamTools...)
	c.WaitTools(t, all...)
	echoes(t, c, "s_echo")

	params := &mcp.CallToolParams{Name: "s_slow", Arguments: map[string]any{"steps": 2}}
	params.SetProgressToken("sse-token")
	ctx, cancel := context.WithTimeout(context.Background(), waitFor)
	defer cancel()
	res, err := c.Session.CallTool(ctx, params)
	require.NoError(t, err)
	assert.Equal(t, "done after 2 steps", textOf(res))
	for i := 1; i <= 2; i++ {
		select {
		case p := <-c.Progress:
			assert.Equal(t, "sse-token", p.ProgressToken)
			assert.Equal(t, float64(i), p.Progress)
		case <-time.After(waitFor):
			t.Fatalf("progress notification %d never came", i)
		}
	}

	stop()
	c.WaitTools(t)
	waitDown(t, h, "legacy", "")
	l := listenOn(t, url)
	srv := &http.Server{Handler: mcp.NewSSEHandler(func(*http.Request) *mcp.Server { return up }, nil)}
	go func() { _ = srv.Serve(l) }()
	t.Cleanup(func() { _ = srv.Close() })
	c.WaitTools(t, all...)
	echoes(t, c, "s_echo")
}

// elsewhere is a loopback listener that counts the connections it gets:
// none must come.
func elsewhere(t *testing.T) (addr string, conns *atomic.Int64) {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	conns = &atomic.Int64{}
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			conns.Add(1)
			_ = c.Close()
		}
	}()
	t.Cleanup(func() { _ = l.Close() })
	return l.Addr().String(), conns
}

// hostileSSE serves an event stream whose first event is endpoint, with
// data, or, with a redirect, a 302 to it.
func hostileSSE(t *testing.T, data string, redirect bool) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if redirect {
			http.Redirect(w, r, data, http.StatusFound)
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		_, _ = fmt.Fprintf(w, "event: endpoint\ndata: %s\n\n", data)
		w.(http.Flusher).Flush()
		<-r.Context().Done()
	}))
	t.Cleanup(func() {
		srv.CloseClientConnections()
		srv.Close()
	})
	return srv.URL
}

// What gate sends an HTTP+SSE server goes to its url's origin and nowhere
// else: an endpoint event naming another origin (another port, another
// scheme, another host) ends the session with that reason, as does a
// redirect; nothing reaches the other place.
func TestSSEEndpointOnAnotherOriginRefused(t *testing.T) {
	addr, conns := elsewhere(t)
	port := addr[strings.LastIndex(addr, ":")+1:]
	for _, tc := range []struct {
		name, data string
		redirect   bool
		why        string
	}{
		{"another port", "http://" + addr + "/message?sessionid=1", false, "its endpoint event names \"http://" + addr + "/message?sessionid=1\", on http://127.0.0.1:" + port + ", not the origin of its url"},
		{"another host", "http://localhost:" + port + "/message", false, "on http://localhost:" + port + ", not the origin"},
		{"another scheme", "https://" + addr + "/message", false, "on https://127.0.0.1:" + port + ", not the origin"},
		{"scheme-relative", "//" + addr + "/message", false, "not the origin of its url"},
		{"a redirect", "http://" + addr + "/sse", true, "answered HTTP 302 Found with Location \"http://" + addr + "/sse\": gate follows no redirects"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			url := hostileSSE(t, tc.data, tc.redirect)
			h := start(t, sseServer("legacy", url), fastConfig())
			why := waitDown(t, h, "legacy", tc.why)
			assert.NotContains(t, why, "\x1b")
		})
	}
	assert.Zero(t, conns.Load(), "a request went to another origin")
}

// An endpoint on the url's own origin, relative or absolute, is taken
// (the Go SDK's server names a relative one; TestSSEUpstream).
func TestSSEEndpointSameOrigin(t *testing.T) {
	up := newUpstreamServer("")
	h0 := mcp.NewSSEHandler(func(*http.Request) *mcp.Server { return up }, nil)
	var base string
	// The server names its endpoint as an absolute URL.
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet {
			h0.ServeHTTP(&absoluteEndpoint{ResponseWriter: w, base: base}, r)
			return
		}
		h0.ServeHTTP(w, r)
	}))
	t.Cleanup(func() {
		srv.CloseClientConnections()
		srv.Close()
	})
	base = srv.URL
	h := start(t, sseServer("legacy", srv.URL+"/sse"), fastConfig())
	c := h.client()
	c.WaitTools(t, prefixed("s_", upstreamTools...)...)
	echoes(t, c, "s_echo")
}

// absoluteEndpoint rewrites the SDK server's relative endpoint event into
// an absolute URL on base.
type absoluteEndpoint struct {
	http.ResponseWriter
	base string
	done bool
}

func (w *absoluteEndpoint) Write(p []byte) (int, error) {
	if !w.done && strings.HasPrefix(string(p), "event: endpoint") {
		w.done = true
		s := strings.Replace(string(p), "data: ", "data: "+w.base, 1)
		if _, err := w.ResponseWriter.Write([]byte(s)); err != nil {
			return 0, err
		}
		return len(p), nil
	}
	return w.ResponseWriter.Write(p)
}

func (w *absoluteEndpoint) Flush() { w.ResponseWriter.(http.Flusher).Flush() }

// A message over gate's cap on an HTTP+SSE server's stream is read no
// further, and ends the session with that reason; the server is tried
// again, and its other tools served.
func TestSSEOversizedEventCapped(t *testing.T) {
	url, _ := sseUpstream(t, newUpstreamServer(""))
	h := start(t, sseServer("legacy", url), fastConfig().WithMaxMessageBytes(64<<10))
	c := h.client()
	c.WaitTools(t, prefixed("s_", upstreamTools...)...)
	_, err := c.call(t, "s_big", map[string]any{"bytes": 256 << 10})
	require.Error(t, err)
	waitDown(t, h, "legacy", "it sent a message over gate's cap of 65536 bytes")
	// Tried again, it serves: the tools listed just after the down may
	// still be the set from before it, so what is awaited is an answer.
	require.Eventually(t, func() bool {
		res, err := c.call(t, "s_echo", map[string]any{"text": "still here"})
		return err == nil && textOf(res) == "echo: still here"
	}, waitFor, 20*time.Millisecond, "the server was not served again after the oversized message")
	c.WaitTools(t, prefixed("s_", upstreamTools...)...)
}
