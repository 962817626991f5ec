package mcpgw

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/gate-dev/gate/internal/safetext"
	"github.com/gate-dev/gate/internal/uplink"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// Bounds of one tool schema (input or output), checked on its bytes before
// it is decoded for the compiler. The JSON Schema compiler's cost grows
// with the square of a schema's subschemas and faster than the cube of its
// nesting; within these bounds its worst case is a fraction of a second
// (docs/BENCHMARKS.md, "What compiling a tool schema costs"), so the work
// an upstream can make gate do stays proportional to what it sends.
const (
	// maxSchemaDepth is how deeply objects and arrays may nest in a
	// schema: real ones nest a dozen levels.
	maxSchemaDepth = 64
	// maxSchemaObjects is how many JSON objects a schema may hold:
	// subschemas, the maps of properties, and any other.
	maxSchemaObjects = 2048
	// maxSchemaPatterns is how many regular expressions a schema may
	// hold ("pattern" keywords and patternProperties names): each is
	// compiled, and a repetition such as {1000} makes one large.
	maxSchemaPatterns = 256
)

// compileTimeout bounds the CPU time of one schema compile (see
// compileSlot): within the bounds above, a compile takes a fraction of
// it. A variable so that tests can shorten it.
var compileTimeout = 2 * time.Second

// schemaObject returns a schema given as any JSON value as the raw JSON of
// an object, cleaned (see cleanSchema), after checking its bounds, that an
// input schema's type is "object", and that it compiles as a JSON Schema
// offline (draft 2020-12 unless it says otherwise, no remote references)
// within compileTimeout; slot makes an upstream's compiles one at a time.
func schemaObject(ctx context.Context, v any, input bool, slot *compileSlot) (json.RawMessage, error) {
	raw, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("cannot be written as JSON: %v", err)
	}
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || raw[0] != '{' {
		return nil, errors.New("is not a JSON object")
	}
	depth, objects := uplink.JSONShape(raw)
	switch {
	case depth > maxSchemaDepth:
		return nil, fmt.Errorf("nests %d deep, over the gateway's %d", depth, maxSchemaDepth)
	case objects > maxSchemaObjects:
		return nil, fmt.Errorf("has %d objects, over the gateway's %d", objects, maxSchemaObjects)
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return nil, fmt.Errorf("is not JSON: %v", err)
	}
	m, _ := doc.(map[string]any)
	if input && m["type"] != "object" {
		return nil, fmt.Errorf(`has type %s: MCP wants "object"`, describeType(m["type"]))
	}
	sc := schemaCleaner{}
	if err := sc.schema(m, ""); err != nil {
		return nil, err
	}
	if sc.patterns > maxSchemaPatterns {
		return nil, fmt.Errorf("has %d patterns, over the gateway's %d", sc.patterns, maxSchemaPatterns)
	}
	if sc.changed {
		if raw, err = json.Marshal(m); err != nil {
			return nil, fmt.Errorf("cannot be written as JSON: %v", err)
		}
	}
	if err := slot.compile(ctx, raw, m); err != nil {
		return nil, err
	}
	return raw, nil
}

func describeType(v any) string {
	if v == nil {
		return "unset"
	}
	b, _ := json.Marshal(v)
	return safetext.Terminal(string(b))
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	return safetext.Clean(s, false)
}
