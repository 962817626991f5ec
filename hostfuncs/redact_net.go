package hostfuncs

import "crypto/subtle"

// Redaction where the host, not the peer, splits what comes in: a recv
// reads the socket in chunks and gate.http keeps the first MaxHTTPBody
// bytes of a body. A probe that pads what an echo server sends back could
// otherwise place a secret across the host's cut and read the part before
// it. So a chunk's tail that may begin a secret's value is held back until
// more comes (or the stream ends), and a cut moves past a value that spans
// it.

// redactChunk redacts a stream's bytes b (the tail held back earlier, then
// what was read): out is what the probe may read now, rest the raw tail
// that may begin a secret's value, to go before the next read's bytes.
// With final (the stream ended, failed or timed out), nothing is held.
func (c *Call) redactChunk(b []byte, final bool) (out, rest []byte) {
	r := c.redactorFor()
	if r == nil {
		return b, nil
	}
	n := len(b)
	if !final {
		n -= r.heldBack(b)
	}
	return r.redactCut(b, n)
}

// redactCut redacts b[:n], with n first moved forward past every value
// that spans it, and returns that and the raw rest of b.
func (r *redactor) redactCut(b []byte, n int) (out, rest []byte) {
	hits, _ := r.scan(b)
	for moved := true; moved; {
		moved = false
		for _, h := range hits {
			if h.start < n && h.end > n {
				n, moved = h.end, true
			}
		}
	}
	keep := hits[:0]
	for _, h := range hits {
		if h.end <= n {
			keep = append(keep, h)
		}
	}
	if len(keep) == 0 {
		return b[:n], b[n:]
	}
	return r.apply(b[:n], keep), b[n:]
}

// heldBack is the length of the longest tail of b that is a proper prefix
// of a secret's value. Every length of every value is compared, in
// constant time, whatever b holds: how long it takes tells nothing.
func (r *redactor) heldBack(b []byte) int {
	held := 0
	for gi := range r.groups {
		for _, p := range r.groups[gi].pats {
			for k := 1; k < len(p.value) && k <= len(b); k++ {
				eq := subtle.ConstantTimeCompare(b[len(b)-k:], p.value[:k])
				held = subtle.ConstantTimeSelect(eq, max(held, k), held)
			}
		}
	}
	return held
}

// longestSecret is the length of the longest value redaction looks for;
// 0 when there is none.
func (c *Call) longestSecret() int {
	r := c.redactorFor()
	if r == nil {
		return 0
	}
	return r.groups[0].n // sorted longest first
}
