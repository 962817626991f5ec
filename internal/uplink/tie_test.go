package uplink

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func tiedElicit(method string) bool { return method == "elicitation/create" }

// metaOf is the _meta of the request in an event, as the SDK decodes it.
func metaOf(t *testing.T, event []byte) map[string]any {
	t.Helper()
	msg, first, _ := eventData(event)
	require.GreaterOrEqual(t, first, 0, "no data in %q", event)
	m, err := jsonrpc.DecodeMessage(msg)
	require.NoError(t, err)
	req, ok := m.(*jsonrpc.Request)
	require.True(t, ok, "%q is no request", msg)
	meta, err := sdkMeta(req.Params)
	require.NoError(t, err)
	return meta
}

// sdkMeta is the _meta of params as the SDK reads it: the member spelled
// "_meta" (its decoder matches names exactly), the last of them.
func sdkMeta(params json.RawMessage) (map[string]any, error) {
	var p map[string]json.RawMessage
	if err := json.Unmarshal(params, &p); err != nil {
		return nil, err
	}
	var meta map[string]any
	if raw, ok := p["_meta"]; ok {
		if err := json.Unmarshal(raw, &meta); err != nil {
			return nil, err
		}
	}
	return meta, nil
}

// A request of a tied method on a call's stream is marked with the
// stream's token, over whatever the upstream put in its _meta; Of takes
// the token back out and names the call while the stream is open, and
// no call once it has ended. Anything else passes as it came.
func TestTieMarksRequestsOfACallsStream(t *testing.T) {
	ties := NewTies(tiedElicit)
	token, end := ties.stream("call-A")
	forged := `"` + TieKey + `":"` + strings.Repeat("0", len(ties.secret)) + `.1"`

	marked := []struct {
		name, event string
	}{
		{"plain", `data: {"jsonrpc":"2.0","id":7,"method":"elicitation/create","params":{"message":"m"}}` + "\n\n"},
		{"string id, no params", `data: {"jsonrpc":"2.0","id":"x","method":"elicitation/create"}` + "\n\n"},
		{"its own meta and token", `data: {"jsonrpc":"2.0","id":1,"method":"elicitation/create","params":{"_meta":{"k":1,` + forged + `}}}` + "\n\n"},
		{"a _meta spelled otherwise", `data: {"jsonrpc":"2.0","id":1,"method":"elicitation/create","params":{"_META":{` + forged + `},"_Meta":{` + forged + `}}}` + "\n\n"},
		{"split data, named", "event: message\nid: 3\ndata: {\"jsonrpc\":\"2.0\",\"id\":1,\ndata: \"method\":\"elicitation/create\",\"params\":{}}\n\n"},
	}
	for _, tt := range marked {
		t.Run(tt.name, func(t *testing.T) {
			out := ties.mark([]byte(tt.event), token, 1<<20)
			meta := metaOf(t, out)
			call, tied := ties.Of(meta)
			assert.True(t, tied)
			assert.Equal(t, "call-A", call)
			assert.NotContains(t, meta, TieKey, "the token was left in the request")
			assert.Equal(t, token, metaOf(t, out)[TieKey], "the SDK reads another _meta")
		})
	}

	unmarked := []struct {
		name, event string
	}{
		{"an answer", `data: {"jsonrpc":"2.0","id":7,"result":{"method":"elicitation/create"}}` + "\n\n"},
		{"a notification", `data: {"jsonrpc":"2.0","method":"elicitation/create","params":{}}` + "\n\n"},
		{"an untied method", `data: {"jsonrpc":"2.0","id":1,"method":"roots/list","params":{}}` + "\n\n"},
		{"params no object", `data: {"jsonrpc":"2.0","id":1,"method":"elicitation/create","params":[1]}` + "\n\n"},
		{"_meta no object", `data: {"jsonrpc":"2.0","id":1,"method":"elicitation/create","params":{"_meta":"x"}}` + "\n\n"},
		{"no JSON-RPC", `data: {"id":1,"method":"elicitation/create"}` + "\n\n"},
		{"not JSON", "data: \"method\" {\n\n"},
		{"no data", ": \"method\"\n\n"},
	}
	for _, tt := range unmarked {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.event, string(ties.mark([]byte(tt.event), token, 1<<20)))
		})
	}
	t.Run("past the cap", func(t *testing.T) {
		ev := marked[0].event
		assert.Equal(t, ev, string(ties.mark([]byte(ev), token, len(ev))))
	})

	t.Run("forged, or on no stream", func(t *testing.T) {
		for _, v := range []any{strings.Repeat("0", len(ties.secret)) + ".1", ties.secret, ties.secret + ".x", ties.secret + "1", 1, nil} {
			meta := map[string]any{TieKey: v}
			call, tied := ties.Of(meta)
			assert.False(t, tied, "%v", v)
			assert.Nil(t, call)
			assert.Empty(t, meta)
		}
		call, tied := (*Ties)(nil).Of(map[string]any{TieKey: token})
		assert.False(t, tied)
		assert.Nil(t, call)
	})

	end()
	call, tied := ties.Of(map[string]any{TieKey: token})
	assert.True(t, tied, "a token of gate's names its stream after it ended")
	assert.Nil(t, call, "a stream that ended still names its call")
	assert.Zero(t, ties.Open())
}

// Over HTTP, the event stream of a POST whose context carries a call has
// its requests tied to that call while the body is open, and its entry
// is gone once the body is closed; a GET's stream, and a POST without a
// call, are tied to nothing.
func TestTieFollowsThePostOfTheCall(t *testing.T) {
	const event = `data: {"jsonrpc":"2.0","id":1,"method":"elicitation/create","params":{"message":"m"}}` + "\n\n"
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		_, _ = io.WriteString(w, event)
	}))
	defer srv.Close()
	ties := NewTies(tiedElicit)
	tr := fitTransport{base: srv.Client().Transport, max: 1 << 20, ties: ties}

	send := func(method string, ctx context.Context) (string, func()) {
		req, err := http.NewRequestWithContext(ctx, method, srv.URL, strings.NewReader(`{}`))
		require.NoError(t, err)
		resp, err := tr.RoundTrip(req)
		require.NoError(t, err)
		b, err := io.ReadAll(resp.Body)
		require.NoError(t, err)
		return string(b), func() { _ = resp.Body.Close() }
	}

	got, closeBody := send(http.MethodPost, WithCall(context.Background(), "call-A"))
	assert.Equal(t, 1, ties.Open())
	call, tied := ties.Of(metaOf(t, []byte(got)))
	assert.True(t, tied)
	assert.Equal(t, "call-A", call)
	closeBody()
	assert.Zero(t, ties.Open(), "the stream's entry outlived its body")

	for _, c := range []struct {
		method string
		ctx    context.Context
	}{
		{http.MethodGet, WithCall(context.Background(), "call-A")},
		{http.MethodPost, context.Background()},
	} {
		got, closeBody := send(c.method, c.ctx)
		assert.Equal(t, event, got, fmt.Sprintf("%s tied", c.method))
		closeBody()
	}
	assert.Zero(t, ties.Open())
}
