package host

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestConfig(t *testing.T) {
	for _, n := range []int{0, 1, 2, 7, 30} {
		m := map[string]string{}
		for i := range n {
			m[fmt.Sprint("key", i)] = fmt.Sprint("value", i)
		}
		m2 := map[string]string{}
		for k, v := range m {
			m2[k] = v
		}
		c := NewConfig(m)
		assert.Equal(t, n, c.Len())
		for k, v := range m {
			got, ok := c.Lookup(k)
			assert.True(t, ok, k)
			assert.Equal(t, v, got, k)
		}
		for _, missing := range []string{"", "key", "key0x", "zzz", "a"} {
			_, ok := c.Lookup(missing)
			assert.False(t, ok, missing)
		}
		assert.Equal(t, m2, c.Map())
		m["key0"] = "changed"
		if n > 0 {
			v, _ := c.Lookup("key0")
			assert.Equal(t, "value0", v, "NewConfig copies")
		}
	}
	v, ok := NewConfig(map[string]string{"empty": ""}).Lookup("empty")
	assert.True(t, ok, "an empty value is set")
	assert.Equal(t, "", v)
}

// FuzzConfigFromPairs: a Config made of a list of keys and values is the
// one NewConfig makes of the same pairs as a map, whether the list came
// sorted (and is kept) or not (and is copied).
func FuzzConfigFromPairs(f *testing.F) {
	f.Add("a\x00b\x00c\x00d")
	f.Add("url\x00http://h/\x00status\x00200")
	f.Add("b\x001\x00a\x002")
	f.Add("a\x001\x00a\x002")
	f.Add("odd")
	f.Add("")
	f.Fuzz(func(t *testing.T, joined string) {
		var kv []string
		if joined != "" {
			kv = strings.Split(joined, "\x00")
		}
		m := map[string]string{}
		for i := 0; i+1 < len(kv); i += 2 {
			m[kv[i]] = kv[i+1]
		}
		got := ConfigFromPairs(slices.Clone(kv))
		want := NewConfig(m)
		require.Equal(t, want.Map(), got.Map())
		require.Equal(t, want.Len(), got.Len())
		var wantValues, values []string
		for _, k := range slices.Sorted(maps.Keys(m)) {
			gv, ok := got.Lookup(k)
			require.True(t, ok, k)
			require.Equal(t, m[k], gv)
			wantValues = append(wantValues, m[k])
		}
		for v := range got.Values() {
			values = append(values, v)
		}
		require.Equal(t, wantValues, values)
	})
}
