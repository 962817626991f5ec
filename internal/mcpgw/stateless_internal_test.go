package mcpgw

import (
	"bytes"
	"testing"

	segjson "github.com/segmentio/encoding/json"
	"github.com/stretchr/testify/assert"
)

// A sessionless POST goes to the stateless handler when its header or a
// call's _meta names 2026-07-28 or later, as the SDK reads them: the exact
// key, a string value; a listen is told apart from a request.
func TestRouteStateless(t *testing.T) {
	call := func(method, meta string) string {
		return `{"jsonrpc":"2.0","id":1,"method":"` + method + `","params":{"_meta":` + meta + `}}`
	}
	v26 := `{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}`
	for _, tc := range []struct {
		name, header, body string
		want               statelessKind
	}{
		{"header", "2026-07-28", call("tools/list", `{}`), statelessKind{stateless: true}},
		{"a later header", "2027-01-01", call("tools/list", `{}`), statelessKind{stateless: true}},
		{"an older header", "2025-11-25", call("tools/list", `{}`), statelessKind{}},
		{"_meta alone", "", call("tools/list", v26), statelessKind{stateless: true}},
		{"_meta in a batch", "", `[` + call("ping", `{}`) + `,` + call("tools/list", v26) + `]`, statelessKind{stateless: true}},
		{"listen", "2026-07-28", call("subscriptions/listen", v26), statelessKind{stateless: true, listen: true}},
		{"initialize", "", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2026-07-28"}}`, statelessKind{}},
		{"the key in another case", "", call("tools/list", `{"io.modelcontextprotocol/ProtocolVersion":"2026-07-28"}`), statelessKind{}},
		{"a number for the version", "", call("tools/list", `{"io.modelcontextprotocol/protocolVersion":20260728}`), statelessKind{}},
		// The SDK matches the params' keys in their case only: a _meta
		// spelled otherwise names no version to it.
		{"_meta in another case", "", `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_META":` + v26 + `}}`, statelessKind{}},
		{"_meta, then in another case", "", `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{},"_Meta":` + v26 + `}}`, statelessKind{}},
		// Twice: the objects are merged, as Go's decoders fill one map.
		{"_meta twice, the version in the first", "", `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":` + v26 + `,"_meta":{"x":1}}}`, statelessKind{stateless: true}},
		{"_meta twice, the second null", "", `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":` + v26 + `,"_meta":null}}`, statelessKind{}},
		{"_meta not an object", "", `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":"2026-07-28"}}`, statelessKind{}},
		{"a notification", "", `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"_meta":` + v26 + `}}`, statelessKind{}},
		{"not JSON", "", `{"jsonrpc":`, statelessKind{}},
		{"empty", "", ``, statelessKind{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, routeStateless(tc.header, []byte(tc.body)))
		})
	}
}

// routeStateless never panics, and a body it sends to the stateless
// handler without the header names the version in a call's _meta.
func FuzzRouteStateless(f *testing.F) {
	f.Add([]byte(`{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}`))
	f.Add([]byte(`[{"jsonrpc":"2.0","id":1,"method":"subscriptions/listen","params":{}}]`))
	f.Add([]byte(`{"jsonrpc":"2.0","id":1,"method":"initialize"}`))
	f.Fuzz(func(t *testing.T, body []byte) {
		k := routeStateless("", body)
		if !k.stateless {
			return
		}
		named := false
		for _, req := range calls(body) {
			var p struct {
				Meta map[string]any `json:"_meta"`
			}
			dec := segjson.NewDecoder(bytes.NewReader(req.Params))
			dec.DontMatchCaseInsensitiveStructFields()
			if dec.Decode(&p) == nil {
				if v, ok := p.Meta["io.modelcontextprotocol/protocolVersion"].(string); ok && v >= firstStatelessVersion {
					named = true
				}
			}
		}
		if !named {
			t.Fatalf("routed to the stateless handler without a version: %q", body)
		}
	})
}
