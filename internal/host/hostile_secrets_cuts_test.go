package host

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The host's own cuts: wherever the host ends what it hands a probe (the
// kept part of a body, one recv's bytes, the bytes-in bound), a value that
// comes back from its destination is redacted whole. A probe that places a
// value across a cut by padding must get neither part of it.

// wholeBody reads all the kept body of response h into the trampoline's
// whole page, which holds MaxHTTPBody.
func (g *guest) wholeBody(t testing.TB, c *Call, h int32) (int32, string) {
	t.Helper()
	n := g.v2(t, c, "http_body", uint32(h), 0, MaxHTTPBody)
	if n < 0 {
		return n, ""
	}
	return n, g.read(0, uint32(min(n, MaxHTTPBody)))
}

// TestHostileSecretCutHTTPBodyWindow: a service that repeats the body it is
// sent answers with thousands of copies of a value. The host reads a raw
// window of the body and redacts it; every copy shrinks to its 11-byte
// placeholder, so a raw cut lands far inside what the probe is given, and
// the copy the cut went through shows in part. The probe places that cut
// with ?pad= at any byte of the value, for a value of any length. A cut in
// the redacted text shows no part of any value.
func TestHostileSecretCutHTTPBodyWindow(t *testing.T) {
	g := newGuest(t)
	origin, _ := hostileHTTP(t, http.HandlerFunc(repeatHandler))
	dest := origin + "/"
	// The raw cuts a host might make: at the kept 64 KiB, or a value's
	// length past it; each case puts the cut `into` bytes into a copy.
	for _, tt := range []struct{ n, into, window int }{
		{100, 50, MaxHTTPBody + MaxSecret},
		{100, 3, MaxHTTPBody + MaxSecret},
		{100, 97, MaxHTTPBody + MaxSecret},
		{100, 50, MaxHTTPBody},
		{MaxSecret, 4000, MaxHTTPBody + MaxSecret},
		{MaxSecret, 2048, MaxHTTPBody},
	} {
		t.Run(fmt.Sprintf("len=%d/cut=%d+%d", tt.n, tt.window, tt.into), func(t *testing.T) {
			v := hostileValue(uint64(tt.n), tt.n)
			c := hostileCall(t, grantsOf(reach(dest), boundSecret("P", dest)), map[string]string{"P": v})
			copyLen := tt.n + 1 // the value and a comma
			pad := (tt.window - tt.into) % copyLen
			// Enough copies that the redacted body is longer than what is
			// kept too: every cut a host may make is made.
			times := MaxHTTPBody/len("${secret:P},") + 100
			req := fmt.Sprintf("POST %s/repeat?times=%d&pad=%d\n\n${secret:P},", origin, times, pad)
			h := g.http(t, c, req, 0, 0)
			// Wherever the cut falls, the body held the value: none of it
			// is handed over.
			assertWithheld(t, g, c, h, "P", origin)
		})
	}
}

// TestHostileSecretCutRecvTimeout: a peer that writes a reply in two parts
// has the value's first bytes arrive before the rest. The host coalesces
// what arrives close together before it redacts, but a recv whose timeout
// is 1 ms ends the coalescing itself, and the first part comes back with
// the value's beginning unredacted. The probe's timeout must never end
// the hold: the part that may begin a value stays held until the rest
// arrives. The rest is sent once the first recv has answered, and is in
// the host's socket before the next recv asks; the peer never pauses for
// as long as the host's quiet gap on its own.
func TestHostileSecretCutRecvTimeout(t *testing.T) {
	g := newGuest(t)
	for _, tt := range []struct{ pad, into int }{
		{0, 50}, {10, 3}, {10, 99}, {20000, 50},
	} {
		t.Run(fmt.Sprintf("pad=%d/into=%d", tt.pad, tt.into), func(t *testing.T) {
			v := hostileValue(7, 100)
			msg := "${secret:P}\n"
			var pieces []string
			if !prompt(t, func() *stall {
				peer := stallPeer(t, func(line string) string {
					return strings.Repeat("p", tt.pad) + line[:tt.into]
				}, func(line string) string { return line[tt.into:] })
				addr := peer.addr
				c := hostileCall(t, grantsOf(reach(addr), boundSecret("P", addr)), map[string]string{"P": v})
				h := g.connect(t, c, addr, 0, 0)
				require.Positive(t, h, g.lastError(t, c))
				require.Equal(t, int32(len(msg)), g.send(t, c, h, msg))
				waitSignal(t, peer.firstSent, "the peer's first part")

				pieces = nil
				n, first := g.recv(t, c, h, bufCap, 1)
				if n > 0 {
					pieces = append(pieces, first)
				} else {
					assert.Equal(t, StatusTimedOut, n, "a recv that times out while the host holds bytes answers timed out: %s", g.lastError(t, c))
				}
				close(peer.next)
				waitSignal(t, peer.restSent, "the peer's second part")
				for {
					n, s := g.recv(t, c, h, bufCap, 0)
					if n <= 0 {
						assertWithheld(t, g, c, n, "P", addr)
						break
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
		})
	}
}

func waitSignal(t testing.TB, ch <-chan struct{}, what string) {
	t.Helper()
	select {
	case <-ch:
	case <-time.After(20 * time.Second):
		t.Fatalf("%s never came", what)
	}
}

// TestHostileSecretCutBytesIn: the bytes-in bound ends what a probe may
// receive at a point the probe chooses, by reading enough first (here from
// a peer that sends nothing but 'x') and padding what the value's
// destination echoes. Where the bound falls inside a value, the part
// before it must stay held, never be handed over.
func TestHostileSecretCutBytesIn(t *testing.T) {
	g := newGuest(t)
	const room = 8192 // what is left of the bound when the echo comes back
	fountain := fountainPeer(t, MaxBytesIn-room)
	echo := echoServer(t, "tcp", "127.0.0.1:0").Addr().String()
	for _, tt := range []struct{ n, into int }{{100, 50}, {100, 3}, {MaxSecret, 4000}} {
		t.Run(fmt.Sprintf("len=%d/into=%d", tt.n, tt.into), func(t *testing.T) {
			v := hostileValue(uint64(tt.n)+1, tt.n)
			c := hostileCall(t, grantsOf(reach(fountain, echo), boundSecret("P", echo)), map[string]string{"P": v})
			h := g.connect(t, c, fountain, 0, 0)
			require.Positive(t, h, g.lastError(t, c))
			xs, status := g.recvAll(t, c, h, bufCap)
			require.Equal(t, int32(0), status, g.lastError(t, c))
			require.Equal(t, MaxBytesIn-room, len(xs))

			h = g.connect(t, c, echo, 0, 0)
			require.Positive(t, h, g.lastError(t, c))
			// The value at room-into, and enough after it that the
			// redacted echo reaches the bound too.
			msg := strings.Repeat("p", room-tt.into) + "${secret:P}" + strings.Repeat("q", 4096) + "\n"
			require.Equal(t, int32(len(msg)), g.send(t, c, h, msg))
			var got strings.Builder
			for {
				n, s := g.recv(t, c, h, bufCap, 0)
				if n <= 0 {
					assert.Contains(t, []int32{StatusLimit, StatusDenied}, n, "the bound, or the value, ends the stream: %s", g.lastError(t, c))
					break
				}
				got.WriteString(s)
			}
			assertNoLeak(t, v, "what came before the bytes-in bound", got.String(), msg)
		})
	}
}
