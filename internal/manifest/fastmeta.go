package manifest

import (
	"math"
	"regexp"
	"strings"
)

// Validating a tool's parameters against the 2020-12 meta-schema with
// santhosh-tekuri/jsonschema walks all seven of its vocabularies for
// every subschema, which made it most of a parse (docs/BENCHMARKS.md).
// Nearly every real schema uses a plain subset of the keywords, whose
// meta-schema rules are simple enough to check directly, so fastMetaValid
// does that first.
//
// It only ever says "valid" when the library would: for anything it does
// not understand (a "$" keyword anywhere, "definitions", "dependencies", a
// value of a type TOML does not produce) or finds wrong, it says "not
// sure" and the library decides, so every message about an invalid
// schema comes from the library. FuzzFastMetaSchema and
// FuzzFastMetaSchemaGen hold it to the library, and
// TestFastMetaKnowsEveryKeyword checks that every keyword the meta-schema
// constrains is either checked here or sent to the library.

// fastMetaValid reports whether params, a tool's parameters as JSON
// values, are certainly valid against the 2020-12 meta-schema and need
// nothing compiled (no reference to resolve). false means "ask the
// library", not "invalid". params must have no "$schema" (which would
// choose another draft); fastMetaValid says false when it has one.
func fastMetaValid(params map[string]any) bool {
	return fastSchema(params)
}

// fastSchema checks a (sub)schema: an object or a boolean.
func fastSchema(v any) bool {
	switch s := v.(type) {
	case bool:
		return true
	case map[string]any:
		for k, el := range s {
			if !fastKeyword(k, el) {
				return false
			}
		}
		return true
	}
	return false
}

// fastKeyword checks one keyword of a schema object against its rule in
// the meta-schema.
func fastKeyword(k string, v any) bool {
	switch k {
	case "type":
		// anyOf [simpleTypes, array of simpleTypes, minItems 1, uniqueItems]
		switch t := v.(type) {
		case string:
			return simpleType(t)
		case []any:
			if len(t) == 0 {
				return false
			}
			for i, el := range t {
				s, ok := el.(string)
				if !ok || !simpleType(s) {
					return false
				}
				for _, prev := range t[:i] {
					if prev == s {
						return false
					}
				}
			}
			return true
		}
		return false
	case "properties", "dependentSchemas":
		// object, additionalProperties: schema
		return fastSchemaMap(v, false)
	case "patternProperties":
		// the same, and every key a regular expression
		return fastSchemaMap(v, true)
	case "items", "contains", "additionalProperties", "propertyNames", "if", "then", "else", "not",
		"unevaluatedItems", "unevaluatedProperties", "contentSchema":
		return fastSchema(v)
	case "prefixItems", "allOf", "anyOf", "oneOf":
		// schemaArray: array, minItems 1, items: schema
		a, ok := v.([]any)
		if !ok || len(a) == 0 {
			return false
		}
		for _, el := range a {
			if !fastSchema(el) {
				return false
			}
		}
		return true
	case "required":
		return stringArray(v)
	case "dependentRequired":
		// object, additionalProperties: stringArray
		m, ok := v.(map[string]any)
		if !ok {
			return false
		}
		for name, el := range m {
			if strings.HasPrefix(name, "$") || !stringArray(el) {
				return false
			}
		}
		return true
	case "enum", "examples":
		// array, items: true
		_, ok := v.([]any)
		return ok && plainValue(v)
	case "const", "default":
		return plainValue(v)
	case "multipleOf":
		// number, exclusiveMinimum 0
		f, ok := number(v)
		return ok && f > 0
	case "maximum", "exclusiveMaximum", "minimum", "exclusiveMinimum":
		_, ok := number(v)
		return ok
	case "maxLength", "minLength", "maxItems", "minItems", "maxContains", "minContains", "maxProperties", "minProperties":
		// nonNegativeInteger. The library also takes 2.0 as an integer;
		// only int64 is certain here.
		n, ok := v.(int64)
		return ok && n >= 0
	case "pattern":
		// string, format "regex": the library asserts formats in
		// meta-schemas, with regexp.Compile.
		s, ok := v.(string)
		return ok && isRegexp(s)
	case "uniqueItems", "deprecated", "readOnly", "writeOnly":
		_, ok := v.(bool)
		return ok
	case "title", "description", "format", "contentEncoding", "contentMediaType":
		_, ok := v.(string)
		return ok
	case "definitions", "dependencies":
		// Deprecated keywords the meta-schema still constrains; rare
		// enough to leave to the library.
		return false
	}
	// "$schema", "$ref", "$defs", "$id", "$anchor", "$vocabulary" and the
	// rest of the core vocabulary: the library (a reference also needs
	// compiling, which only the library does).
	if strings.HasPrefix(k, "$") {
		return false
	}
	// A keyword no vocabulary defines: the meta-schema allows any value,
	// but a "$ref" inside it would still be compiled, so it must be plain.
	return plainValue(v)
}

// simpleType reports whether s is one of the meta-schema's simpleTypes.
func simpleType(s string) bool {
	switch s {
	case "array", "boolean", "integer", "null", "number", "object", "string":
		return true
	}
	return false
}

// fastSchemaMap checks an object whose values are schemas (and, when
// regexKeys, whose keys are regular expressions).
func fastSchemaMap(v any, regexKeys bool) bool {
	m, ok := v.(map[string]any)
	if !ok {
		return false
	}
	for name, el := range m {
		// A property named "$ref" makes the current code compile the
		// schema (see hasRefs); leave that to it.
		if strings.HasPrefix(name, "$") || regexKeys && !isRegexp(name) || !fastSchema(el) {
			return false
		}
	}
	return true
}

// stringArray is the meta-schema's stringArray: an array of strings, no
// two equal.
func stringArray(v any) bool {
	a, ok := v.([]any)
	if !ok {
		return false
	}
	for i, el := range a {
		s, ok := el.(string)
		if !ok {
			return false
		}
		for _, prev := range a[:i] {
			if prev == s {
				return false
			}
		}
	}
	return true
}

// number returns v as a float when it is a JSON number of the types the
// manifest produces, and finite.
func number(v any) (float64, bool) {
	switch n := v.(type) {
	case int64:
		return float64(n), true
	case float64:
		return n, !math.IsNaN(n) && !math.IsInf(n, 0)
	}
	return 0, false
}

// plainValue reports whether v holds only the JSON values the manifest
// produces and no key starting with "$" (which could be a reference
// that the library would compile).
func plainValue(v any) bool {
	switch t := v.(type) {
	case string, bool, int64:
		return true
	case float64:
		return !math.IsNaN(t) && !math.IsInf(t, 0)
	case []any:
		for _, el := range t {
			if !plainValue(el) {
				return false
			}
		}
		return true
	case map[string]any:
		for k, el := range t {
			if strings.HasPrefix(k, "$") || !plainValue(el) {
				return false
			}
		}
		return true
	}
	return false
}

// isRegexp is the library's check of format "regex" (its default
// regexp engine is Go's regexp).
func isRegexp(s string) bool {
	_, err := regexp.Compile(s)
	return err == nil
}
