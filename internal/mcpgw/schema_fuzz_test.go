package mcpgw

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

// FuzzCheckToolAgainstPrev: a tool checked against the last listing's
// check of a tool of its name (prev, which a relisting uses to skip the
// check of a tool listed again unchanged) is checked exactly as it is
// without one: the same definition offered, or the same reason to hide it.
func FuzzCheckToolAgainstPrev(f *testing.F) {
	schema := `{"type":"object","properties":{"q":{"type":"string"}}}`
	f.Add("Search.", []byte(schema), "Search.", []byte(schema))
	f.Add("Search.", []byte(schema), "Search!", []byte(schema))
	f.Add("", []byte(schema), "", []byte(`{"type":"object","properties":{"q":{"type":"integer"}}}`))
	f.Add("d", []byte(schema), "d\u200b", []byte(`{"type":"string"}`))
	f.Fuzz(func(t *testing.T, desc1 string, schema1 []byte, desc2 string, schema2 []byte) {
		var v1, v2 any
		if json.Unmarshal(schema1, &v1) != nil || json.Unmarshal(schema2, &v2) != nil {
			return
		}
		ctx := context.Background()
		first := checkTool(ctx, &mcp.Tool{Name: "t", Description: desc1, InputSchema: v1}, &compileSlot{}, nil)
		second := &mcp.Tool{Name: "t", Description: desc2, InputSchema: v2}
		got := checkTool(ctx, second, &compileSlot{}, map[string]listedTool{"t": first})
		want := checkTool(ctx, second, &compileSlot{}, nil)
		if got.invalid != want.invalid || got.def != want.def || (got.tool == nil) != (want.tool == nil) {
			t.Fatalf("checked against the last check: %q, %s; alone: %q, %s", got.invalid, got.def, want.invalid, want.def)
		}
	})
}
