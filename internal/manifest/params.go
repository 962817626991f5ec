package manifest

import (
	"encoding/json"
	"math"
	"time"

	"github.com/pelletier/go-toml/v2"
)

// parameters checks a tool's JSON Schema and writes it as JSON. The top
// must be a table of type "object", which is what the model APIs take;
// the whole must be a valid JSON Schema (see metaschema.go), since a client
// that gets an invalid one may refuse every tool, not just this one. The
// meta-schema check runs only on values JSON can carry (the others are
// reported already). The result is nil when anything is wrong (the
// manifest is then refused anyway).
func (c *checker) parameters(at place, v any) json.RawMessage {
	t, ok := c.table(at, v, `a JSON Schema table, like { type = "object", properties = { ... } }`)
	if !ok {
		return nil
	}
	// A schema the quick meta-schema check vouches for holds only values
	// JSON carries (TestFastMetaValidIsJSONClean); any other is copied
	// into JSON's types, reporting each value JSON cannot carry.
	quick := fastMetaValid(t)
	var out any = t
	good := true
	if !quick {
		out, good = c.jsonValue(at, t)
	}
	if typ, has := t["type"]; !has {
		c.missing(at, "type", `missing type: a tool's parameters are a JSON Schema with type = "object"`)
	} else if typ != "object" {
		c.valueErr(c.key(at, "type"), `want "object" (a tool takes an object of named arguments), got %s`, describe(typ))
	}
	m, _ := out.(map[string]any)
	if !good || m == nil {
		return nil
	}
	if !quick {
		c.libraryMetaSchema(at, m)
	}
	raw, err := encodeParams(m)
	if err != nil {
		// fastMetaValid and jsonValue let through only what JSON carries.
		c.valueErr(at, "cannot be written in JSON: %v", err)
		return nil
	}
	return raw
}

// jsonValue copies a decoded TOML value into JSON's types, reporting
// every value JSON cannot carry: datetimes (JSON has none, and a schema
// means a string: "format": "date-time" is how JSON Schema says it), NaN
// and infinities (encoding/json refuses them).
func (c *checker) jsonValue(at place, v any) (any, bool) {
	switch v := v.(type) {
	case string, bool, int64:
		return v, true
	case float64:
		if math.IsNaN(v) || math.IsInf(v, 0) {
			c.valueErr(at, "%s: JSON has no NaN or infinity", describe(v))
			return nil, false
		}
		return v, true
	case []any:
		out := make([]any, len(v))
		good := true
		for i, el := range v {
			var ok bool
			if out[i], ok = c.jsonValue(c.elem(at, i), el); !ok {
				good = false
			}
		}
		return out, good
	case map[string]any:
		out := make(map[string]any, len(v))
		good := true
		for k, el := range v {
			var ok bool
			if out[k], ok = c.jsonValue(c.key(at, k), el); !ok {
				good = false
			}
		}
		return out, good
	case time.Time, toml.LocalDateTime, toml.LocalDate, toml.LocalTime:
		c.valueErr(at, "%s: JSON has no datetime type; quote it to make it a string", describe(v))
		return nil, false
	}
	c.valueErr(at, "%s cannot be written in JSON", describe(v))
	return nil, false
}
