package manifest

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// tool makes a manifest with one tool whose [tools.parameters] table is
// body, starting on line 4.
func tool(body string) string {
	return "[[tools]]\nname = \"t\"\n[tools.parameters]\n" + body
}

func TestParametersMetaSchemaErrors(t *testing.T) {
	for _, tc := range []struct {
		name      string
		src       string
		key       string
		line, col int
		msg       string
	}{
		{
			name: "misspelled type",
			src:  tool("type = \"object\"\nproperties.x.type = \"strin\"\n"),
			key:  "tools[0].parameters.properties.x.type", line: 5, col: 21,
			msg: "invalid JSON Schema: value must be one of 'array', 'boolean', 'integer', 'null', 'number', 'object', 'string'",
		},
		{
			name: "items not a schema",
			src:  tool("type = \"object\"\n[tools.parameters.properties.list]\ntype = \"array\"\nitems = 5\n"),
			key:  "tools[0].parameters.properties.list.items", line: 7, col: 9,
			msg: "invalid JSON Schema: got number, want boolean or object",
		},
		{
			name: "required not an array",
			src:  tool("type = \"object\"\nproperties = { x = { type = \"string\" } }\nrequired = \"x\"\n"),
			key:  "tools[0].parameters.required", line: 6, col: 12,
			msg: "invalid JSON Schema: got string, want array",
		},
		{
			name: "required element not a string",
			src:  tool("type = \"object\"\nrequired = [\"x\", 2]\n"),
			key:  "tools[0].parameters.required[1]", line: 5, col: 18,
			msg: "invalid JSON Schema: got number, want string",
		},
		{
			name: "negative minLength deep in an array schema",
			src:  tool("type = \"object\"\nproperties.tags = { type = \"array\", items = { type = \"string\", minLength = -1 } }\n"),
			key:  "tools[0].parameters.properties.tags.items.minLength", line: 5, col: 76,
			msg: "invalid JSON Schema: minimum: got -1, want 0",
		},
		{
			name: "enum not an array",
			src:  tool("type = \"object\"\nproperties.mode = { type = \"string\", enum = \"fast\" }\n"),
			key:  "tools[0].parameters.properties.mode.enum", line: 5, col: 45,
			msg: "invalid JSON Schema: got string, want array",
		},
		{
			name: "bad regex",
			src:  tool("type = \"object\"\nproperties.id = { type = \"string\", pattern = \"((\" }\n"),
			key:  "tools[0].parameters.properties.id.pattern", line: 5, col: 46,
			msg: "invalid JSON Schema: '((' is not valid regex: error parsing regexp: missing closing ): `((`",
		},
		{
			name: "anyOf element not a schema",
			src:  tool("type = \"object\"\nproperties.v = { anyOf = [{ type = \"string\" }, 3] }\n"),
			key:  "tools[0].parameters.properties.v.anyOf[1]", line: 5, col: 48,
			msg: "invalid JSON Schema: got number, want boolean or object",
		},
		{
			name: "draft-07 from $schema: items as an array is fine, but not a number",
			src:  tool("\"$schema\" = \"http://json-schema.org/draft-07/schema#\"\ntype = \"object\"\nproperties.p = { type = \"array\", items = [{ type = \"string\" }], maxItems = \"2\" }\n"),
			key:  "tools[0].parameters.properties.p.maxItems", line: 6, col: 76,
			msg: "invalid JSON Schema: got string, want integer",
		},
		{
			name: "remote $ref",
			src:  tool("type = \"object\"\nproperties.x = { \"$ref\" = \"https://example.com/x.json\" }\n"),
			key:  `tools[0].parameters.properties.x."$ref"`, line: 5, col: 27,
			msg: `$ref "https://example.com/x.json": gate does not fetch schemas; put it under "$defs" and refer to it as "#/$defs/NAME"`,
		},
		{
			name: "relative $ref",
			src:  tool("type = \"object\"\nproperties.x = { \"$ref\" = \"common.json#/$defs/id\" }\n"),
			key:  `tools[0].parameters.properties.x."$ref"`, line: 5, col: 27,
			msg: `$ref "common.json#/$defs/id": gate does not fetch schemas; put it under "$defs" and refer to it as "#/$defs/NAME"`,
		},
		{
			name: "file $ref",
			src:  tool("type = \"object\"\nproperties.x = { \"$ref\" = \"file:///etc/hostname\" }\n"),
			key:  `tools[0].parameters.properties.x."$ref"`, line: 5, col: 27,
			msg: `$ref "file:///etc/hostname": gate does not fetch schemas; put it under "$defs" and refer to it as "#/$defs/NAME"`,
		},
		{
			name: "local $ref to nothing",
			src:  tool("type = \"object\"\nproperties.x = { \"$ref\" = \"#/$defs/missing\" }\n"),
			key:  `tools[0].parameters.properties.x."$ref"`, line: 5, col: 27,
			msg: `$ref "#/$defs/missing": no such place in this schema`,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			errs := parseErrs(t, tc.src)
			require.Len(t, errs, 1, "%+v", errs)
			e := errs[0]
			assert.Equal(t, tc.key, e.Key)
			assert.Equal(t, Position{File: "gate.toml", Line: tc.line, Col: tc.col}, e.Pos, "%+v", e)
			assert.Equal(t, tc.msg, e.Msg)
		})
	}
}

func TestParametersMetaSchemaValid(t *testing.T) {
	for _, tc := range []struct{ name, src string }{
		{"nested objects", tool(`type = "object"
required = ["user"]
additionalProperties = false
[tools.parameters.properties.user]
type = "object"
description = "Who"
required = ["name"]
properties.name = { type = "string", minLength = 1, maxLength = 64 }
properties.address = { type = "object", properties = { city = { type = "string" }, zip = { type = "string", pattern = "^[0-9]{5}$" } } }
`)},
		{"arrays with items", tool(`type = "object"
properties.tags = { type = "array", items = { type = "string" }, minItems = 1, uniqueItems = true }
properties.matrix = { type = "array", items = { type = "array", items = { type = "number" } } }
properties.pair = { type = "array", prefixItems = [{ type = "string" }, { type = "integer" }], items = false }
`)},
		{"enums and consts", tool(`type = "object"
properties.unit = { type = "string", enum = ["celsius", "fahrenheit"], default = "celsius" }
properties.n = { enum = [1, 2.5, "x", true] }
properties.kind = { const = "v1" }
`)},
		{"anyOf oneOf allOf not", tool(`type = "object"
properties.id = { anyOf = [{ type = "string" }, { type = "integer", minimum = 0 }] }
properties.shape = { oneOf = [{ type = "object", properties = { r = { type = "number" } } }, { type = "null" }] }
properties.both = { allOf = [{ type = "string" }, { not = { const = "" } }] }
properties.t = { type = ["string", "null"], format = "date-time" }
`)},
		{"$defs with local $ref", tool(`type = "object"
properties.from = { "$ref" = "#/$defs/point" }
properties.to = { "$ref" = "#/$defs/point" }
properties.tree = { "$ref" = "#/$defs/node" }
[tools.parameters."$defs".point]
type = "object"
properties = { x = { type = "number" }, y = { type = "number" } }
required = ["x", "y"]
[tools.parameters."$defs".node]
type = "object"
properties = { children = { type = "array", items = { "$ref" = "#/$defs/node" } } }
`)},
		{"draft-07 schema with definitions", tool(`"$schema" = "http://json-schema.org/draft-07/schema#"
type = "object"
properties.p = { "$ref" = "#/definitions/p" }
properties.list = { type = "array", items = [{ type = "string" }], additionalItems = false }
definitions.p = { type = "string", format = "uri" }
`)},
		{"unknown $schema is checked as 2020-12", tool(`"$schema" = "https://example.com/my-dialect"
type = "object"
properties.q = { type = "string" }
`)},
		{"unknown keywords are allowed", tool(`type = "object"
properties.q = { type = "string", "x-order" = 1, examples = ["a"] }
`)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, err := Parse("gate.toml", []byte(tc.src))
			require.NoError(t, err, "%+v", err)
			require.Len(t, m.Tools, 1)
			assert.NotEmpty(t, m.Tools[0].Parameters)
		})
	}
}

// TestParametersNeverFetch checks that a $ref (or $schema) naming a URL
// is an error and not a request, whatever the URL: a manifest must not
// make gate talk to the network or read other files.
func TestParametersNeverFetch(t *testing.T) {
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		w.Header().Set("Content-Type", "application/schema+json")
		_, _ = w.Write([]byte(`{"type": "string"}`))
	}))
	defer srv.Close()
	file := filepath.Join(t.TempDir(), "s.json")
	require.NoError(t, os.WriteFile(file, []byte(`{"type": "string"}`), 0o644))

	for _, ref := range []string{srv.URL + "/s.json", "file://" + filepath.ToSlash(file), file} {
		errs := parseErrs(t, tool("type = \"object\"\nproperties.x = { \"$ref\" = \""+ref+"\" }\n"))
		require.Len(t, errs, 1)
		assert.Contains(t, errs[0].Msg, "gate does not fetch schemas", ref)
	}
	_, _ = Parse("gate.toml", []byte(tool("type = \"object\"\n\"$vocabulary\" = { \""+srv.URL+"/vocab\" = true }\n")))
	_, err := Parse("gate.toml", []byte(tool("\"$schema\" = \""+srv.URL+"/schema\"\ntype = \"object\"\n")))
	assert.NoError(t, err, "an unknown $schema is checked as 2020-12, not fetched")
	assert.Zero(t, hits.Load(), "the server was asked")
}

// TestParametersTopLevelChecksStay checks that the checks of the top
// (type "object") still come first, and that a schema that JSON cannot
// carry is not also reported by the meta-schema check.
func TestParametersTopLevelChecksStay(t *testing.T) {
	errs := parseErrs(t, tool("type = \"string\"\n"))
	require.Len(t, errs, 1)
	assert.Equal(t, "tools[0].parameters.type", errs[0].Key)
	assert.Contains(t, errs[0].Msg, `want "object"`)

	errs = parseErrs(t, tool("type = \"object\"\nproperties.x = { type = \"number\", maximum = inf }\n"))
	require.Len(t, errs, 1)
	assert.Contains(t, errs[0].Msg, "JSON has no NaN or infinity")
}
