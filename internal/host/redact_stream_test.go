package host

import (
	"bytes"
	"strings"
	"testing"
	"time"

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

// FuzzRecvCuts is the same pair through a real socket and recv: a probe
// that places a value anywhere in what it sends (padding moves it across
// the host's 64 KiB reads and the hold's margin) and reads the echo with
// any buffer size and any short timeout reads exactly the redaction of
// what the peer sent back.
func FuzzRecvCuts(f *testing.F) {
	f.Add("s3cr7", uint16(0), uint16(64), uint8(0))
	f.Add("0123456789abcdefghijklmnopqrstuvwxyzABCD", uint16(65536-60), uint16(1), uint8(1))
	f.Add("zz", uint16(12280), uint16(24576), uint8(2))
	f.Add("p@ss w/rd", uint16(40000), uint16(4095), uint8(3))
	g := newGuest(f)
	l := echoServer(f, "tcp", "127.0.0.1:0")
	f.Fuzz(func(t *testing.T, value string, pad, bufcap uint16, timeoutMS uint8) {
		if value == "" || len(value) > 64 || strings.Contains(value, "${") {
			return
		}
		c := secretCall(t, Grants{Dial: []string{"127.0.0.1:*"}}, value)
		defer c.End()
		h := g.connect(t, c, l.Addr().String(), 0, 0)
		require.Positive(t, h)
		// The whole page holds the message; the receive buffer reuses it
		// once it is sent.
		padding := strings.Repeat(".", int(pad)%((MaxBytesOut-2*MaxSecret)*3/4))
		msg := padding + "${secret:K}" + padding[:len(padding)/3]
		p, n := g.put(t, 0, msg)
		require.Equal(t, int32(len(msg)), g.v2(t, c, "send", uint32(h), p, n), g.lastError(t, c))
		echo := strings.Replace(msg, "${secret:K}", value, 1)
		capacity := uint32(bufcap)%bufCap + 1
		var b strings.Builder
		for c.Remaining() > time.Second {
			n, part := g.recv(t, c, h, capacity, int32(timeoutMS%4))
			if n == StatusTimedOut {
				continue
			}
			if n <= 0 {
				// The value, found whole: the stream is withheld there.
				assertWithheld(t, g, c, n, "K", l.Addr().String())
				break
			}
			b.WriteString(part)
		}
		// What was handed over is a prefix of the echo that stops before
		// the value: never a part of it.
		if got := b.String(); !strings.HasPrefix(echo, got) || len(got) > strings.Index(echo, value) {
			t.Fatalf("value %q at %d, read by %d with %d ms timeouts: got %d bytes of the echo; value shows: %v",
				value, len(padding), capacity, timeoutMS%4, b.Len(), strings.Contains(got, value))
		}
	})
}
