package manifest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"sort"
	"strconv"
	"testing"
	"time"

	"github.com/pelletier/go-toml/v2"
	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// libraryValid is what the library decides for params: valid against
// its draft's meta-schema (2020-12 unless "$schema" names another) and,
// when it has references, compiled without error. It is the oracle the
// quick check is checked against.
func libraryValid(t testing.TB, params map[string]any) bool {
	t.Helper()
	draft := jsonschema.Draft2020.String()
	if s, ok := params["$schema"].(string); ok && knownDraft(s) {
		draft = s
	}
	meta, err := metaSchemaOf(draft)
	require.NoError(t, err)
	if validateSafely(meta, params) != nil {
		return false
	}
	if !hasRefs(params) {
		return true
	}
	doc := params
	if s, ok := params["$schema"].(string); ok && !knownDraft(s) {
		doc = map[string]any{}
		for k, v := range params {
			if k != "$schema" {
				doc[k] = v
			}
		}
	}
	return CompileSchema(doc) == nil
}

// checkFastAgrees fails when the quick check says valid and the library
// does not: the one thing the quick check must never do.
func checkFastAgrees(t testing.TB, params map[string]any) bool {
	t.Helper()
	fast := fastMetaValid(params)
	if fast && !plainValue(params) {
		t.Fatalf("fastMetaValid says valid for values JSON cannot carry: %#v", params)
	}
	if fast && !libraryValid(t, params) {
		t.Fatalf("fastMetaValid says valid, the library does not: %s", mustJSON(params))
	}
	return fast
}

func mustJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprintf("%#v", v)
	}
	return string(b)
}

// fromJSON decodes a JSON object into the values a manifest's
// parameters hold: numbers as int64 when they are integers that fit, else
// float64. It returns false for input that is not a JSON object.
func fromJSON(src []byte) (map[string]any, bool) {
	dec := json.NewDecoder(bytes.NewReader(src))
	dec.UseNumber()
	var v any
	if dec.Decode(&v) != nil {
		return nil, false
	}
	m, ok := manifestValue(v).(map[string]any)
	return m, ok
}

func manifestValue(v any) any {
	switch t := v.(type) {
	case json.Number:
		if n, err := strconv.ParseInt(string(t), 10, 64); err == nil {
			return n
		}
		f, err := strconv.ParseFloat(string(t), 64)
		if err != nil || math.IsInf(f, 0) {
			return string(t)
		}
		return f
	case []any:
		for i, el := range t {
			t[i] = manifestValue(el)
		}
	case map[string]any:
		for k, el := range t {
			t[k] = manifestValue(el)
		}
	}
	return v
}

// fastMetaCases are schemas with what the quick check must say: true only
// for schemas it can vouch for; false for those outside its subset (the
// library decides) and for invalid ones (the library reports them).
var fastMetaCases = []struct {
	name   string
	schema string
	fast   bool
	// invalid is the library's verdict.
	invalid bool
}{
	{"genTools shape", `{"type":"object","required":["query"],"properties":{"query":{"type":"string","description":"What to look for."},"limit":{"type":"integer","minimum":1,"maximum":100,"default":10}}}`, true, false},
	{"empty", `{}`, true, false},
	{"nested objects and arrays", `{"type":"object","additionalProperties":false,"properties":{"user":{"type":"object","required":["name"],"properties":{"name":{"type":"string","minLength":1,"maxLength":64},"tags":{"type":"array","items":{"type":"string"},"minItems":1,"uniqueItems":true}}}}}`, true, false},
	{"enum const examples", `{"type":"object","properties":{"u":{"enum":["c","f",1,2.5,true,[1],{"a":1}],"default":"c","examples":["c"]},"k":{"const":{"x":[1,2]}}}}`, true, false},
	{"combinators", `{"anyOf":[{"type":"string"},{"type":"integer","minimum":0}],"oneOf":[true,false],"allOf":[{"not":{"const":""}}],"if":{"type":"string"},"then":{"minLength":1},"else":true}`, true, false},
	{"type array", `{"type":["string","null"],"format":"date-time"}`, true, false},
	{"pattern and patternProperties", `{"type":"object","properties":{"zip":{"type":"string","pattern":"^[0-9]{5}$"}},"patternProperties":{"^x-":{"type":"string"}}}`, true, false},
	{"numbers", `{"multipleOf":0.5,"exclusiveMinimum":-1,"exclusiveMaximum":1.5,"minProperties":0,"maxProperties":3,"minContains":1,"maxContains":2,"contains":{"type":"string"}}`, true, false},
	{"annotations", `{"title":"t","description":"d","deprecated":false,"readOnly":true,"writeOnly":false,"contentEncoding":"base64","contentMediaType":"text/plain","contentSchema":{"type":"string"}}`, true, false},
	{"applicators", `{"prefixItems":[{"type":"string"}],"items":false,"propertyNames":{"maxLength":3},"dependentSchemas":{"a":{"required":["b"]}},"dependentRequired":{"a":["b","c"]},"unevaluatedItems":false,"unevaluatedProperties":{"type":"string"}}`, true, false},
	{"unknown keywords", `{"type":"object","x-order":1,"nullable":true,"additionalItems":5,"discriminator":{"propertyName":"kind"}}`, true, false},

	// Outside the subset: the library decides, and finds these valid.
	{"$schema", `{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object"}`, false, false},
	{"$defs and $ref", `{"type":"object","properties":{"p":{"$ref":"#/$defs/p"}},"$defs":{"p":{"type":"string"}}}`, false, false},
	{"$comment", `{"$comment":"x","type":"object"}`, false, false},
	{"definitions", `{"definitions":{"p":{"type":"string"}}}`, false, false},
	{"dependencies", `{"dependencies":{"a":["b"]}}`, false, false},
	{"property named $ref", `{"properties":{"$ref":{"type":"string"}}}`, false, false},
	{"$ref inside a default", `{"default":{"$ref":"#"}}`, false, false},
	{"$ref inside an unknown keyword", `{"x-extra":{"$ref":"https://example.com/x"}}`, false, false},
	{"float length", `{"minLength":2.0}`, false, false},

	// Invalid: the library reports these.
	{"misspelled type", `{"type":"strin"}`, false, true},
	{"empty type array", `{"type":[]}`, false, true},
	{"duplicate types", `{"type":["string","string"]}`, false, true},
	{"type not a string", `{"type":5}`, false, true},
	{"items not a schema", `{"items":5}`, false, true},
	{"property not a schema", `{"properties":{"x":"string"}}`, false, true},
	{"properties not an object", `{"properties":[]}`, false, true},
	{"required not an array", `{"required":"x"}`, false, true},
	{"required element not a string", `{"required":["x",2]}`, false, true},
	{"required twice", `{"required":["x","x"]}`, false, true},
	{"negative minLength", `{"minLength":-1}`, false, true},
	{"fractional maxItems", `{"maxItems":1.5}`, false, true},
	{"multipleOf zero", `{"multipleOf":0}`, false, true},
	{"maximum a string", `{"maximum":"5"}`, false, true},
	{"enum not an array", `{"enum":"fast"}`, false, true},
	{"examples not an array", `{"examples":"x"}`, false, true},
	{"bad regex", `{"pattern":"(("}`, false, true},
	{"bad regex key", `{"patternProperties":{"((":true}}`, false, true},
	{"empty anyOf", `{"anyOf":[]}`, false, true},
	{"anyOf element not a schema", `{"anyOf":[{"type":"string"},3]}`, false, true},
	{"uniqueItems a string", `{"uniqueItems":"yes"}`, false, true},
	{"description a number", `{"description":1}`, false, true},
	{"format a bool", `{"format":true}`, false, true},
	{"dependentRequired not arrays", `{"dependentRequired":{"a":"b"}}`, false, true},
	{"deep mistake", `{"properties":{"a":{"items":{"properties":{"b":{"type":"strin"}}}}}}`, false, true},
}

func TestFastMetaSchema(t *testing.T) {
	for _, tc := range fastMetaCases {
		t.Run(tc.name, func(t *testing.T) {
			params, ok := fromJSON([]byte(tc.schema))
			require.True(t, ok, tc.schema)
			assert.Equal(t, tc.fast, checkFastAgrees(t, params), tc.schema)
		})
	}
}

// TestFastMetaSchemaLibraryVerdicts pins what the library says of the
// cases the quick check sends it, so that the table above means what its
// comments say: the cases outside the subset are valid (the quick check is
// only conservative there), the others invalid.
func TestFastMetaSchemaLibraryVerdicts(t *testing.T) {
	for _, tc := range fastMetaCases {
		params, _ := fromJSON([]byte(tc.schema))
		assert.Equal(t, !tc.invalid, libraryValid(t, params), tc.name)
	}
}

// TestFastMetaKnowsEveryKeyword checks every keyword the 2020-12
// meta-schema defines against a pool of values: whenever the library
// refuses {keyword: value}, the quick check must not accept it. A keyword
// the quick check forgot would be taken as unconstrained, and fail here.
func TestFastMetaKnowsEveryKeyword(t *testing.T) {
	meta, err := metaSchemaOf(jsonschema.Draft2020.String())
	require.NoError(t, err)
	keywords := map[string]bool{}
	var collect func(s *jsonschema.Schema, depth int)
	collect = func(s *jsonschema.Schema, depth int) {
		if s == nil || depth > 2 {
			return
		}
		for k := range s.Properties {
			keywords[k] = true
		}
		for _, sub := range s.AllOf {
			collect(sub, depth+1)
		}
		collect(s.Ref, depth+1)
	}
	collect(meta, 0)
	require.Greater(t, len(keywords), 50, "the meta-schema's keywords were not found")
	for _, k := range []string{"type", "properties", "required", "minLength", "pattern", "$ref", "definitions", "contentSchema"} {
		require.True(t, keywords[k], k)
	}
	pool := []any{
		"x", "string", "((", "", int64(-1), int64(0), int64(1), 1.5, -0.5, 0.0, true, false,
		[]any{}, []any{"a"}, []any{"a", "a"}, []any{int64(1)}, []any{map[string]any{}}, []any{true, int64(2)},
		map[string]any{}, map[string]any{"a": int64(1)}, map[string]any{"a": "b"}, map[string]any{"a": []any{"b"}},
		map[string]any{"a": map[string]any{}}, map[string]any{"((": true}, map[string]any{"type": "strin"},
	}
	sorted := make([]string, 0, len(keywords))
	for k := range keywords {
		sorted = append(sorted, k)
	}
	sort.Strings(sorted)
	refused := 0
	for _, k := range sorted {
		for _, v := range pool {
			params := map[string]any{k: v}
			if !libraryValid(t, params) {
				refused++
				assert.False(t, fastMetaValid(params), "fast path accepts %s", mustJSON(params))
			}
		}
	}
	assert.Greater(t, refused, 100, "the pool should break most keywords' rules")
}

// FuzzFastMetaSchema checks, on JSON schemas, that fastMetaValid never
// says valid when the library says invalid. The seeds are the schemas of
// the tests and of the manifests in testdata.
func FuzzFastMetaSchema(f *testing.F) {
	for _, tc := range fastMetaCases {
		f.Add([]byte(tc.schema))
	}
	// Every keyword with a value at the edge of most rules, so that one
	// mutation breaks it.
	for _, k := range genKeywords {
		for _, v := range []string{`0`, `""`, `{}`} {
			f.Add([]byte(`{"type":"object",` + strconv.Quote(k) + `:` + v + `}`))
		}
	}
	for _, file := range corpus(f, "valid") {
		src, err := os.ReadFile(file)
		require.NoError(f, err)
		if m, errs, _ := parse("gate.toml", src); len(errs) == 0 {
			for _, tool := range m.Tools {
				if tool.Parameters != nil {
					f.Add([]byte(mustJSON(tool.Parameters)))
				}
			}
		}
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		if params, ok := fromJSON(src); ok {
			checkFastAgrees(t, params)
		}
	})
}

// FuzzFastMetaSchemaGen checks the same property on schemas built from
// the fuzzer's bytes out of the meta-schema's own keywords and values
// near their rules' edges, which random JSON seldom reaches.
func FuzzFastMetaSchemaGen(f *testing.F) {
	for _, seed := range []string{"", "\x00\x01\x02", "\x05\x11\x07\x21\x03", "\x30\x31\x32\x33\x34\x35\x36\x37\x38\x39\x3a\x3b"} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, prog []byte) {
		g := &schemaGen{prog: prog}
		params, _ := g.schema(0).(map[string]any)
		if params == nil {
			params = map[string]any{}
		}
		checkFastAgrees(t, params)
	})
}

// schemaGen builds a schema from bytes.
type schemaGen struct {
	prog []byte
	i    int
}

func (g *schemaGen) next() int {
	if g.i >= len(g.prog) {
		return 0
	}
	g.i++
	return int(g.prog[g.i-1])
}

var genKeywords = []string{
	"type", "properties", "required", "description", "title", "enum", "const", "default", "examples",
	"items", "additionalProperties", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum",
	"multipleOf", "minLength", "maxLength", "minItems", "maxItems", "minProperties", "maxProperties",
	"minContains", "maxContains", "contains", "uniqueItems", "pattern", "patternProperties", "format",
	"anyOf", "oneOf", "allOf", "not", "if", "then", "else", "prefixItems", "propertyNames",
	"dependentSchemas", "dependentRequired", "unevaluatedItems", "unevaluatedProperties",
	"contentEncoding", "contentMediaType", "contentSchema", "deprecated", "readOnly", "writeOnly",
	"definitions", "dependencies", "$ref", "$defs", "$schema", "$id", "$anchor", "$comment",
	"additionalItems", "x-order", "",
}

var genStrings = []string{
	"object", "string", "integer", "number", "array", "boolean", "null", "strin", "", "x", "a",
	"((", "^a+$", "#", "#/$defs/a", "https://json-schema.org/draft/2020-12/schema",
	"http://json-schema.org/draft-07/schema#", "date-time",
}

// schema is a schema (usually an object) of up to 8 keywords.
func (g *schemaGen) schema(depth int) any {
	op := g.next()
	if op%16 == 15 || depth > 4 {
		return op%2 == 0
	}
	m := map[string]any{}
	for n := op % 8; n > 0; n-- {
		k := genKeywords[g.next()%len(genKeywords)]
		m[k] = g.value(depth + 1)
	}
	return m
}

// value is any value, biased towards schemas and the shapes keywords
// take.
func (g *schemaGen) value(depth int) any {
	switch op := g.next(); op % 12 {
	case 0, 1, 2:
		return g.schema(depth)
	case 3:
		return genStrings[g.next()%len(genStrings)]
	case 4:
		return int64(g.next()%5) - 1
	case 5:
		return []float64{0, 0.5, -0.5, 2, 1e300}[g.next()%5]
	case 6:
		return g.next()%2 == 0
	case 7, 8:
		a := []any{}
		for n := g.next() % 4; n > 0; n-- {
			a = append(a, g.value(depth+1))
		}
		return a
	case 9:
		a := []any{}
		for n := g.next() % 3; n > 0; n-- {
			a = append(a, genStrings[g.next()%len(genStrings)])
		}
		return a
	case 10:
		m := map[string]any{}
		for n := g.next() % 3; n > 0; n-- {
			m[genStrings[g.next()%len(genStrings)]] = g.value(depth + 1)
		}
		return m
	default:
		if depth > 4 {
			return "x"
		}
		return map[string]any{genKeywords[g.next()%len(genKeywords)]: g.schema(depth + 1)}
	}
}

// TestFastMetaValidIsJSONClean checks what parameters relies on to skip
// jsonValue: fastMetaValid never says valid for a schema holding a value
// JSON cannot carry, wherever it is.
func TestFastMetaValidIsJSONClean(t *testing.T) {
	bad := []any{math.NaN(), math.Inf(1), math.Inf(-1), time.Time{}, toml.LocalDate{}, toml.LocalTime{},
		toml.LocalDateTime{}, nil, int32(1), []any{math.NaN()}, map[string]any{"x": math.Inf(1)},
		map[string]any{"type": "string", "default": time.Time{}}}
	checked := 0
	for _, k := range append(append([]string{}, genKeywords...), "x-custom", "default", "const", "enum") {
		for _, v := range bad {
			for _, params := range []map[string]any{
				{"type": "object", k: v},
				{"type": "object", "properties": map[string]any{"p": map[string]any{k: v}}},
				{"type": "object", "items": []any{map[string]any{k: v}}},
				{"type": "object", "allOf": []any{map[string]any{k: []any{v}}}},
			} {
				if fastMetaValid(params) {
					require.True(t, plainValue(params), "%#v", params)
				}
				checked++
			}
		}
	}
	assert.Greater(t, checked, 100)
}
