package manifest

import (
	"encoding/json"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// encodeParams must write exactly what json.Marshal writes: schemas
// served before and after it are the same bytes.
func TestEncodeParamsMatchesEncodingJSON(t *testing.T) {
	for name, v := range map[string]map[string]any{
		"empty": {},
		"schema": {"type": "object", "properties": map[string]any{
			"q": map[string]any{"type": "string", "maxLength": int64(80)}}, "required": []any{"q"}},
		"escapes":  {"s": "a\"b\\c\n\r\t\b\f\x00\x1f<tag>&amp; \u2028\u2029 é 😀 \x7f"},
		"invalid":  {"s": "ok\xff\xfe\xc3", "\xffkey": true},
		"numbers":  {"a": 1e21, "b": 1e-7, "c": 0.5, "d": math.Copysign(0, -1), "e": 123456789.0, "f": 1e20, "g": 5e-324, "h": math.MaxFloat64, "i": int64(math.MinInt64)},
		"nested":   {"a": []any{[]any{}, map[string]any{}, nil, false, "x"}},
		"key sort": {"b": int64(1), "a": int64(2), "B": int64(3), "é": int64(4)},
	} {
		t.Run(name, func(t *testing.T) {
			want, err := json.Marshal(v)
			require.NoError(t, err)
			got, err := encodeParams(v)
			require.NoError(t, err)
			assert.Equal(t, string(want), string(got))
		})
	}
	_, err := encodeParams(map[string]any{"x": math.NaN()})
	assert.Error(t, err, "NaN has no JSON")
}

// FuzzEncodeParams: for any string and number, the bytes are
// json.Marshal's.
func FuzzEncodeParams(f *testing.F) {
	f.Add("key", "value", 1.5, int64(7))
	f.Add("<&>", "\u2028\xff\x00", 1e-7, int64(-1))
	f.Add("", "", 1e21, int64(0))
	f.Fuzz(func(t *testing.T, k, s string, x float64, n int64) {
		v := map[string]any{k: s, k + "1": []any{x, n, map[string]any{s: k}}}
		want, werr := json.Marshal(v)
		got, gerr := encodeParams(v)
		if werr != nil {
			require.Error(t, gerr)
			return
		}
		require.NoError(t, gerr)
		require.Equal(t, string(want), string(got))
	})
}
