package mcpgw_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/require"
)

// heldEnds serves s, and holds the end of every tools/call's answer
// stream (after its answer is written) until end says what to do: it is
// called with the request, and returns when the stream may end.
func heldEnds(s *mcp.Server, end func(*http.Request)) http.Handler {
	inner := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, nil)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(body))
		var msg struct {
			Method string `json:"method"`
		}
		_ = json.Unmarshal(body, &msg)
		inner.ServeHTTP(w, r)
		if r.Method == http.MethodPost && msg.Method == "tools/call" {
			end(r)
		}
	})
}

// A call's answer stream whose end comes just after the call has its
// answer keeps its connection: the next calls reuse it, not one each.
func TestCallStreamEndsAfterAnswerKeepConnection(t *testing.T) {
	const calls = 20
	hold, cut := make(chan struct{}), make(chan struct{}, calls)
	up := countingServer(t, heldEnds(newUpstreamServer(""), func(r *http.Request) {
		select {
		case <-hold:
		case <-r.Context().Done():
			cut <- struct{}{}
		}
	}))
	h := start(t, fmt.Sprintf("[[servers]]\nname = \"web\"\nurl = %q\nprefix = \"w_\"\n", up.url), fastConfig())
	waitOffered(t, h.gw, len(upstreamTools))
	c := h.client()
	call := func() {
		res, err := c.call(t, "w_echo", map[string]any{"text": "hi"})
		require.NoError(t, err)
		require.Equal(t, "echo: hi", textOf(res))
		select { // the stream ends now, or was cut already
		case hold <- struct{}{}:
		case <-cut:
		}
	}
	call()
	before := up.accepted.Load()
	for range calls {
		call()
	}
	opened := up.accepted.Load() - before
	require.Less(t, opened, int64(calls/2),
		"%d calls one by one, each stream ending just after its answer, opened %d connections to the upstream: the stream was cut when the call returned", calls, opened)
}

// A call's answer stream that never ends is cut soon after the call has
// its answer: the call is answered at once, and the upstream's request
// ends though it never ended the stream.
func TestCallStreamNeverEndingIsCut(t *testing.T) {
	ended := make(chan struct{}, 1)
	up := countingServer(t, heldEnds(newUpstreamServer(""), func(r *http.Request) {
		<-r.Context().Done()
		ended <- struct{}{}
	}))
	h := start(t, fmt.Sprintf("[[servers]]\nname = \"web\"\nurl = %q\nprefix = \"w_\"\n", up.url), fastConfig())
	waitOffered(t, h.gw, len(upstreamTools))
	c := h.client()
	res, err := c.call(t, "w_echo", map[string]any{"text": "hi"})
	require.NoError(t, err)
	require.Equal(t, "echo: hi", textOf(res))
	select {
	case <-ended:
	case <-time.After(waitFor):
		t.Fatalf("the stream of an answered call that never ended was still open %v after the call", waitFor)
	}
}
