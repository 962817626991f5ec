package hostfuncs

import (
	"bytes"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// streamRedact feeds in to a redactStream in the pieces sizes gives
// (cycled, each at least 1), releasing after each piece as recv does, and
// returns what was handed over and the most it held at once.
func streamRedact(r *redactor, in []byte, sizes []byte, margin int) (out []byte, held int) {
	s := redactStream{margin: margin}
	for i, at := 0, 0; at < len(in); i++ {
		n := 1
		if len(sizes) > 0 {
			n = int(sizes[i%len(sizes)]) + 1
		}
		n = min(n, len(in)-at)
		s.push(in[at : at+n])
		at += n
		out = append(out, s.release(r, false)...)
		held = max(held, len(s.raw))
	}
	return append(out, s.release(r, true)...), held
}

// FuzzRedactStream is the differential pair of redaction: whatever pieces
// a peer's bytes arrive in, what the stream hands over is exactly the
// redaction of the whole, so no cut the host makes splits a value.
func FuzzRedactStream(f *testing.F) {
	f.Add("alpha-secret", "bravo", []byte("token alpha-secret bravo end"), []byte{0})
	f.Add("abcd", "cdef", []byte("xabcdefy cdefabcd"), []byte{0, 1})
	f.Add("zz", "z", bytes.Repeat([]byte("zz z"), 50), []byte{5, 3, 20})
	f.Add("p@ss w/rd", "x", []byte("q=p%40ss+w%2Frd p@ss%20w%2Frd"), []byte{1})
	f.Add(strings.Repeat("k", 30), "kk", bytes.Repeat([]byte("k"), 400), []byte{13, 7})
	f.Fuzz(func(t *testing.T, a, b string, in, sizes []byte) {
		// Short values, and a margin to match (the longest form a value
		// takes is three times its length), keep inputs short and the
		// fuzzer quick; the code is the same for every margin.
		if len(a) > 64 || len(b) > 64 || len(in) > 1<<14 {
			return
		}
		margin := 3*max(len(a), len(b), 1) - 1
		c, _ := stestCall(t, Grants{Secrets: everywhere("A", "B")}, map[string]string{"A": a, "B": b})
		r := c.redactorOf(c.allSecrets())
		whole := r.redact(in)
		got, held := streamRedact(r, in, sizes, margin)
		if !bytes.Equal(got, whole) {
			t.Fatalf("in pieces %v, %q redacts to %q; whole, to %q", sizes, in, got, whole)
		}
		if r != nil && held > len(in) {
			t.Fatalf("held %d of %d bytes", held, len(in))
		}
	})
}

// TestRedactStreamHoldsAConstant: without a value in sight, what is held
// back is maxPattern-1 bytes, whatever the secrets' lengths: the amount
// tells nothing about a value.
func TestRedactStreamHoldsAConstant(t *testing.T) {
	in := bytes.Repeat([]byte("."), 3*maxPattern)
	for _, v := range []string{"x", "hunter2", strings.Repeat("v", MaxSecret)} {
		c, _ := stestCall(t, Grants{Secrets: everywhere("K")}, map[string]string{"K": v})
		r := c.redactorOf(c.allSecrets())
		require.NotNil(t, r)
		var s redactStream
		s.push(in)
		out := s.release(r, false)
		assert.Len(t, out, len(in)-(maxPattern-1), "value of %d bytes", len(v))
		assert.Len(t, s.raw, maxPattern-1)
		assert.Equal(t, len(in)-len(out), len(s.release(r, true)))
	}
}

// TestRedactStreamRunAtTheCut: a run of values that reaches the safe point
// is held whole, start and all, so that the placeholder it becomes does not
// depend on where the bytes were cut.
func TestRedactStreamRunAtTheCut(t *testing.T) {
	c, _ := stestCall(t, Grants{Secrets: everywhere("K")}, map[string]string{"K": "abab"})
	r := c.redactorOf(c.allSecrets())
	pad := bytes.Repeat([]byte("."), maxPattern)
	for _, tail := range []string{"ab", "abab", "ababab", "abababa"} {
		var s redactStream
		s.push(append(bytes.Clone(pad), tail...))
		out := s.release(r, false)
		// The cut falls at len-(maxPattern-1): inside pad, or before
		// "abab" where it crosses.
		assert.NotContains(t, string(out), "a", tail)
		rest := s.release(r, true)
		assert.Equal(t, string(r.redact(append(bytes.Clone(pad), tail...))), string(out)+string(rest), tail)
	}
}

// TestRedactStreamNoRedactor: without secrets to look for, nothing is held.
func TestRedactStreamNoRedactor(t *testing.T) {
	var s redactStream
	s.push([]byte("+PONG\r\n"))
	assert.Equal(t, "+PONG\r\n", string(s.release(nil, false)))
	assert.True(t, s.empty())
}
