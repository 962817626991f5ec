package uplink

import (
	"bytes"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// outgoingOf tells each kind of request the SDK's transport sends by its
// id and method.
func TestOutgoingOf(t *testing.T) {
	post := func(body string) *http.Request {
		req, err := http.NewRequest(http.MethodPost, "http://127.0.0.1/mcp", bytes.NewReader([]byte(body)))
		require.NoError(t, err)
		return req
	}
	get, err := http.NewRequest(http.MethodGet, "http://127.0.0.1/mcp", nil)
	require.NoError(t, err)
	del, err := http.NewRequest(http.MethodDelete, "http://127.0.0.1/mcp", nil)
	require.NoError(t, err)
	for _, tc := range []struct {
		name string
		req  *http.Request
		want outgoing
	}{
		{"a forwarded call", post(`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"echo","arguments":{"method":"x","id":1}}}`),
			outgoing{kind: outCall, desc: `"tools/call"`, method: "tools/call", forwarded: true}},
		{"gate's own call", post(`{"jsonrpc":"2.0","id":"a","method":"ping"}`), outgoing{kind: outCall, desc: `"ping"`, method: "ping"}},
		{"a notification", post(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":7}}`),
			outgoing{kind: outNote, desc: `the notification "notifications/cancelled"`, method: "notifications/cancelled"}},
		{"a null id is a notification", post(`{"jsonrpc":"2.0","id":null,"method":"notifications/initialized"}`),
			outgoing{kind: outNote, desc: `the notification "notifications/initialized"`, method: "notifications/initialized"}},
		{"an answer", post(`{"jsonrpc":"2.0","id":3,"result":{"roots":[]}}`), outgoing{kind: outAnswer, desc: "an answer to its request"}},
		{"neither", post(`{"jsonrpc":"2.0"}`), outgoing{kind: outCall, desc: "a request"}},
		{"no JSON", post(`{"jsonrpc":`), outgoing{kind: outCall, desc: "a request"}},
		{"past an answer's size", post(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"x":"` + strings.Repeat("a", MaxAnswer) + `"}}`),
			outgoing{kind: outCall, desc: "a request", forwarded: true}},
		{"the event stream", get, outgoing{kind: outStream, desc: "the request for its event stream"}},
		{"the end", del, outgoing{kind: outEnd, desc: "the end of the session"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			require.Equal(t, tc.want, outgoingOf(tc.req, func(m string) bool { return m == "tools/call" }))
		})
	}
}
