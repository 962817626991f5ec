package host

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
)

// The host's cuts at every offset: the fuzzers place a value of any
// length at any offset of what the host cuts, and read with any buffer and
// timeout. Their seeds are the cuts of hostile_secrets_cuts_test.go, which
// run with every go test.

// fuzzedLength is a value's length from 1 to MaxSecret.
func fuzzedLength(n uint16) int {
	if l := int(n) % MaxSecret; l > 0 {
		return l
	}
	return MaxSecret
}

// FuzzHostileSecretBodyWindow: a service repeats the value times over
// after pad bytes; no part of it may show in the kept body.
func FuzzHostileSecretBodyWindow(f *testing.F) {
	for _, s := range []struct {
		n     uint16
		pad   uint32
		times uint16
	}{
		{100, (MaxHTTPBody + MaxSecret - 50) % 101, 6000},
		{MaxSecret, 80, 40},
		{1, 0, 9000},
		{3, 65535, 1},
	} {
		f.Add(s.n, s.pad, s.times)
	}
	g := newGuest(f)
	origin, _ := hostileHTTP(f, http.HandlerFunc(repeatHandler))
	dest := origin + "/"
	f.Fuzz(func(t *testing.T, n uint16, pad uint32, times uint16) {
		v := hostileValue(uint64(n), fuzzedLength(n))
		c := hostileCall(t, grantsOf(reach(dest), boundSecret("P", dest)), map[string]string{"P": v})
		req := fmt.Sprintf("POST %s/repeat?times=%d&pad=%d\n\n${secret:P},", origin, times%10000, pad%(2*MaxHTTPBody))
		h := g.http(t, c, req, 0, 0)
		if h == StatusDenied {
			// The body held the value: withheld whole.
			assertWithheld(t, g, c, h, "P", origin)
			return
		}
		if h < 0 {
			t.Fatalf("the honest request: %d %s", h, g.lastError(t, c))
		}
		_, body := g.wholeBody(t, c, h)
		assertNoLeak(t, v, "the kept body", body, req)
	})
}

// FuzzHostileSecretRecvSplit: a peer sends pad bytes and the value in two
// writes, split into it; the probe reads the first with any buffer and a
// timeout of 1 to 3 ms, then the rest once it is in the host's socket. No
// piece may show part of the value. (A peer that pauses for longer than
// the host's quiet gap, 5 ms, in the middle of a value defeats any host
// that must answer in time: the timeouts stay below it.)
func FuzzHostileSecretRecvSplit(f *testing.F) {
	for _, s := range []struct {
		n, pad, into, cap uint16
		timeout           uint8
	}{
		{100, 0, 50, bufCap - 1, 1},
		{100, 10, 3, bufCap - 1, 1},
		{100, 20000, 99, bufCap - 1, 1},
		{100, 0, 50, 0, 1},
		{MaxSecret, 5, 4000, 7, 0},
		{2, 1, 1, 1, 2},
	} {
		f.Add(s.n, s.pad, s.into, s.cap, s.timeout)
	}
	g := newGuest(f)
	f.Fuzz(func(t *testing.T, n, pad, into, cap uint16, timeout uint8) {
		v := hostileValue(uint64(n), fuzzedLength(n))
		cut := int(into) % (len(v) + 1)
		bufSize := uint32(cap)%bufCap + 1
		// At most 64 reads of padding, so that a small buffer stays quick.
		padding := strings.Repeat("p", int(pad)%(64*int(bufSize)+1))
		msg := "${secret:P}\n"
		var pieces []string
		if !prompt(t, func() *stall {
			peer := stallPeer(t, func(line string) string { return padding + line[:cut] }, func(line string) string { return line[cut:] })
			c := hostileCall(t, grantsOf(reach(peer.addr), boundSecret("P", peer.addr)), map[string]string{"P": v})
			h := g.connect(t, c, peer.addr, 0, 0)
			if h < 0 {
				t.Fatal(g.lastError(t, c))
			}
			if got := g.send(t, c, h, msg); got != int32(len(msg)) {
				t.Fatalf("send: %d %s", got, g.lastError(t, c))
			}
			waitSignal(t, peer.firstSent, "the peer's first part")
			pieces = nil
			// The first part, with a timeout that ends the wait while the
			// rest of the value is still to come; none (0, the budget)
			// would wait for it forever.
			if timeout%4 > 0 {
				if got, s := g.recv(t, c, h, bufSize, int32(timeout%4)); got > 0 {
					pieces = append(pieces, s)
				}
			}
			close(peer.next)
			waitSignal(t, peer.restSent, "the peer's second part")
			for !strings.HasSuffix(strings.Join(pieces, ""), "\n") {
				got, s := g.recv(t, c, h, bufSize, 0)
				if got == StatusDenied {
					// The value, found whole: withheld from there.
					assertWithheld(t, g, c, got, "P", peer.addr)
					break
				}
				if got <= 0 {
					t.Fatalf("the rest: %d %s", got, g.lastError(t, c))
				}
				pieces = append(pieces, s)
			}
			return peer
		}) {
			return
		}
		for i, p := range pieces {
			assertNoLeak(t, v, fmt.Sprintf("recv %d of %d", i+1, len(pieces)), p, msg)
		}
		// And put together, as the probe may.
		assertNoLeak(t, v, "all the pieces", strings.Join(pieces, ""), msg)
	})
}
