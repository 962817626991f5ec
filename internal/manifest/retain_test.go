package manifest

import (
	"os"
	"reflect"
	"testing"
	"unsafe"

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

// within reports whether s's bytes lie inside b's.
func within(s string, b []byte) bool {
	if s == "" || len(b) == 0 {
		return false
	}
	p, lo := uintptr(unsafe.Pointer(unsafe.StringData(s))), uintptr(unsafe.Pointer(&b[0]))
	return p >= lo && p < lo+uintptr(len(b))
}

// TestManifestKeepsNoSource checks that a Manifest holds no string that
// shares the bytes it was parsed from (which would keep the whole file
// alive for a few names: a Gate keeps its Manifest for its whole life),
// whatever fields a manifest writes.
func TestManifestKeepsNoSource(t *testing.T) {
	docs := map[string][]byte{"genTools": genTools(300)}
	for _, file := range corpus(t, "valid") {
		src, err := os.ReadFile(file)
		require.NoError(t, err)
		docs[file] = src
	}
	for file, src := range docs {
		m, err := Parse(file, src)
		require.NoError(t, err, file)
		strs := 0
		manifestStrings(reflect.ValueOf(m), func(s string) {
			strs++
			require.False(t, within(s, src), "%s: %q shares the source", file, s)
		})
		require.Positive(t, strs, file)
	}
}
