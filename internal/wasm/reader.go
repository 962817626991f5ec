package wasm

import (
	"fmt"
	"unicode/utf8"
)

// reader is a bounds-checked cursor over b with a sticky error: after the
// first failure every read returns a zero value and leaves err unchanged, so
// decoding code can read a whole record and check err once. Loops over
// declared counts must still check err, which is what keeps a bogus count
// from spinning.
type reader struct {
	b    []byte
	pos  int // next byte to read, index into b
	end  int // reads must stay below end (the current section or item)
	base int // offset of b[0] in the original input, for error offsets

	section string // section name for errors
	what    string // item being read, for errors ("import", "function")
	index   int    // index of that item, or -1
	err     *FormatError
}

func newReader(b []byte, base int, section string) *reader {
	return &reader{b: b, end: len(b), base: base, section: section, index: -1}
}

// item sets the context that prefixes error messages, e.g. "import 3: ".
func (r *reader) item(what string, index int) {
	r.what, r.index = what, index
}

// failAt records an error at the given position in b (unless one is already
// recorded).
func (r *reader) failAt(pos int, format string, args ...any) {
	if r.err != nil {
		return
	}
	msg := fmt.Sprintf(format, args...)
	if r.what != "" {
		if r.index >= 0 {
			msg = fmt.Sprintf("%s %d: %s", r.what, r.index, msg)
		} else {
			msg = r.what + ": " + msg
		}
	}
	r.err = &FormatError{Offset: r.base + pos, Section: r.section, Msg: msg}
}

func (r *reader) fail(format string, args ...any) { r.failAt(r.pos, format, args...) }

func (r *reader) ok() bool { return r.err == nil }

func (r *reader) remaining() int { return r.end - r.pos }

func (r *reader) truncated() {
	r.fail("unexpected end of %s", r.scope())
}

func (r *reader) scope() string {
	if r.section == "" {
		return "input"
	}
	if r.section == "code" && r.what == "function" {
		return "function body"
	}
	return "section"
}

func (r *reader) byte() byte {
	if r.err != nil {
		return 0
	}
	if r.pos >= r.end {
		r.truncated()
		return 0
	}
	c := r.b[r.pos]
	r.pos++
	return c
}

// peek returns the next byte without consuming it (0 at the end; the next
// read reports the truncation).
func (r *reader) peek() byte {
	if r.err != nil || r.pos >= r.end {
		return 0
	}
	return r.b[r.pos]
}

func (r *reader) lebError(err error, kind string) {
	if err == errTruncated {
		r.truncated()
		return
	}
	r.fail("malformed %s: %v", kind, err)
}

func (r *reader) u32() uint32 {
	if r.err != nil {
		return 0
	}
	v, n, err := decodeU32(r.b[r.pos:r.end])
	if err != nil {
		r.lebError(err, "u32")
		return 0
	}
	r.pos += n
	return v
}

func (r *reader) s32() int32 {
	if r.err != nil {
		return 0
	}
	v, n, err := decodeS32(r.b[r.pos:r.end])
	if err != nil {
		r.lebError(err, "s32")
		return 0
	}
	r.pos += n
	return v
}

func (r *reader) s33() int64 {
	if r.err != nil {
		return 0
	}
	v, n, err := decodeS33(r.b[r.pos:r.end])
	if err != nil {
		r.lebError(err, "s33")
		return 0
	}
	r.pos += n
	return v
}

func (r *reader) s64() int64 {
	if r.err != nil {
		return 0
	}
	v, n, err := decodeS64(r.b[r.pos:r.end])
	if err != nil {
		r.lebError(err, "s64")
		return 0
	}
	r.pos += n
	return v
}

// indexRef reads a u32 index immediate and records where it is encoded.
func (r *reader) indexRef() IndexRef {
	start := r.pos
	v := r.u32()
	return IndexRef{Index: v, Span: Span{Offset: r.base + start, Size: r.pos - start}}
}

// bytes reads n raw bytes (a subslice of the input, not a copy).
func (r *reader) bytes(n uint32) []byte {
	if r.err != nil {
		return nil
	}
	if uint64(n) > uint64(r.remaining()) {
		r.fail("%d bytes declared but only %d left in the %s", n, r.remaining(), r.scope())
		return nil
	}
	b := r.b[r.pos : r.pos+int(n)]
	r.pos += int(n)
	return b
}

// name reads a length-prefixed UTF-8 string.
func (r *reader) name() string {
	start := r.pos
	b := r.bytes(r.u32())
	if r.err != nil {
		return ""
	}
	if !utf8.Valid(b) {
		r.failAt(start, "name is not valid UTF-8")
		return ""
	}
	return string(b)
}

// count reads a vector length and checks that the rest of the current scope
// could hold that many items of at least minSize bytes each. This check comes
// before any allocation sized by the count, so a tiny input cannot make us
// allocate gigabytes.
func (r *reader) count(minSize int) uint32 {
	start := r.pos
	n := r.u32()
	if r.err != nil {
		return 0
	}
	if uint64(n)*uint64(minSize) > uint64(r.remaining()) {
		r.failAt(start, "count %d is larger than the remaining %d bytes of the %s can hold", n, r.remaining(), r.scope())
		return 0
	}
	return n
}
