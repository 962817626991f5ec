package manifest

import (
	"os"
	"reflect"
	"testing"

	"github.com/stretchr/testify/require"
)

// manifestStrings calls f with every string in v, however deep.
func manifestStrings(v reflect.Value, f func(string)) {
	switch v.Kind() {
	case reflect.String:
		f(v.String())
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			manifestStrings(v.Elem(), f)
		}
	case reflect.Struct:
		for i := range v.NumField() {
			manifestStrings(v.Field(i), f)
		}
	case reflect.Slice, reflect.Array:
		for i := range v.Len() {
			manifestStrings(v.Index(i), f)
		}
	case reflect.Map:
		for it := v.MapRange(); it.Next(); {
			manifestStrings(it.Key(), f)
			manifestStrings(it.Value(), f)
		}
	}
}

// TestManifestKeepsNoSource checks that a Manifest from the fast path
// holds no string that shares the copy of the source its decoder made
// (which would keep the whole file alive for a few names), whatever
// fields a manifest writes and however it was decoded.
func TestManifestKeepsNoSource(t *testing.T) {
	var docs [][]byte
	for _, file := range corpus(t, "valid") {
		src, err := os.ReadFile(file)
		require.NoError(t, err)
		docs = append(docs, src)
	}
	for _, d := range chunkDocs(40) {
		docs = append(docs, []byte(d.src))
	}
	docs = append(docs, genTools(300), []byte(`[runtime]
cache_dir = "/abs/cache"
python = "/usr/bin/python3"
[skills]
paths = ["/abs/skills", "rel"]
enforcement = "strict"
[[tools]]
name = "a"
description = "d"
probe = { module = "/abs/p.wasm", sha256 = "`+"0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"+`", config = { k = "v" }, grants = { env = ["E"], dial = ["localhost:1"], import = ["py:x"] } }
[[servers]]
name = "s"
description = "sd"
probe = "env:S"
`))
	fastOnes := 0
	for _, src := range docs {
		for _, o := range []fastOpts{{workers: 1, chunkMin: -1}, {workers: 2, chunkMin: 1}} {
			c := newChecker("/abs/gate.toml", src)
			c.lim = Limits{}.resolved()
			c.dir = "/abs"
			m := c.fastParseOpts(o)
			if m == nil {
				continue
			}
			fastOnes++
			require.Equal(t, len(src), len(c.fastStr))
			manifestStrings(reflect.ValueOf(m), func(s string) {
				require.False(t, within(s, c.fastStr), "%q shares the source", s)
			})
		}
	}
	require.Greater(t, fastOnes, 10)
}
