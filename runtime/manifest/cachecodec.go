package manifest

// The binary form of a cached Manifest. Nothing in it is written per
// field: the codec is built once, by reflection, from the Manifest's
// types, with a rule for each kind of value (cachecodec_rules.go has the
// few rules that are about one field or type). Adding a field to any of
// those structs is all a change needs for the cache; TestCacheCodecEveryField
// sets each field of each struct in turn and round-trips it.
//
// An entry is
//
//	magic    8 bytes, cacheMagic
//	key      32 bytes, the SHA-256 it is named by (cacheKey)
//	lengths  3 uvarints: the strings, the bytes and the structure
//	strings  every string's bytes, in the order the structure uses them
//	bytes    every []byte's (a tool's Parameters), likewise
//	struct   the Manifest's fields, depth first in declaration order
//	sum      4 bytes, CRC-32C of everything before it, little-endian
//
// In the structure, a string is its length (its bytes being the next ones
// in strings) and a []byte likewise in bytes; a signed integer is a
// zigzag varint, an unsigned one a uvarint, a boolean a byte 0 or 1, a
// pointer a byte 0 (nil) or 1 and then what it points to, a slice or map
// a count (0 for nil, else its length+1) and then its elements, a map's
// sorted by key. Every value has exactly one encoding (shortest varints,
// no byte but 0 or 1 where one of them is meant, map keys strictly
// increasing, every byte of every section used), so the decoder accepts
// only what the encoder writes: decodeEntry(b) succeeds only if
// encodeEntry of its result is b again (FuzzManifestCacheDecode).
//
// The decoder is written for hostile bytes: every read is bounds-checked,
// every count is checked against what is left (each element takes at
// least a byte of the structure) and against the limits the manifest was
// parsed within before anything is allocated, every value against what
// the checks guarantee of it (cacheValueRules), and a failure anywhere is
// an error, never a panic.
//
// The codec reaches fields through unsafe.Pointer and the offsets
// reflection gives, not through reflect.Value, so that decoding a field
// is a store at an offset, as in hand-written code: a warm load is
// mostly this decoding. Every offset and every block a pointer is taken
// from comes from reflect's view of the type it is used for, and no
// pointer is made past the end of its block.

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"reflect"
	"slices"
	"strings"
	"sync"
	"unsafe"
)

// cacheMagic starts every entry.
const cacheMagic = "gateMC\x00\x0a"

var errBadEntry = errors.New("manifest cache: bad entry")

// encodeEntry returns the entry for m under key.
func encodeEntry(m *Manifest, key [sha256.Size]byte) []byte {
	e := &cenc{
		strs:   make([]byte, 0, 64<<10),
		params: make([]byte, 0, 16<<10),
		st:     make([]byte, 0, 16<<10),
	}
	manifestCodec().enc(e, unsafe.Pointer(m))
	n := len(cacheMagic) + len(key) + 3*binary.MaxVarintLen64 + len(e.strs) + len(e.params) + len(e.st) + cacheSumSize
	b := make([]byte, 0, n)
	b = append(b, cacheMagic...)
	b = append(b, key[:]...)
	b = binary.AppendUvarint(b, uint64(len(e.strs)))
	b = binary.AppendUvarint(b, uint64(len(e.params)))
	b = binary.AppendUvarint(b, uint64(len(e.st)))
	b = append(b, e.strs...)
	b = append(b, e.params...)
	b = append(b, e.st...)
	return binary.LittleEndian.AppendUint32(b, crc32.Checksum(b, castagnoli))
}

// The checksum: CRC-32C, which every single-byte change and every burst
// of up to 32 bits changes, and which costs a tenth of a millisecond for
// a 10,000-tool entry where a SHA-256 took 4 (the entries' directory is
// private, so what it guards against is damage, not forgery; the key
// inside guards against an entry under another's name).
const cacheSumSize = 4

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// decodeEntry returns the Manifest in entry b, which must be for key and
// hold a manifest within lim (resolved here), or errBadEntry.
func decodeEntry(b []byte, key [sha256.Size]byte, lim Limits) (*Manifest, error) {
	m, stored, err := decodeEntryKey(b, lim)
	if err != nil || stored != key {
		return nil, errBadEntry
	}
	return m, nil
}

// decodeEntryKey returns the Manifest in entry b and the key b is for,
// or errBadEntry.
func decodeEntryKey(b []byte, lim Limits) (_ *Manifest, key [sha256.Size]byte, _ error) {
	head := len(cacheMagic) + len(key)
	if len(b) < head+3+cacheSumSize || string(b[:len(cacheMagic)]) != cacheMagic {
		return nil, key, errBadEntry
	}
	body := b[:len(b)-cacheSumSize]
	if crc32.Checksum(body, castagnoli) != binary.LittleEndian.Uint32(b[len(body):]) {
		return nil, key, errBadEntry
	}
	copy(key[:], b[len(cacheMagic):head])
	codec := manifestCodec() // counts cachePools
	d := &cdec{st: body[head:], lim: lim.resolved(), pools: make([]cpool, cachePools)}
	var lens [3]int
	for i := range lens {
		lens[i] = d.length()
	}
	if d.bad || lens[0]+lens[1]+lens[2] != len(d.st)-d.i {
		return nil, key, errBadEntry
	}
	rest := d.st[d.i:]
	d.s = string(rest[:lens[0]])
	if lens[1] > 0 {
		d.p = bytes.Clone(rest[lens[0] : lens[0]+lens[1]])
	}
	d.st, d.i = rest[lens[0]+lens[1]:], 0
	m := new(Manifest)
	codec.dec(d, unsafe.Pointer(m))
	if d.bad || d.i != len(d.st) || d.si != len(d.s) || d.pi != len(d.p) {
		return nil, key, errBadEntry
	}
	return m, key, nil
}

// cenc encodes a Manifest into its three sections.
type cenc struct {
	strs, params, st []byte
	file             string // the last Position's File
}

func (e *cenc) uvarint(v uint64) { e.st = binary.AppendUvarint(e.st, v) }
func (e *cenc) varint(v int64)   { e.st = binary.AppendVarint(e.st, v) }
func (e *cenc) bool(v bool)      { e.st = append(e.st, b2u(v)) }

func (e *cenc) str(s string) {
	e.uvarint(uint64(len(s)))
	e.strs = append(e.strs, s...)
}

// count writes the length of a nil-able slice or map: 0 for nil, else
// length+1.
func (e *cenc) count(n int, isNil bool) {
	if isNil {
		e.uvarint(0)
		return
	}
	e.uvarint(uint64(n) + 1)
}

func b2u(v bool) byte {
	if v {
		return 1
	}
	return 0
}

// cdec decodes the structure section st, taking strings from s and bytes
// from p in turn. The first problem sets bad; every read after it
// returns a zero value, and the result is thrown away.
type cdec struct {
	st  []byte
	i   int
	s   string
	si  int
	p   []byte
	pi  int
	lim Limits
	bad bool

	file  string  // the last Position's File
	pools []cpool // where pointers' values are taken from, by type
}

func (d *cdec) fail() { d.bad = true; d.i = len(d.st) }

// uvarint reads a varint in its shortest form.
func (d *cdec) uvarint() uint64 {
	if d.i < len(d.st) && d.st[d.i] < 0x80 {
		v := d.st[d.i]
		d.i++
		return uint64(v)
	}
	v, n := binary.Uvarint(d.st[d.i:])
	if n <= 0 || d.st[d.i+n-1] == 0 {
		d.fail()
		return 0
	}
	d.i += n
	return v
}

// varint reads a zigzag varint in its shortest form.
func (d *cdec) varint() int64 {
	u := d.uvarint()
	v := int64(u >> 1)
	if u&1 != 0 {
		v = ^v
	}
	return v
}

// int reads a varint that must fit an int.
func (d *cdec) int() int {
	v := d.varint()
	if int64(int(v)) != v {
		d.fail()
		return 0
	}
	return int(v)
}

// length reads a uvarint of at most what remains of st: the length of
// something that follows.
func (d *cdec) length() int {
	v := d.uvarint()
	if v > uint64(len(d.st)) {
		d.fail()
		return 0
	}
	return int(v)
}

// bool reads a byte that must be 0 or 1.
func (d *cdec) bool() bool {
	if d.i >= len(d.st) || d.st[d.i] > 1 {
		d.fail()
		return false
	}
	d.i++
	return d.st[d.i-1] == 1
}

// str takes the next string.
func (d *cdec) str() string {
	v := d.uvarint()
	if v > uint64(len(d.s)-d.si) {
		d.fail()
		return ""
	}
	s := d.s[d.si : d.si+int(v)]
	d.si += int(v)
	return s
}

// count reads the length of a nil-able slice or map of at most max
// elements, each of which takes at least one byte of what remains.
func (d *cdec) count(max int) (n int, isNil bool) {
	v := d.uvarint()
	if v == 0 {
		return 0, true
	}
	v--
	if v > uint64(len(d.st)-d.i) || v > uint64(max) {
		d.fail()
		return 0, false
	}
	return int(v), false
}

// cpool hands out values of one pointed-to type from blocks, so that a
// Manifest's 10,000 Probes are a few allocations rather than 10,000.
type cpool struct {
	block unsafe.Pointer // a []T's first element
	used  int            // how many of the block's are taken
	n     int            // the block's length
}

// alloc returns a zero value of t, which pool i holds.
func (d *cdec) alloc(i int, t reflect.Type) unsafe.Pointer {
	pl := &d.pools[i]
	if pl.used == pl.n {
		// Doubling from 16 to 1024: a block takes at most twice the
		// values taken, each of which took a byte of the entry.
		pl.n = min(max(2*pl.n, 16), 1024)
		pl.block = reflect.MakeSlice(reflect.SliceOf(t), pl.n, pl.n).UnsafePointer()
		pl.used = 0
	}
	p := unsafe.Add(pl.block, uintptr(pl.used)*t.Size())
	pl.used++
	return p
}

// ccodec encodes and decodes the values of one type, at p.
type ccodec struct {
	enc func(e *cenc, p unsafe.Pointer)
	dec func(d *cdec, p unsafe.Pointer)
}

// cachePools is the number of pointer types in a Manifest, counted as
// its codec is built.
var cachePools int

// manifestCodec returns the codec of a Manifest, built on first use
// rather than in the package's init, which every gatectl command would
// pay for, --version included.
var manifestCodec = sync.OnceValue(func() ccodec {
	return codecOf(reflect.TypeFor[Manifest](), "Manifest", map[reflect.Type]bool{})
})

// codecOf builds the codec of type t, found at name (Type.Field) in a
// Manifest; building marks the types being built, so that a recursive
// type is refused rather than built forever. A kind no rule covers
// panics, when the codec is first used: a programming error that every
// test of the cache reports.
func codecOf(t reflect.Type, name string, building map[reflect.Type]bool) ccodec {
	if c, ok := cacheFieldCodecs[name]; ok {
		return c
	}
	switch t.Kind() {
	case reflect.String:
		return ccodec{
			enc: func(e *cenc, p unsafe.Pointer) { e.str(*(*string)(p)) },
			dec: func(d *cdec, p unsafe.Pointer) { *(*string)(p) = d.str() },
		}
	case reflect.Bool:
		return ccodec{
			enc: func(e *cenc, p unsafe.Pointer) { e.bool(*(*bool)(p)) },
			dec: func(d *cdec, p unsafe.Pointer) { *(*bool)(p) = d.bool() },
		}
	case reflect.Int:
		return ccodec{
			enc: func(e *cenc, p unsafe.Pointer) { e.varint(int64(*(*int)(p))) },
			dec: func(d *cdec, p unsafe.Pointer) { *(*int)(p) = d.int() },
		}
	case reflect.Int64:
		return ccodec{
			enc: func(e *cenc, p unsafe.Pointer) { e.varint(*(*int64)(p)) },
			dec: func(d *cdec, p unsafe.Pointer) { *(*int64)(p) = d.varint() },
		}
	case reflect.Uint64:
		return ccodec{
			enc: func(e *cenc, p unsafe.Pointer) { e.uvarint(*(*uint64)(p)) },
			dec: func(d *cdec, p unsafe.Pointer) { *(*uint64)(p) = d.uvarint() },
		}
	case reflect.Pointer:
		return pointerCodec(t, name, building)
	case reflect.Struct:
		return structCodec(t, building)
	case reflect.Slice:
		if t.Elem().Kind() == reflect.Uint8 {
			return bytesCodec
		}
		return sliceCodec(t, name, building)
	case reflect.Map:
		if t.Key().Kind() == reflect.String {
			return mapCodec(t, name, building)
		}
	}
	panic(fmt.Sprintf("manifest cache: %s (%s) has a kind the codec has no rule for", name, t))
}

// structCodec codes a struct's fields in declaration order, then checks
// the decoded value against t's rule, if it has one.
func structCodec(t reflect.Type, building map[reflect.Type]bool) ccodec {
	if building[t] {
		panic(fmt.Sprintf("manifest cache: %s is recursive", t))
	}
	building[t] = true
	defer delete(building, t)
	// Two shortcuts, because a warm load is mostly this loop: a field
	// whose kind codes its zero value as a byte 0 (all but a struct, and
	// Position.File) is left as it is when that byte comes, the fields
	// decoded into being zero; and a string or int field is decoded
	// here rather than through a call.
	type field struct {
		off   uintptr
		kind  reflect.Kind
		zero0 bool
		c     ccodec
	}
	var fields []field
	for i := range t.NumField() {
		f := t.Field(i)
		name := t.Name() + "." + f.Name
		kind := f.Type.Kind()
		_, special := cacheFieldCodecs[name]
		zero0 := !special && kind != reflect.Struct
		if special || (kind != reflect.String && kind != reflect.Int) {
			kind = reflect.Invalid
		}
		fields = append(fields, field{f.Offset, kind, zero0, codecOf(f.Type, name, building)})
	}
	if len(fields) == 0 {
		panic(fmt.Sprintf("manifest cache: %s has no fields, and would take no byte", t))
	}
	rule := cacheValueRules[t]
	return ccodec{
		enc: func(e *cenc, p unsafe.Pointer) {
			for _, f := range fields {
				f.c.enc(e, unsafe.Add(p, f.off))
			}
		},
		dec: func(d *cdec, p unsafe.Pointer) {
			for i := range fields {
				f := &fields[i]
				if f.zero0 && d.i < len(d.st) && d.st[d.i] == 0 {
					d.i++
					continue
				}
				switch q := unsafe.Add(p, f.off); f.kind {
				case reflect.String:
					*(*string)(q) = d.str()
				case reflect.Int:
					*(*int)(q) = d.int()
				default:
					f.c.dec(d, q)
				}
			}
			if rule != nil && !d.bad && !rule(p, &d.lim) {
				d.fail()
			}
		},
	}
}

// pointerCodec codes a pointer as a byte, 0 for nil, and if 1 then what
// it points to, taken from a pool.
func pointerCodec(t reflect.Type, name string, building map[reflect.Type]bool) ccodec {
	elem, et := codecOf(t.Elem(), name, building), t.Elem()
	pool := cachePools
	cachePools++
	return ccodec{
		enc: func(e *cenc, p unsafe.Pointer) {
			q := *(*unsafe.Pointer)(p)
			e.bool(q != nil)
			if q != nil {
				elem.enc(e, q)
			}
		},
		dec: func(d *cdec, p unsafe.Pointer) {
			if !d.bool() {
				return
			}
			q := d.alloc(pool, et)
			elem.dec(d, q)
			*(*unsafe.Pointer)(p) = q
		},
	}
}

// sliceCodec codes a slice as its count and its elements, at most as
// many as the field's limit (cacheCountLimit).
func sliceCodec(t reflect.Type, name string, building map[reflect.Type]bool) ccodec {
	elem, size, limit := codecOf(t.Elem(), name+"[]", building), t.Elem().Size(), cacheCountLimit(name, t)
	return ccodec{
		enc: func(e *cenc, p unsafe.Pointer) {
			v := reflect.NewAt(t, p).Elem()
			n := v.Len()
			e.count(n, v.IsNil())
			for i := range n {
				elem.enc(e, unsafe.Add(v.UnsafePointer(), uintptr(i)*size))
			}
		},
		dec: func(d *cdec, p unsafe.Pointer) {
			n, isNil := d.count(limit(&d.lim))
			if isNil || d.bad {
				return
			}
			s := reflect.MakeSlice(t, n, n)
			base := s.UnsafePointer()
			for i := range n {
				if d.bad {
					return
				}
				elem.dec(d, unsafe.Add(base, uintptr(i)*size))
			}
			reflect.NewAt(t, p).Elem().Set(s)
		},
	}
}

// mapCodec codes a map with string keys as its count and its entries,
// each a key and a value, keys strictly increasing.
func mapCodec(t reflect.Type, name string, building map[reflect.Type]bool) ccodec {
	elem, limit := codecOf(t.Elem(), name+"[]", building), cacheCountLimit(name, t)
	return ccodec{
		enc: func(e *cenc, p unsafe.Pointer) {
			m := reflect.NewAt(t, p).Elem()
			e.count(m.Len(), m.IsNil())
			keys := m.MapKeys()
			slices.SortFunc(keys, func(a, b reflect.Value) int { return strings.Compare(a.String(), b.String()) })
			v := reflect.New(t.Elem()).Elem()
			for _, k := range keys {
				e.str(k.String())
				v.Set(m.MapIndex(k))
				elem.enc(e, v.Addr().UnsafePointer())
			}
		},
		dec: func(d *cdec, p unsafe.Pointer) {
			n, isNil := d.count(limit(&d.lim))
			if isNil || d.bad {
				return
			}
			m := reflect.MakeMapWithSize(t, n)
			k, v := reflect.New(t.Key()).Elem(), reflect.New(t.Elem()).Elem()
			for i := range n {
				key := d.str()
				if i > 0 && key <= k.String() {
					d.fail() // written sorted, each once
				}
				if d.bad {
					return
				}
				k.SetString(key)
				v.SetZero()
				elem.dec(d, v.Addr().UnsafePointer())
				m.SetMapIndex(k, v)
			}
			reflect.NewAt(t, p).Elem().Set(m)
		},
	}
}

// bytesCodec codes a []byte (a tool's Parameters) as its count in the
// structure and its bytes in the bytes section. A decoded one is a slice
// of that section whose capacity ends with it, so that an append copies
// rather than overwrites the next one.
var bytesCodec = ccodec{
	enc: func(e *cenc, p unsafe.Pointer) {
		b := *(*[]byte)(p)
		e.count(len(b), b == nil)
		e.params = append(e.params, b...)
	},
	dec: func(d *cdec, p unsafe.Pointer) {
		v := d.uvarint()
		switch {
		case v == 0 || d.bad:
			return
		case v-1 > uint64(len(d.p)-d.pi):
			d.fail()
			return
		}
		n := int(v - 1)
		if n == 0 {
			*(*[]byte)(p) = []byte{}
			return
		}
		*(*[]byte)(p) = d.p[d.pi : d.pi+n : d.pi+n]
		d.pi += n
	},
}
