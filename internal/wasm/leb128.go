package wasm

import "errors"

// Errors of the LEB128 decoders. The reader turns them into FormatErrors that
// say where the integer was.
var (
	errTruncated  = errors.New("unexpected end")
	errLEBTooLong = errors.New("integer representation too long")
	errLEBTooBig  = errors.New("integer too large")
)

// decodeU32 decodes an unsigned LEB128 u32 from the start of b and returns the
// value and the number of bytes it used. At most 5 bytes, and the 4 bits of the
// fifth byte that do not fit in 32 bits must be zero (as in the spec and in
// wazero).
func decodeU32(b []byte) (uint32, int, error) {
	var v uint32
	for i := 0; i < 5; i++ {
		if i >= len(b) {
			return 0, 0, errTruncated
		}
		c := b[i]
		if i == 4 {
			if c&0x80 != 0 {
				return 0, 0, errLEBTooLong
			}
			if c&0xf0 != 0 {
				return 0, 0, errLEBTooBig
			}
		}
		v |= uint32(c&0x7f) << (7 * i)
		if c&0x80 == 0 {
			return v, i + 1, nil
		}
	}
	return 0, 0, errLEBTooLong // not reached: the fifth byte returns above
}

// decodeS32 decodes a signed LEB128 s32. At most 5 bytes. The spec requires the
// 3 unused bits of a fifth byte to repeat the sign bit; wazero checks only the
// lower two of them, and we accept what wazero accepts (see the package doc).
func decodeS32(b []byte) (int32, int, error) {
	var v int32
	for i := 0; i < 5; i++ {
		if i >= len(b) {
			return 0, 0, errTruncated
		}
		c := b[i]
		v |= int32(c&0x7f) << (7 * i)
		if c&0x80 != 0 {
			if i == 4 {
				return 0, 0, errLEBTooLong
			}
			continue
		}
		if i == 4 {
			want := byte(0)
			if c&0x08 != 0 {
				want = 0x30
			}
			if c&0x30 != want {
				return 0, 0, errLEBTooBig
			}
		} else if c&0x40 != 0 {
			v |= -1 << (7 * (i + 1))
		}
		return v, i + 1, nil
	}
	return 0, 0, errLEBTooLong // not reached
}

// decodeS33 decodes a signed LEB128 s33 (block types and heap types) the way
// wazero does: it reads at most 5 bytes and stops after the fifth even if that
// byte has its continuation bit set, and of the unused bits of a fifth byte it
// checks only the one next to the sign bit. Mirroring this matters more than
// strictness here: wazero's validator and compiler both use that decoder, so
// this is where wazero thinks the next instruction starts.
func decodeS33(b []byte) (int64, int, error) {
	var v int64
	var c byte
	n := 0
	for n < 5 {
		if n >= len(b) {
			return 0, 0, errTruncated
		}
		c = b[n]
		v |= int64(c&0x7f) << (7 * n)
		n++
		if c&0x80 == 0 {
			break
		}
	}
	shift := 7 * n
	if shift < 33 && c&0x40 != 0 {
		v |= -1 << shift
	}
	v &= 1<<33 - 1
	if v&(1<<32) != 0 {
		v -= 1 << 33
	}
	if n == 5 {
		want := byte(0)
		if v < 0 {
			want = 0x20
		}
		if c&0x20 != want {
			return 0, 0, errLEBTooBig
		}
	}
	return v, n, nil
}

// decodeS64 decodes a signed LEB128 s64. At most 10 bytes; of the 6 unused
// bits of a tenth byte, wazero checks (and so do we) the lower five.
func decodeS64(b []byte) (int64, int, error) {
	var v int64
	for i := 0; i < 10; i++ {
		if i >= len(b) {
			return 0, 0, errTruncated
		}
		c := b[i]
		v |= int64(c&0x7f) << (7 * i)
		if c&0x80 != 0 {
			if i == 9 {
				return 0, 0, errLEBTooLong
			}
			continue
		}
		if i == 9 {
			want := byte(0)
			if c&0x01 != 0 {
				want = 0x3e
			}
			if c&0x3e != want {
				return 0, 0, errLEBTooBig
			}
		} else if c&0x40 != 0 {
			v |= -1 << (7 * (i + 1))
		}
		return v, i + 1, nil
	}
	return 0, 0, errLEBTooLong // not reached
}

// AppendU32 appends the shortest unsigned LEB128 encoding of v.
func AppendU32(dst []byte, v uint32) []byte {
	for v >= 0x80 {
		dst = append(dst, byte(v)|0x80)
		v >>= 7
	}
	return append(dst, byte(v))
}

// AppendS32 appends the shortest signed LEB128 encoding of v.
func AppendS32(dst []byte, v int32) []byte {
	return AppendS64(dst, int64(v))
}

// AppendS64 appends the shortest signed LEB128 encoding of v.
func AppendS64(dst []byte, v int64) []byte {
	for {
		c := byte(v & 0x7f)
		v >>= 7
		if (v == 0 && c&0x40 == 0) || (v == -1 && c&0x40 != 0) {
			return append(dst, c)
		}
		dst = append(dst, c|0x80)
	}
}

// SizeU32 is the length of the shortest unsigned LEB128 encoding of v.
func SizeU32(v uint32) int {
	n := 1
	for v >= 0x80 {
		v >>= 7
		n++
	}
	return n
}
