package gateway

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/gate-dev/gate/internal/safetext"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// FuzzCheckTool: whatever a tool's description and input schema, checking
// it never panics and either hides it with why or offers a definition in
// which no string and no name holds a character safetext's rule refuses
// (prose cleaned, names and contracts refused when not clean); checking
// what it offers again offers the same.
func FuzzCheckTool(f *testing.F) {
	for _, s := range []struct{ desc, schema string }{
		{"Search.", `{"type":"object","properties":{"q":{"type":"string","description":"What."}}}`},
		{"d\u200b", `{"type":"object","title":"t\u202e","examples":[{"a":"b\U000E0041"}],"x-y":["\u3164"]}`},
		{"", `{"type":"object","properties":{"a\u200b":{}}}`},
		{"", `{"type":"object","$defs":{"d":{"enum":["\uFE0F"]}},"items":[{"description":"\u2060"}]}`},
		{"", `{"type":"object","dependencies":{"a":["b"],"c":{"description":"\u00AD"}},"patternProperties":{"^a$":{}}}`},
		{"", `{"type":"string"}`},
		{"", `[]`},
	} {
		f.Add(s.desc, []byte(s.schema))
	}
	f.Fuzz(func(t *testing.T, desc string, schema []byte) {
		var v any
		if json.Unmarshal(schema, &v) != nil {
			return
		}
		lt := checkTool(context.Background(), &mcp.Tool{Name: "t", Description: desc, InputSchema: v}, &compileSlot{}, nil)
		if lt.tool == nil {
			if lt.invalid == "" {
				t.Fatal("hidden without a reason")
			}
			return
		}
		var def any
		if err := json.Unmarshal([]byte(lt.def), &def); err != nil {
			t.Fatalf("the definition is not JSON: %v", err)
		}
		if where := refusedIn(def); where != "" {
			t.Fatalf("the definition offered holds %s: %s", where, lt.def)
		}
		again := checkTool(context.Background(), lt.tool, &compileSlot{}, nil)
		if again.invalid != "" || again.def != lt.def {
			t.Fatalf("checked again: %q, %s; first %s", again.invalid, again.def, lt.def)
		}
	})
}

// refusedIn returns a string or name in v that the rule does not keep.
func refusedIn(v any) string {
	switch v := v.(type) {
	case string:
		if safetext.IndexRefused(v, true) >= 0 {
			return "the string " + safetext.Terminal(v)
		}
	case []any:
		for _, e := range v {
			if w := refusedIn(e); w != "" {
				return w
			}
		}
	case map[string]any:
		for k, e := range v {
			if safetext.IndexRefused(k, false) >= 0 {
				return "the name " + safetext.Terminal(k)
			}
			if w := refusedIn(e); w != "" {
				return w
			}
		}
	}
	return ""
}
