package mcpgw

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/gate-dev/gate/internal/safetext"
)

// keywordKind is what a schema keyword's value is to schemaCleaner.
type keywordKind uint8

const (
	// prose is text a model reads and no validator checks: each string
	// in it is cleaned (safetext's rule, newlines kept). Keywords gate
	// does not know are prose: a validator ignores them too.
	prose keywordKind = iota
	// line is prose of one line (a title).
	line
	// contract is a value that means something to a validator or to the
	// upstream (a type, an enum value, a reference): cleaning would change
	// what the tool accepts, so one holding a character the rule refuses
	// makes the tool malformed.
	contract
	// pattern is a contract that is also a regular expression to compile.
	pattern
	subschema       // one schema
	subschemaList   // an array of schemas
	subschemaMap    // an object of schemas, whose names are contracts
	subschemaOrList // items: a schema, or (before 2020-12) an array of them
	patternMap      // patternProperties: an object of schemas named by patterns
	dependencies    // draft 7: an object of schemas or arrays of names
)

// schemaKeywords are the keywords of JSON Schema (drafts 4 to 2020-12)
// whose values are not prose.
var schemaKeywords = map[string]keywordKind{
	"title": line,

	"not": subschema, "if": subschema, "then": subschema, "else": subschema,
	"additionalProperties": subschema, "unevaluatedProperties": subschema,
	"unevaluatedItems": subschema, "additionalItems": subschema,
	"contains": subschema, "propertyNames": subschema, "contentSchema": subschema,

	"allOf": subschemaList, "anyOf": subschemaList, "oneOf": subschemaList, "prefixItems": subschemaList,
	"items": subschemaOrList,

	"properties": subschemaMap, "$defs": subschemaMap, "definitions": subschemaMap, "dependentSchemas": subschemaMap,
	"patternProperties": patternMap,
	"dependencies":      dependencies,

	"pattern": pattern,

	"type": contract, "enum": contract, "const": contract, "required": contract, "format": contract,
	"$ref": contract, "$id": contract, "id": contract, "$schema": contract, "$anchor": contract,
	"$dynamicRef": contract, "$dynamicAnchor": contract, "$recursiveRef": contract, "$recursiveAnchor": contract,
	"$vocabulary": contract, "dependentRequired": contract, "contentMediaType": contract, "contentEncoding": contract,
}

// schemaCleaner cleans a decoded schema in place by one rule for all of
// it: the prose (descriptions, titles, $comment, examples, defaults, and
// the values of keywords gate does not know) at any depth is cleaned as
// tool descriptions are, and every name (an object's keys, anywhere) and
// every contract value must already be clean. It counts the patterns.
type schemaCleaner struct {
	changed  bool // some prose was cleaned
	patterns int
}

// schema walks one schema (an object or a boolean) at the JSON pointer at.
func (c *schemaCleaner) schema(v any, at string) error {
	m, ok := v.(map[string]any)
	if !ok {
		return nil // true, false; the compiler refuses anything else
	}
	for k, val := range m {
		if err := name(k, at); err != nil {
			return err
		}
		kat := at + "/" + pointerToken(k)
		switch kind := schemaKeywords[k]; kind {
		case prose, line:
			var err error
			if m[k], err = c.prose(val, kind == line, kat); err != nil {
				return err
			}
		case contract, pattern:
			if kind == pattern {
				c.patterns++
			}
			if err := clean(val, kat); err != nil {
				return err
			}
		case subschema:
			if err := c.schema(val, kat); err != nil {
				return err
			}
		case subschemaOrList, subschemaList:
			list, isList := val.([]any)
			if !isList {
				if err := c.schema(val, kat); err != nil {
					return err
				}
				continue
			}
			for i, s := range list {
				if err := c.schema(s, kat+"/"+strconv.Itoa(i)); err != nil {
					return err
				}
			}
		case subschemaMap, patternMap, dependencies:
			sub, _ := val.(map[string]any)
			for n, s := range sub {
				if err := name(n, kat); err != nil {
					return err
				}
				if kind == patternMap {
					c.patterns++
				}
				sat := kat + "/" + pointerToken(n)
				if _, names := s.([]any); names && kind == dependencies {
					if err := clean(s, sat); err != nil {
						return err
					}
					continue
				}
				if err := c.schema(s, sat); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// prose cleans every string in v, at the JSON pointer at, and returns
// it; the names of its objects must be clean already, as everywhere.
func (c *schemaCleaner) prose(v any, oneLine bool, at string) (any, error) {
	switch v := v.(type) {
	case string:
		s := safetext.Clean(v, !oneLine)
		if s != v {
			c.changed = true
		}
		return s, nil
	case []any:
		for i := range v {
			var err error
			if v[i], err = c.prose(v[i], oneLine, at+"/"+strconv.Itoa(i)); err != nil {
				return nil, err
			}
		}
	case map[string]any:
		for k := range v {
			if err := name(k, at); err != nil {
				return nil, err
			}
			var err error
			if v[k], err = c.prose(v[k], oneLine, at+"/"+pointerToken(k)); err != nil {
				return nil, err
			}
		}
	}
	return v, nil
}

// clean checks that every string and name in a contract value is already
// clean.
func clean(v any, at string) error {
	switch v := v.(type) {
	case string:
		if i := safetext.IndexRefused(v, true); i >= 0 {
			return refused(v, i, at)
		}
	case []any:
		for i, e := range v {
			if err := clean(e, at+"/"+strconv.Itoa(i)); err != nil {
				return err
			}
		}
	case map[string]any:
		for k, e := range v {
			if err := name(k, at); err != nil {
				return err
			}
			if err := clean(e, at+"/"+pointerToken(k)); err != nil {
				return err
			}
		}
	}
	return nil
}

// name checks an object's key, on one line.
func name(k, at string) error {
	if i := safetext.IndexRefused(k, false); i >= 0 {
		return refused(k, i, at+"/"+pointerToken(k))
	}
	return nil
}

func refused(s string, i int, at string) error {
	what := fmt.Sprintf("the byte %#x, which is not UTF-8", s[i])
	if r, size := utf8.DecodeRuneInString(s[i:]); r != utf8.RuneError || size > 1 {
		what = fmt.Sprintf("%U", r)
		if c, ok := safetext.ClassOf(r); ok {
			what += ", " + c.Name + ","
		}
	}
	return fmt.Errorf("has %s at %s, a name or value that cleaning would change the meaning of", what, safetext.Terminal(at))
}

// pointerToken escapes a name as a JSON Pointer (RFC 6901) token.
func pointerToken(s string) string {
	if !strings.ContainsAny(s, "~/") {
		return s
	}
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}
