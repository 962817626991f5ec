package wasm

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestDecodeU32(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   []byte
		want uint32
		n    int
		err  error
	}{
		{[]byte{0x00}, 0, 1, nil},
		{[]byte{0x7f}, 127, 1, nil},
		{[]byte{0x80, 0x01}, 128, 2, nil},
		{[]byte{0x80, 0x00}, 0, 2, nil}, // padded, allowed up to 5 bytes
		{[]byte{0xff, 0xff, 0xff, 0xff, 0x0f}, math.MaxUint32, 5, nil},
		{[]byte{0xff, 0xff, 0xff, 0xff, 0x1f}, 0, 0, errLEBTooBig},
		{[]byte{0x80, 0x80, 0x80, 0x80, 0x80, 0x00}, 0, 0, errLEBTooLong},
		{[]byte{0x80, 0x80}, 0, 0, errTruncated},
		{nil, 0, 0, errTruncated},
	}
	for _, tc := range tests {
		v, n, err := decodeU32(tc.in)
		assert.Equal(t, tc.err, err, "% x", tc.in)
		assert.Equal(t, tc.want, v, "% x", tc.in)
		assert.Equal(t, tc.n, n, "% x", tc.in)
	}
}

func TestDecodeS32(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   []byte
		want int32
		n    int
		err  error
	}{
		{[]byte{0x00}, 0, 1, nil},
		{[]byte{0x7f}, -1, 1, nil},
		{[]byte{0x3f}, 63, 1, nil},
		{[]byte{0x40}, -64, 1, nil},
		{[]byte{0xc0, 0x00}, 64, 2, nil},
		{[]byte{0xff, 0xff, 0xff, 0xff, 0x07}, math.MaxInt32, 5, nil},
		{[]byte{0x80, 0x80, 0x80, 0x80, 0x78}, math.MinInt32, 5, nil},
		{[]byte{0xff, 0xff, 0xff, 0xff, 0x0f}, 0, 0, errLEBTooBig},    // unused bits 0 but sign bit 1
		{[]byte{0x80, 0x80, 0x80, 0x80, 0x38}, math.MinInt32, 5, nil}, // bit 6 is not checked, as in wazero
		{[]byte{0x80, 0x80, 0x80, 0x80, 0x80, 0x00}, 0, 0, errLEBTooLong},
		{[]byte{0x80}, 0, 0, errTruncated},
	}
	for _, tc := range tests {
		v, n, err := decodeS32(tc.in)
		assert.Equal(t, tc.err, err, "% x", tc.in)
		assert.Equal(t, tc.want, v, "% x", tc.in)
		assert.Equal(t, tc.n, n, "% x", tc.in)
	}
}

func TestDecodeS33(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   []byte
		want int64
		n    int
		err  error
	}{
		{[]byte{0x40}, -64, 1, nil},
		{[]byte{0x7f}, -1, 1, nil},
		{[]byte{0x80, 0x01}, 128, 2, nil},
		{[]byte{0xff, 0xff, 0xff, 0xff, 0x0f}, math.MaxUint32, 5, nil},
		{[]byte{0x80, 0x80, 0x80, 0x80, 0x70}, -1 << 32, 5, nil},
		{[]byte{0xff, 0xff, 0xff, 0xff, 0x1f}, 0, 0, errLEBTooBig},
		// wazero stops after five bytes even if the fifth says to go on.
		{[]byte{0x80, 0x80, 0x80, 0x80, 0x80, 0x00}, 0, 5, nil},
		{[]byte{0x80, 0x80}, 0, 0, errTruncated},
	}
	for _, tc := range tests {
		v, n, err := decodeS33(tc.in)
		assert.Equal(t, tc.err, err, "% x", tc.in)
		assert.Equal(t, tc.want, v, "% x", tc.in)
		assert.Equal(t, tc.n, n, "% x", tc.in)
	}
}

func TestDecodeS64(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   []byte
		want int64
		n    int
		err  error
	}{
		{[]byte{0x7f}, -1, 1, nil},
		{[]byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x00}, math.MaxInt64, 10, nil},
		{[]byte{0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x7f}, math.MinInt64, 10, nil},
		{[]byte{0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01}, 0, 0, errLEBTooBig},
		{[]byte{0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x00}, 0, 0, errLEBTooLong},
		{[]byte{0xff}, 0, 0, errTruncated},
	}
	for _, tc := range tests {
		v, n, err := decodeS64(tc.in)
		assert.Equal(t, tc.err, err, "% x", tc.in)
		assert.Equal(t, tc.want, v, "% x", tc.in)
		assert.Equal(t, tc.n, n, "% x", tc.in)
	}
}

func TestLEB128RoundTrip(t *testing.T) {
	t.Parallel()
	for _, v := range []uint32{0, 1, 63, 64, 127, 128, 16383, 16384, 1 << 31, math.MaxUint32} {
		b := AppendU32(nil, v)
		assert.Equal(t, SizeU32(v), len(b))
		got, n, err := decodeU32(b)
		assert.NoError(t, err)
		assert.Equal(t, v, got)
		assert.Equal(t, len(b), n)
	}
	for _, v := range []int64{0, 1, -1, 63, 64, -64, -65, math.MaxInt32, math.MinInt32, math.MaxInt64, math.MinInt64} {
		b := AppendS64(nil, v)
		got, n, err := decodeS64(b)
		assert.NoError(t, err)
		assert.Equal(t, v, got)
		assert.Equal(t, len(b), n)
		if v == int64(int32(v)) {
			assert.Equal(t, b, AppendS32(nil, int32(v)))
			got32, _, err := decodeS32(b)
			assert.NoError(t, err)
			assert.Equal(t, int32(v), got32)
		}
	}
}
