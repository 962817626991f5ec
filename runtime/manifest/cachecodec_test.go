package manifest

import (
	"bytes"
	"crypto/sha256"
	"reflect"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestCacheCodecEveryField: each field of each struct a Manifest holds,
// set alone (with what holds it made non-nil) to a value other than its
// zero, comes back from an entry as it went, and so does a Manifest with
// every field set. A field the codec dropped or mangled fails here, by
// name; a new field is covered without a change to this test.
func TestCacheCodecEveryField(t *testing.T) {
	key := [sha256.Size]byte{5}
	roundTrip := func(t *testing.T, m *Manifest) {
		t.Helper()
		e := encodeEntry(m, key)
		got, err := decodeEntry(e, key, Limits{})
		require.NoError(t, err, "%#v", m)
		require.True(t, reflect.DeepEqual(m, got), "round trip differs:\n got %#v\nwant %#v", got, m)
		require.Equal(t, e, encodeEntry(got, key))
	}
	var all Manifest
	ctestFillAll(reflect.ValueOf(&all).Elem())
	t.Run("every field at once", func(t *testing.T) { roundTrip(t, &all) })

	fields := 0
	for target := 0; ; target++ {
		var m Manifest
		n, name := 0, ""
		if !ctestFillOne(reflect.ValueOf(&m).Elem(), target, &n, &name) {
			break
		}
		fields++
		require.False(t, reflect.ValueOf(m).IsZero(), name)
		t.Run(name, func(t *testing.T) { roundTrip(t, &m) })
	}
	// 136 fields when this was written (a Probe's 18, with its Net and
	// Pos, in three places): a walk that stops short fails here.
	require.Greater(t, fields, 100)
}

// ctestFillAll sets every field reachable from v to a value other than
// its zero that the checks accept: a pointer, slice or map holds one
// filled value, a string is "x" (a Pin PinOn), a number 1, a bool true.
func ctestFillAll(v reflect.Value) {
	switch v.Kind() {
	case reflect.String:
		if v.Type() == reflect.TypeFor[Pin]() {
			v.SetString(string(PinOn))
		} else {
			v.SetString("x")
		}
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Int, reflect.Int64:
		v.SetInt(1)
	case reflect.Uint64, reflect.Uint8:
		v.SetUint(1)
	case reflect.Pointer:
		v.Set(reflect.New(v.Type().Elem()))
		ctestFillAll(v.Elem())
	case reflect.Slice:
		v.Set(reflect.MakeSlice(v.Type(), 1, 1))
		ctestFillAll(v.Index(0))
	case reflect.Map:
		m := reflect.MakeMap(v.Type())
		e := reflect.New(v.Type().Elem()).Elem()
		ctestFillAll(e)
		m.SetMapIndex(reflect.ValueOf("x"), e)
		v.Set(m)
	case reflect.Struct:
		for i := range v.NumField() {
			ctestFillAll(v.Field(i))
		}
	default:
		panic("ctestFillAll: no value for " + v.Type().String())
	}
}

// ctestFillOne fills the target'th struct field reachable from v (in
// depth-first order, *n counting them) with ctestFillAll, making the
// pointers, slices and maps on the way to it hold one value, and names
// it. It reports whether there was a target'th field.
func ctestFillOne(v reflect.Value, target int, n *int, name *string) bool {
	switch v.Kind() {
	case reflect.Pointer:
		v.Set(reflect.New(v.Type().Elem()))
		if ctestFillOne(v.Elem(), target, n, name) {
			return true
		}
		v.SetZero()
	case reflect.Slice:
		if v.Type().Elem().Kind() == reflect.Uint8 {
			return false
		}
		v.Set(reflect.MakeSlice(v.Type(), 1, 1))
		if ctestFillOne(v.Index(0), target, n, name) {
			return true
		}
		v.SetZero()
	case reflect.Map:
		e := reflect.New(v.Type().Elem()).Elem()
		if ctestFillOne(e, target, n, name) {
			v.Set(reflect.MakeMap(v.Type()))
			v.SetMapIndex(reflect.ValueOf("x"), e)
			return true
		}
	case reflect.Struct:
		for i := range v.NumField() {
			if *n == target {
				*name = v.Type().Name() + "." + v.Type().Field(i).Name
				ctestFillAll(v.Field(i))
				return true
			}
			*n++
			if ctestFillOne(v.Field(i), target, n, name) {
				return true
			}
		}
	}
	return false
}

// The walk reaches every field: the Manifest with all of them set has
// none at its zero, and one field set alone differs from the empty
// Manifest in that field only.
func TestCacheCodecFillReachesEveryField(t *testing.T) {
	var all Manifest
	ctestFillAll(reflect.ValueOf(&all).Elem())
	seen := map[string]bool{}
	fieldsSet(reflect.ValueOf(&all), seen)
	for name, set := range seen {
		require.True(t, set, name)
	}
	var m Manifest
	n, name := 0, ""
	require.True(t, ctestFillOne(reflect.ValueOf(&m).Elem(), 0, &n, &name))
	require.Equal(t, "Manifest.Path", name)
	require.Equal(t, Manifest{Path: "x"}, m)
	e := encodeEntry(&m, [sha256.Size]byte{})
	require.True(t, bytes.Contains(e, []byte("x")))
}

// Every value has one encoding: the structure of a real entry with any
// one byte changed to any of a few values that matter to varints and
// flags, sealed with a valid checksum, is refused or decodes to a
// Manifest that encodes to exactly those bytes. (The fuzz target tries
// the same at random; this is every byte, every time.)
func TestCacheCodecOneEncoding(t *testing.T) {
	m, err := ParseWithLimits("gate.toml", genFull(3, 2), fuzzCacheLimits)
	require.NoError(t, err)
	e := encodeEntry(m, fuzzCacheKey)
	strs, params, st := ctestSplit(t, e)
	accepted := 0
	for i := range st {
		for _, v := range []byte{0, 1, 2, 3, 0x7f, 0x80, 0xff} {
			if st[i] == v {
				continue
			}
			b := bytes.Clone(st)
			b[i] = v
			sealed := ctestSeal(fuzzCacheKey, ctestPayload(strs, params, b))
			got, err := decodeEntry(sealed, fuzzCacheKey, fuzzCacheLimits)
			if err != nil {
				continue
			}
			accepted++
			require.Equal(t, sealed, encodeEntry(got, fuzzCacheKey), "byte %d of the structure set to %#x", i, v)
		}
	}
	require.Positive(t, accepted, "some changes are other valid manifests (a line number, a length)")
}
