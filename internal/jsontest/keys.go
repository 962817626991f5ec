// Package jsontest holds what tests ask of a value's JSON form.
package jsontest

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"
)

// FilledKeys marshals v, a struct or a map, and returns its top-level JSON
// keys whose value holds a non-empty list, there or in an object below:
// the fields a test set, among lists that marshal as [] when empty.
func FilledKeys(t testing.TB, v any) []string {
	t.Helper()
	b, err := json.Marshal(v)
	require.NoError(t, err)
	var m map[string]any
	require.NoError(t, json.Unmarshal(b, &m))
	var keys []string
	for k, val := range m {
		if holdsList(val) {
			keys = append(keys, k)
		}
	}
	return keys
}

// holdsList reports whether v is a non-empty list or an object with one
// below it.
func holdsList(v any) bool {
	switch v := v.(type) {
	case []any:
		return len(v) > 0
	case map[string]any:
		for _, x := range v {
			if holdsList(x) {
				return true
			}
		}
	}
	return false
}
