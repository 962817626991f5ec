package manifest

import (
	"errors"
	"fmt"
	"maps"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

// A tool's parameters go to model APIs and MCP clients as they are, and
// one malformed schema can make a client refuse the whole tool list (the
// MCP TypeScript SDK does), so they are checked against the JSON Schema
// meta-schema here, where the mistake can be shown at its line.
//
// The validator is santhosh-tekuri/jsonschema, which ships the meta-schemas
// of drafts 4, 6, 7, 2019-09 and 2020-12 in the binary. Nothing is ever
// fetched: the compiler's loader refuses every URL, so a "$ref" to a
// remote or file URL (or a "$vocabulary" or "$schema" the library does
// not have) is an error rather than a request. A schema's "$schema"
// chooses its draft when it names one of those; any other (or none)
// means 2020-12, the draft MCP specifies.
//
// A schema in the plain subset of 2020-12 that nearly every tool uses is
// first checked by fastMetaValid (fastmeta.go), which can only say
// "certainly valid"; the library checks the rest, and reports every
// problem.

// schemaBase is the URL a tool's parameters are compiled at: a scheme
// nothing can load, hierarchical so that a relative "$ref" resolves (to a
// URL the loader then refuses) instead of silently pointing at the
// schema itself.
const schemaBase = "gate:///parameters.json"

// printer renders the validator's messages.
var printer = message.NewPrinter(language.English)

// noFetch is the compiler's loader: it loads nothing.
type noFetch struct{}

func (noFetch) Load(u string) (any, error) {
	return nil, errors.New("gate does not fetch schemas")
}

// knownDraft reports whether a "$schema" value names a draft whose
// meta-schema the validator has offline (as jsonschema's draftFromURL
// reads it).
func knownDraft(s string) bool {
	s = strings.TrimSuffix(s, "#")
	if u, ok := strings.CutPrefix(s, "http://"); ok {
		s = u
	} else {
		s, _ = strings.CutPrefix(s, "https://")
	}
	switch s {
	case "json-schema.org/schema",
		"json-schema.org/draft/2020-12/schema",
		"json-schema.org/draft/2019-09/schema",
		"json-schema.org/draft-07/schema",
		"json-schema.org/draft-06/schema",
		"json-schema.org/draft-04/schema":
		return true
	}
	return false
}

// libraryMetaSchema checks the parameters at the place at, already
// converted to JSON values, against the meta-schema of their draft with
// the library, reporting each problem at the keyword in the manifest.
// parameters calls it for the schemas fastMetaValid cannot vouch for.
//
// Validating against the meta-schema, compiled once per draft, is cheap;
// compiling the schema itself is not, so it is done only for a schema
// that has references to resolve, which only a compiler checks.
func (c *checker) libraryMetaSchema(at place, params map[string]any) {
	draft := jsonschema.Draft2020.String()
	if s, ok := params["$schema"].(string); ok && knownDraft(s) {
		draft = s
	}
	var err error
	if meta, merr := metaSchemaOf(draft); merr != nil {
		err = merr
	} else {
		err = validateSafely(meta, params)
	}
	if err == nil && hasRefs(params) {
		doc := params
		if s, ok := params["$schema"].(string); ok && !knownDraft(s) {
			// Not a draft we have: compile it as 2020-12, without
			// asking for the unknown meta-schema.
			doc = make(map[string]any, len(params))
			for k, v := range params {
				if k != "$schema" {
					doc[k] = v
				}
			}
		}
		err = CompileSchema(doc)
	}
	if err == nil {
		return
	}
	ve, isVE := err.(*jsonschema.ValidationError)
	if !isVE {
		var sve *jsonschema.SchemaValidationError
		if errors.As(err, &sve) {
			ve, isVE = sve.Err.(*jsonschema.ValidationError)
		}
	}
	if isVE {
		seen := map[place]bool{}
		for _, leaf := range leaves(ve, nil) {
			p := c.schemaPlace(at, params, leaf.InstanceLocation)
			if seen[p] {
				continue
			}
			seen[p] = true
			c.valueErr(p, "invalid JSON Schema: %s", leaf.ErrorKind.LocalizedString(printer))
		}
		return
	}
	// A reference that does not resolve is reported at the "$ref" that
	// makes it, when one does.
	var lue *jsonschema.LoadURLError
	var pnf *jsonschema.JSONPointerNotFoundError
	var anf *jsonschema.AnchorNotFoundError
	target, why, msg := "", "", "invalid JSON Schema: "+cleanSchemaErr(err)
	switch {
	case errors.As(err, &lue):
		target, why = lue.URL, `gate does not fetch schemas; put it under "$defs" and refer to it as "#/$defs/NAME"`
		msg = "invalid JSON Schema: " + strings.TrimPrefix(lue.URL, schemaBase) + " is not available offline, and gate does not fetch schemas"
	case errors.As(err, &pnf):
		target, why = pnf.URL, "no such place in this schema"
	case errors.As(err, &anf):
		target, why = anf.Reference, "no such anchor in this schema"
	}
	if why != "" {
		if p, kw, ref, ok := c.findRef(at, params, target); ok {
			c.valueErr(p, "%s %q: %s", kw, ref, why)
			return
		}
	}
	c.valueErr(at, "%s", msg)
}

// metas holds the meta-schema of each draft, compiled once, by the
// "$schema" URL that names it.
var metas sync.Map // string -> *jsonschema.Schema

// metaSchemaOf returns the compiled meta-schema named by url, one of the
// drafts knownDraft accepts, from the validator's embedded copies.
func metaSchemaOf(url string) (*jsonschema.Schema, error) {
	url = strings.TrimSuffix(url, "#")
	if m, ok := metas.Load(url); ok {
		return m.(*jsonschema.Schema), nil
	}
	comp := jsonschema.NewCompiler()
	comp.UseLoader(noFetch{})
	comp.AssertFormat() // "pattern" must be a regular expression
	m, err := comp.Compile(url)
	if err != nil {
		return nil, err
	}
	metas.Store(url, m)
	return m, nil
}

// validateSafely validates v against sch, turning a panic of the
// validator into an error: a config file must not take a gateway down.
func validateSafely(sch *jsonschema.Schema, v any) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("internal error in the JSON Schema validator: %v", r)
		}
	}()
	return sch.Validate(v)
}

// hasRefs reports whether a schema refers to anything ("$ref",
// "$dynamicRef", "$recursiveRef") that only compiling it resolves.
func hasRefs(v any) bool {
	switch t := v.(type) {
	case map[string]any:
		for k, el := range t {
			if k == "$ref" || k == "$dynamicRef" || k == "$recursiveRef" || hasRefs(el) {
				return true
			}
		}
	case []any:
		for _, el := range t {
			if hasRefs(el) {
				return true
			}
		}
	}
	return false
}

// CompileSchema compiles doc as a JSON Schema offline (draft 2020-12
// unless its "$schema" says otherwise; a "$ref" to anything but doc itself
// fails, since gate never fetches), turning a panic of the validator into
// an error: a config file, or an MCP server's tool list, must not take a
// gateway down.
// The manifest checks tools' parameters with it; the MCP gateway checks
// upstream tools' schemas.
func CompileSchema(doc map[string]any) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("internal error in the JSON Schema validator: %v", r)
		}
	}()
	comp := jsonschema.NewCompiler()
	comp.UseLoader(noFetch{})
	comp.DefaultDraft(jsonschema.Draft2020)
	if err := comp.AddResource(schemaBase, doc); err != nil {
		return err
	}
	_, err = comp.Compile(schemaBase)
	return err
}

// leaves returns the errors at the bottom of a meta-schema validation
// error, the ones that name a keyword. Of the alternatives of an anyOf or
// oneOf, only the one that got deepest into the schema is kept: it is the
// one the author meant, and the others only say why the value is not
// something else entirely.
func leaves(e *jsonschema.ValidationError, out []*jsonschema.ValidationError) []*jsonschema.ValidationError {
	if len(e.Causes) == 0 {
		return append(out, e)
	}
	switch e.ErrorKind.(type) {
	case *kind.AnyOf, *kind.OneOf:
		best, depth := e.Causes[0], -1
		for _, cause := range e.Causes {
			if d := deepest(cause); d > depth {
				best, depth = cause, d
			}
		}
		return leaves(best, out)
	}
	for _, cause := range e.Causes {
		out = leaves(cause, out)
	}
	return out
}

// deepest is the longest instance location among e and its causes.
func deepest(e *jsonschema.ValidationError) int {
	d := len(e.InstanceLocation)
	for _, cause := range e.Causes {
		d = max(d, deepest(cause))
	}
	return d
}

// schemaPlace turns a location in the parameters at the place at (JSON
// pointer tokens) into the place in the manifest: ["properties", "x",
// "type"] under tools[0].parameters is
// tools[0].parameters.properties.x.type.
func (c *checker) schemaPlace(at place, v any, loc []string) place {
	for _, tok := range loc {
		switch t := v.(type) {
		case map[string]any:
			if _, ok := t[tok]; !ok {
				return at
			}
			at, v = c.key(at, tok), t[tok]
		case []any:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(t) {
				return at
			}
			at, v = c.elem(at, i), t[i]
		default:
			return at
		}
	}
	return at
}

// findRef finds the "$ref" or "$dynamicRef" in v, at the place at, that
// points at target (the URL the validator could not resolve), returning
// its place, keyword and value; the first in key order when several do.
func (c *checker) findRef(at place, v any, target string) (place, string, string, bool) {
	base, _ := url.Parse(schemaBase)
	same := func(ref string) bool {
		if ref == target {
			return true
		}
		u, err := url.Parse(ref)
		if err != nil {
			return false
		}
		abs := base.ResolveReference(u)
		if abs.String() == target {
			return true
		}
		// A URL that could not be loaded is named without its fragment.
		abs.Fragment, abs.RawFragment = "", ""
		return abs.String() == target
	}
	var walk func(at place, v any) (place, string, string, bool)
	walk = func(at place, v any) (place, string, string, bool) {
		switch t := v.(type) {
		case map[string]any:
			for _, k := range slices.Sorted(maps.Keys(t)) {
				if s, ok := t[k].(string); ok && (k == "$ref" || k == "$dynamicRef") && same(s) {
					return c.key(at, k), k, s, true
				}
				if p, kw, ref, ok := walk(c.key(at, k), t[k]); ok {
					return p, kw, ref, true
				}
			}
		case []any:
			for i, el := range t {
				if p, kw, ref, ok := walk(c.elem(at, i), el); ok {
					return p, kw, ref, true
				}
			}
		}
		return noNode, "", "", false
	}
	return walk(at, v)
}

// cleanSchemaErr is the validator's message without the URL the schema
// was compiled at, which means nothing to the user.
func cleanSchemaErr(err error) string {
	return strings.ReplaceAll(err.Error(), schemaBase, "")
}
