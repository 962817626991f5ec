package mcpgw

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/gate-dev/gate/internal/manifest"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// worstSchemas are the costliest schemas found within the bounds of
// schemaObject (docs/BENCHMARKS.md has the numbers): as many objects as
// allowed, flat or under the deepest nesting allowed, and as many
// patterns as allowed, each a repetition the regexp compiler expands.
func worstSchemas() map[string]string {
	wide := func(n int, v string) string {
		var b strings.Builder
		b.WriteString("{")
		for i := range n {
			if i > 0 {
				b.WriteString(",")
			}
			fmt.Fprintf(&b, `"p%d":%s`, i, v)
		}
		return b.String() + "}"
	}
	return map[string]string{
		"objects":      `{"type":"object","properties":` + wide(maxSchemaObjects-2, "{}") + `}`,
		"objects_deep": `{"type":"object","properties":{"a":` + strings.Repeat(`{"not":`, maxSchemaDepth-6) + `{"properties":` + wide(maxSchemaObjects-maxSchemaDepth, "{}") + `}` + strings.Repeat("}", maxSchemaDepth-6) + "}}",
		"anyOf_deep":   `{"type":"object","properties":{"a":` + strings.Repeat(`{"anyOf":[{},`, maxSchemaDepth/2-3) + `{"properties":` + wide(maxSchemaObjects-maxSchemaDepth*2, "{}") + `}` + strings.Repeat("]}", maxSchemaDepth/2-3) + "}}",
		"patterns":     `{"type":"object","properties":` + wide(maxSchemaPatterns, `{"pattern":"[\\p{L}\\p{N}\\p{S}]{1000}"}`) + `}`,
		"refs":         `{"type":"object","$defs":{"x":{"type":"string"}},"properties":` + wide(maxSchemaObjects-4, `{"$ref":"#/$defs/x"}`) + `}`,
	}
}

// BenchmarkSchemaWorstCase is one compile of each of worstSchemas.
func BenchmarkSchemaWorstCase(b *testing.B) {
	for name, raw := range worstSchemas() {
		b.Run(name, func(b *testing.B) {
			lt := checkTool(context.Background(), &mcp.Tool{Name: "t", InputSchema: json.RawMessage(raw)}, &compileSlot{}, nil)
			if lt.invalid != "" {
				b.Fatalf("not within the bounds: %s", lt.invalid)
			}
			doc, err := jsonschema.UnmarshalJSON(bytes.NewReader([]byte(raw)))
			if err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			b.SetBytes(int64(len(raw)))
			for b.Loop() {
				if err := manifest.CompileSchema(doc.(map[string]any)); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkSchemaRefused is the work checkTool does on a tool it refuses
// before any compile: 26,000 properties (over the size), 4,000 (over the
// objects) and 980 levels of nesting (over the depth).
func BenchmarkSchemaRefused(b *testing.B) {
	props := func(n int) map[string]any {
		m := map[string]any{}
		for i := range n {
			m[fmt.Sprintf("p%d", i)] = map[string]any{}
		}
		return map[string]any{"type": "object", "properties": m}
	}
	var deep any = map[string]any{}
	for range 980 {
		deep = map[string]any{"items": deep}
	}
	for name, schema := range map[string]any{
		"size_26000_properties":   props(26000),
		"objects_4000_properties": props(4000),
		"depth_980":               map[string]any{"type": "object", "properties": map[string]any{"a": deep}},
	} {
		b.Run(name, func(b *testing.B) {
			tool := &mcp.Tool{Name: "t", InputSchema: schema}
			b.ReportAllocs()
			for b.Loop() {
				if lt := checkTool(context.Background(), tool, &compileSlot{}, nil); lt.invalid == "" {
					b.Fatal("offered")
				}
			}
		})
	}
}
