package host

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/binary"
	"math/bits"
	"net/url"
	"slices"
	"strconv"
)

// redactor finds secret values in bytes with a rolling hash (Rabin-Karp):
// for each length of value it hashes every window of b of that length,
// and only where a window's hash equals a value's does it compare the two,
// with subtle.ConstantTimeCompare. The hashing does the same arithmetic
// whatever the bytes are, so a probe that feeds back guesses (through an
// echo server, say) learns nothing from how long a redaction took until
// it has the whole value; bytes.Index would stop early at the first byte
// that differs. The hash is a polynomial modulo the prime 2^61-1 in a base
// drawn at random when the process starts, so no input can be built to
// collide with a value, and a false hit (which costs one compare, and
// tells nothing but that) has a chance of about len/2^61.
type redactor struct {
	groups []redactGroup // by length, longest first
}

type redactGroup struct {
	n    int // the values' length
	pats []redactPattern
	// out[c] is c*hashBase^(n-1) mod hashPrime: what a byte c leaving the
	// window weighs, looked up rather than multiplied, which makes the
	// scan a third quicker.
	out *[256]uint64
}

type redactPattern struct {
	value       []byte
	hash        uint64
	placeholder string
}

// add adds a value in every form the host itself may have put it on the
// wire or a peer may hand it back in a URL: as it is, query-escaped (how
// a query carries it) and path-escaped (how a Location or a URL error
// spells it). None is longer than maxPattern.
func (r *redactor) add(name, value string) {
	ph := placeholderOpen + name + "}"
	r.addValue(ph, value)
	for _, f := range []string{url.QueryEscape(value), url.PathEscape(value)} {
		if f != value && !r.has(ph, f) {
			r.addValue(ph, f)
		}
	}
}

// addQuoted adds value as Go writes it inside a quoted string (%q,
// strconv.Quote without its quotes), when that differs: a quote, a
// backslash, a control or non-printable character, a byte that is not
// UTF-8 each become an escape. The form is up to four times the value's
// length, so it is for texts only (see Call.textRedactorOf).
func (r *redactor) addQuoted(name, value string) {
	q := strconv.Quote(value)
	q = q[1 : len(q)-1]
	if ph := placeholderOpen + name + "}"; q != value && !r.has(ph, q) {
		r.addValue(ph, q)
	}
}

func (r *redactor) has(placeholder, value string) bool {
	for _, g := range r.groups {
		for _, p := range g.pats {
			if p.placeholder == placeholder && string(p.value) == value {
				return true
			}
		}
	}
	return false
}

// redact returns b with every value replaced by its placeholder (see
// apply). It may return b itself when there is nothing to replace, and
// never changes b.
func (r *redactor) redact(b []byte) []byte {
	if r == nil {
		return b
	}
	hits, _ := r.scan(b)
	if len(hits) == 0 {
		return b
	}
	return r.apply(b, hits)
}

func (r *redactor) addValue(placeholder, value string) {
	p := redactPattern{value: []byte(value), hash: hashBytes([]byte(value)), placeholder: placeholder}
	for i := range r.groups {
		if r.groups[i].n == len(value) {
			r.groups[i].pats = append(r.groups[i].pats, p)
			return
		}
	}
	g := redactGroup{n: len(value), pats: []redactPattern{p}, out: new([256]uint64)}
	pow := powMod(hashBase, len(value)-1)
	for c := range g.out {
		g.out[c] = mulMod(uint64(c), pow)
	}
	r.groups = append(r.groups, g)
}

func (r *redactor) seal() {
	slices.SortFunc(r.groups, func(a, b redactGroup) int { return b.n - a.n })
}

// redactHit is one occurrence of a value: b[start:end] holds it.
type redactHit struct {
	start, end  int
	placeholder string
}

// scan returns every occurrence of every value in b, and the work it did:
// one unit per window hashed against each value, plus one per byte
// compared. The work depends only on the lengths and the real matches,
// which a test checks.
func (r *redactor) scan(b []byte) (hits []redactHit, work int) {
	for gi := range r.groups {
		g := &r.groups[gi]
		if g.n > len(b) {
			continue
		}
		h := hashBytes(b[:g.n])
		for i := 0; ; i++ {
			for pi := range g.pats {
				p := &g.pats[pi]
				work++
				if h == p.hash {
					work += g.n
					if subtle.ConstantTimeCompare(b[i:i+g.n], p.value) == 1 {
						hits = append(hits, redactHit{start: i, end: i + g.n, placeholder: p.placeholder})
					}
				}
			}
			if i+g.n == len(b) {
				break
			}
			h = roll(h, g.out[b[i]], uint64(b[i+g.n]))
		}
	}
	return hits, work
}

// apply builds b with the hits taken out (see redact).
func (r *redactor) apply(b []byte, hits []redactHit) []byte {
	// Stable: of two values alike, the first granted name's placeholder.
	slices.SortStableFunc(hits, func(x, y redactHit) int {
		if x.start != y.start {
			return x.start - y.start
		}
		return y.end - x.end // the longer first
	})
	out := make([]byte, 0, len(b))
	last := 0
	for i := 0; i < len(hits); {
		out = append(out, b[last:hits[i].start]...)
		out = append(out, hits[i].placeholder...)
		end := hits[i].end
		for ; i < len(hits) && hits[i].start <= end; i++ {
			end = max(end, hits[i].end)
		}
		last = end
	}
	return append(out, b[last:]...)
}

// The rolling hash: polynomials modulo the Mersenne prime 2^61-1, in
// arithmetic without branches on the values.
const hashPrime = 1<<61 - 1

// hashBase is drawn once per process, so that nobody can choose input that
// collides with a value they do not know.
var hashBase = func() uint64 {
	var b [8]byte
	_, _ = rand.Read(b[:]) // never fails (crypto/rand crashes the program instead)
	return 256 + binary.LittleEndian.Uint64(b[:])%(hashPrime-512)
}()

// reduce takes x to x mod hashPrime: folded once (2^61 is 1), x is at
// most hashPrime+7, so one subtraction at most remains.
func reduce(x uint64) uint64 {
	x = (x & hashPrime) + (x >> 61)
	t := x - hashPrime
	return t + hashPrime&uint64(int64(t)>>63) // x if x < hashPrime, else x-hashPrime
}

func mulMod(a, b uint64) uint64 {
	hi, lo := bits.Mul64(a, b) // < 2^122
	return reduce((lo & hashPrime) + (lo>>61 | hi<<3))
}

// roll moves a window's hash h one byte on: the byte whose weight is
// leaving (see redactGroup.out) goes, entering comes in. It reduces once,
// not after each operation, as the scan's time is this chain's latency:
// h+hashPrime-leaving < 2^62, its product with hashBase < 2^123, folded
// below 2^63 with entering added.
func roll(h, leaving, entering uint64) uint64 {
	hi, lo := bits.Mul64(h+hashPrime-leaving, hashBase)
	return reduce((lo & hashPrime) + (lo>>61 | hi<<3) + entering)
}

func addMod(a, b uint64) uint64 { return reduce(a + b) }
func subMod(a, b uint64) uint64 { return reduce(a + hashPrime - b) }

func hashBytes(b []byte) uint64 {
	var h uint64
	for _, c := range b {
		h = addMod(mulMod(h, hashBase), uint64(c))
	}
	return h
}

func powMod(x uint64, n int) uint64 {
	r := uint64(1)
	for ; n > 0; n-- {
		r = mulMod(r, x)
	}
	return r
}
