package uplink

import (
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// Whatever event a call's stream brings, mark returns it as it came or
// marked, never a panic; a marked one is, as the SDK decodes it, the same
// request (id, method) with gate's token in the _meta it reads, and no
// longer than the cap.
func FuzzTieMark(f *testing.F) {
	for _, s := range []string{
		`data: {"jsonrpc":"2.0","id":7,"method":"elicitation/create","params":{"message":"m"}}` + "\n\n",
		`data: {"jsonrpc":"2.0","id":"7","method":"elicitation/create","params":{"_meta":{"gate.dev/tie":"x"},"_META":{}}}` + "\n\n",
		"event: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":1,\ndata: \"method\":\"elicitation/create\"}\n\n",
		`data: {"jsonrpc":"2.0","id":null,"method":"elicitation/create"}` + "\n\n",
		`data: {"jsonrpc":"2.0","id":1.5,"method":"elicitation/create","params":null}` + "\n\n",
		`data: {"jsonrpc":"2.0","id":1,"result":{}}` + "\n\n",
		"data: \"method\"\r\n\r\n",
	} {
		f.Add([]byte(s))
	}
	ties := NewTies(tiedElicit)
	token, end := ties.stream("call")
	defer end()
	const max = 4 << 10
	f.Fuzz(func(t *testing.T, event []byte) {
		out := ties.mark(event, token, max)
		if string(out) == string(event) {
			return
		}
		if len(out) > max {
			t.Fatalf("marked past the cap: %d bytes", len(out))
		}
		inMsg, _, _ := eventData(event)
		outMsg, first, _ := eventData(out)
		if first < 0 {
			t.Fatalf("marked %q into no data: %q", event, out)
		}
		in, err := jsonrpc.DecodeMessage(inMsg)
		if err != nil {
			t.Fatalf("marked %q, which the SDK does not decode", event)
		}
		m, err := jsonrpc.DecodeMessage(outMsg)
		if err != nil {
			t.Fatalf("marked %q into %q, which the SDK does not decode: %v", event, out, err)
		}
		req, ok := m.(*jsonrpc.Request)
		was := in.(*jsonrpc.Request)
		if !ok || req.ID != was.ID || req.Method != was.Method {
			t.Fatalf("marked %q into another message: %q", event, out)
		}
		if meta, err := sdkMeta(req.Params); err != nil || meta[TieKey] != token {
			t.Fatalf("marked %q without the token where the SDK reads it: %q", event, out)
		}
	})
}
