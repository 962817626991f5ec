package manifest

import (
	"bytes"
	"encoding/json"
	"math"
	"slices"
	"strconv"
	"unicode/utf8"
)

// encodeParams writes a tool's parameters, decoded from TOML to JSON
// values (maps, slices, strings, bools, int64, finite float64), exactly as
// encoding/json would (keys sorted, HTML-escaped strings), without its
// reflection: json.Marshal was 15% of opening a 10,000-tool manifest.
// Tool.Parameters holds the result rather than the map because a Gate
// keeps its Manifest for its whole life, and every user of the parameters
// wants JSON: the maps were about 1 KB per tool of retained heap, the
// bytes are a tenth of that. Any other type goes to json.Marshal.
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
	switch v := v.(type) {
	case nil:
		return append(b, "null"...), nil
	case string:
		return appendJSONString(b, v), nil
	case bool:
		return strconv.AppendBool(b, v), nil
	case int64:
		return strconv.AppendInt(b, v, 10), nil
	case float64:
		if math.IsNaN(v) || math.IsInf(v, 0) {
			break // json.Marshal's error
		}
		return appendJSONFloat(b, v), nil
	case []any:
		b = append(b, '[')
		for i, el := range v {
			if i > 0 {
				b = append(b, ',')
			}
			var err error
			if b, err = appendJSON(b, el); err != nil {
				return nil, err
			}
		}
		return append(b, ']'), nil
	case map[string]any:
		if len(v) <= len(smallObject{}) {
			return appendSmallObject(b, v)
		}
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
			b = append(appendJSONString(b, k), ':')
			var err error
			if b, err = appendJSON(b, v[k]); err != nil {
				return nil, err
			}
		}
		return append(b, '}'), nil
	}
	raw, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return append(b, raw...), nil
}

// smallObject holds the keys and values of a small object, sorted on the
// stack: nearly every table of a schema is one, and sorting its keys in
// a slice of their own, then looking each value up again, was a third of
// encoding it.
type smallObject [8]struct {
	k string
	v any
}

// appendSmallObject is appendJSON for an object of at most 8 keys.
func appendSmallObject(b []byte, v map[string]any) ([]byte, error) {
	var kv smallObject
	n := 0
	for k, el := range v {
		// Insertion sort: at most 8 keys.
		i := n
		for ; i > 0 && kv[i-1].k > k; i-- {
			kv[i] = kv[i-1]
		}
		kv[i].k, kv[i].v = k, el
		n++
	}
	b = append(b, '{')
	for i := range n {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(appendJSONString(b, kv[i].k), ':')
		var err error
		if b, err = appendJSON(b, kv[i].v); err != nil {
			return nil, err
		}
	}
	return append(b, '}'), nil
}

// appendJSONFloat formats like encoding/json: ES6 number formatting, an
// exponent only below 1e-6 and from 1e21, without a padded exponent.
func appendJSONFloat(b []byte, f float64) []byte {
	format := byte('f')
	if abs := math.Abs(f); abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	b = strconv.AppendFloat(b, f, format, -1, 64)
	if format == 'e' {
		if n := len(b); n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	return b
}

const hexDigits = "0123456789abcdef"

// appendJSONString quotes s as encoding/json does with HTML escaping on:
// <, > and & as \u003c-style escapes, the short escapes it knows, other
// control characters as \u00XX, invalid UTF-8 as \ufffd, and U+2028 and
// U+2029 escaped.
func appendJSONString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' && c != '<' && c != '>' && c != '&' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '\\', '"':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hexDigits[r&0xF])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}
