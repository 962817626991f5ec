package hostfuncs

import (
	"bytes"
	"crypto/rand"
	"crypto/subtle"
	"encoding/binary"
	"fmt"
	"math/bits"
	"net/url"
	"slices"
)

// Secrets (ABI v2) are variables a probe may send but never see. The probe
// writes ${secret:NAME} where a value belongs, in gate.send's bytes or
// gate.http's request; the host substitutes the value on the way out and
// replaces the value with the same placeholder in everything that comes
// back in: received bytes, response headers and bodies, the host's error
// texts, and the run's reason, logs and output. docs/ABI.md ("Secrets")
// states what this does and does not promise.
//
// NAME is [A-Za-z_][A-Za-z0-9_]*. Anything else that starts with "${",
// such as "${secret:}" or "${HOME}", is not a placeholder and is sent as
// written.

// placeholderOpen starts every placeholder.
const placeholderOpen = "${secret:"

// secretCache holds the values of the run's secrets once read, so that
// each is read from the environment once per run. It is reset with the
// Call, so no value outlives its run. The zero value is empty.
type secretCache struct {
	read []secretValue
	// redactor is built by the run's first redaction, from every granted
	// secret that is set; built says it was (it may be empty).
	redactor redactor
	built    bool
}

type secretValue struct {
	name, value string
	set         bool
}

// secret returns the value of the secret name, reading it from the
// environment the first time in a run.
func (c *Call) secret(name string) (string, bool) {
	if c.secrets == nil {
		// Made on first use: a Call is per run, and most runs have no
		// secret, so its size is every fresh run's.
		c.secrets = new(secretCache)
	}
	for _, v := range c.secrets.read {
		if v.name == name {
			return v.value, v.set
		}
	}
	v, set := c.lookupEnv(name)
	c.secrets.read = append(c.secrets.read, secretValue{name: name, value: v, set: set})
	return v, set
}

// substitute returns b with every ${secret:NAME} placeholder replaced by
// its value. A placeholder naming a secret that is not granted answers
// StatusDenied (and records a denial of kind "secret"); one whose variable
// is not set, is empty or is longer than MaxSecret answers StatusNotFound.
// Denials are checked first, for every placeholder, before any variable is
// read. why is the host's text for a failure, for gate.last_error; it
// never depends on a value beyond the status (empty and too long read the
// same). b itself is never changed: out is b when it holds no placeholder
// and a new slice otherwise.
func (c *Call) substitute(b []byte) (out []byte, status int32, why string) {
	return c.substituteEscaped(b, nil)
}

// substituteEscaped is substitute with escape applied to each value before
// it is put in (url.QueryEscape for a URL's query); nil means none.
func (c *Call) substituteEscaped(b []byte, escape func(string) string) ([]byte, int32, string) {
	if !bytes.Contains(b, []byte(placeholderOpen)) {
		return b, StatusOK, ""
	}
	status, why := StatusOK, ""
	for at := 0; ; {
		start, end, name := nextPlaceholder(b, at)
		if start < 0 {
			break
		}
		at = end
		if !c.Policy.AllowSecret(name) {
			c.deny("secret", name)
			if status == StatusOK {
				status, why = StatusDenied, Denial{Kind: "secret", Request: name, Probe: c.Probe}.String()
			}
		}
	}
	if status != StatusOK {
		return nil, status, why
	}
	var out []byte
	last := 0
	for at := 0; ; {
		start, end, name := nextPlaceholder(b, at)
		if start < 0 {
			break
		}
		v, set := c.secret(name)
		switch {
		case !set:
			return nil, StatusNotFound, fmt.Sprintf("secret %q is not set", name)
		case v == "" || len(v) > MaxSecret:
			return nil, StatusNotFound, fmt.Sprintf("secret %q is empty or longer than %d bytes", name, MaxSecret)
		}
		if escape != nil {
			v = escape(v)
		}
		if out == nil {
			out = make([]byte, 0, len(b)+len(v))
		}
		out = append(append(out, b[last:start]...), v...)
		last, at = end, end
	}
	if out == nil {
		return b, StatusOK, "" // "${secret:" but no placeholder
	}
	return append(out, b[last:]...), StatusOK, ""
}

// nextPlaceholder finds the first placeholder in b at or after from and
// returns where it starts and ends and the name it holds; start is -1
// when there is none.
func nextPlaceholder(b []byte, from int) (start, end int, name string) {
	for from < len(b) {
		i := bytes.Index(b[from:], []byte(placeholderOpen))
		if i < 0 {
			break
		}
		start = from + i
		n := start + len(placeholderOpen)
		j := n
		for j < len(b) && (b[j] == '_' || 'A' <= b[j] && b[j] <= 'Z' || 'a' <= b[j] && b[j] <= 'z' || j > n && '0' <= b[j] && b[j] <= '9') {
			j++
		}
		if j > n && j < len(b) && b[j] == '}' {
			return start, j + 1, string(b[n:j])
		}
		from = start + 1
	}
	return -1, -1, ""
}

// redact returns b with every value of a granted secret that is set
// replaced by its placeholder. It may return b itself when there is
// nothing to replace, and never changes b.
//
// Every byte that lies in an occurrence of a value is taken out, and a run
// of occurrences that overlap or touch becomes one placeholder: that of
// the run's first occurrence, the longer one where two start together.
// So where two values overlap neither shows in part, and the output does
// not tell whether one value holds another or repeats itself (which a
// probe could otherwise learn by echoing "${secret:A}${secret:A}"). A
// secret's query-escaped form, as substituteEscaped sends it, is redacted
// too.
//
// The scan takes time that depends only on the lengths of b and of the
// values, not on what they hold, up to a real match: see redactor.
func (c *Call) redact(b []byte) []byte {
	r := c.redactorFor()
	if r == nil {
		return b
	}
	hits, _ := r.scan(b)
	if len(hits) == 0 {
		return b
	}
	return r.apply(b, hits)
}

// Redact is redact for text: the engine passes the run's reason, logs,
// notes and output through it before they leave the run.
func (c *Call) Redact(s string) string {
	r := c.redactorFor()
	if r == nil {
		return s
	}
	b := []byte(s)
	hits, _ := r.scan(b)
	if len(hits) == 0 {
		return s
	}
	return string(r.apply(b, hits))
}

// redactorFor returns the run's redactor, built from the granted secrets
// on the first call, or nil when there is nothing to redact. A probe
// without secrets pays one length check.
func (c *Call) redactorFor() *redactor {
	names := c.Policy.Secrets()
	if len(names) == 0 {
		return nil
	}
	if c.secrets == nil {
		c.secrets = new(secretCache)
	}
	if !c.secrets.built {
		c.secrets.built = true
		for _, name := range names {
			if v, set := c.secret(name); set && v != "" {
				c.secrets.redactor.add(name, v)
			}
		}
		c.secrets.redactor.seal()
	}
	if len(c.secrets.redactor.groups) == 0 {
		return nil
	}
	return &c.secrets.redactor
}

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

func (r *redactor) add(name, value string) {
	ph := placeholderOpen + name + "}"
	r.addValue(ph, value)
	if q := url.QueryEscape(value); q != value {
		r.addValue(ph, q)
	}
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
