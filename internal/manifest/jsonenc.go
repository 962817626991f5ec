package manifest

import (
	"bytes"
	"encoding/json"
	"slices"
	"strconv"
	"unicode/utf8"
)

// encodeParams writes a tool's parameters as encoding/json would (keys
// sorted, strings HTML-escaped), without its reflection for the values a
// schema is made of (tables, arrays, plain strings, integers, booleans),
// which would make a parse markedly slower (docs/BENCHMARKS.md). Anything
// else (a float, a string with something to escape) is written by
// json.Marshal, so its rules are not copied here.
func encodeParams(v map[string]any) (json.RawMessage, error) {
	var scratch [512]byte
	b, err := appendJSON(scratch[:0], v)
	if err != nil {
		return nil, err
	}
	// Exactly its size: a Tool holds it for its whole life.
	return bytes.Clone(b), nil
}

func appendJSON(b []byte, v any) ([]byte, error) {
	var err error
	switch v := v.(type) {
	case string:
		return appendString(b, v)
	case bool:
		return strconv.AppendBool(b, v), nil
	case int64:
		return strconv.AppendInt(b, v, 10), nil
	case []any:
		b = append(b, '[')
		for i, el := range v {
			if i > 0 {
				b = append(b, ',')
			}
			if b, err = appendJSON(b, el); err != nil {
				return nil, err
			}
		}
		return append(b, ']'), nil
	case map[string]any:
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		b = append(b, '{')
		for i, k := range keys {
			if i > 0 {
				b = append(b, ',')
			}
			if b, err = appendString(b, k); err != nil {
				return nil, err
			}
			if b, err = appendJSON(append(b, ':'), v[k]); err != nil {
				return nil, err
			}
		}
		return append(b, '}'), nil
	}
	raw, err := json.Marshal(v)
	return append(b, raw...), err
}

// appendString writes s as encoding/json does: as it is between quotes
// when it is printable ASCII without '"', '\\' or the HTML characters
// encoding/json escapes, otherwise with json.Marshal.
func appendString(b []byte, s string) ([]byte, error) {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= utf8.RuneSelf || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			raw, err := json.Marshal(s)
			return append(b, raw...), err
		}
	}
	return append(append(append(b, '"'), s...), '"'), nil
}
