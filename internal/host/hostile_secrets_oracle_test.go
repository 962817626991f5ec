package host

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// Redaction as an oracle. A probe that never sends a secret can still send
// candidate strings to an echo and watch which come back as a placeholder:
// a 4-digit PIN falls in one run, a 1-byte value at once, a value equal to
// a common string (HTTP/1.1) without the probe sending anything of its
// own; and a value that is another repeated comes back as that other's
// placeholder. Redaction applies to a secret only once the run has sent
// it, and only on a handle whose destination the secret is bound to. Each
// test runs the same probe twice, with two values, and asserts that
// nothing it observes differs.

// candidatesPIN is every 4-digit PIN, one a line.
func candidatesPIN() string {
	var b strings.Builder
	for i := range 10000 {
		fmt.Fprintf(&b, "%04d\n", i)
	}
	return b.String()
}

// echoBack sends msg on a new stream to addr (from the page's start, so
// that up to the bytes-out bound fits) and receives until as many lines
// came back as were sent, or the stream ends or fails; it returns the
// send's answer and what came back.
func echoBack(t testing.TB, g *guest, c *Call, addr, msg string) (int32, string) {
	t.Helper()
	h := g.connect(t, c, addr, 0, 0)
	require.Positive(t, h, g.lastError(t, c))
	p, n := g.put(t, 0, msg)
	sent := g.v2(t, c, "send", uint32(h), p, n)
	if sent < 0 {
		return sent, ""
	}
	return sent, recvLines(t, g, c, h, strings.Count(msg, "\n"))
}

// sendOn sends msg on a new stream to addr and returns the send's answer.
func sendOn(t testing.TB, g *guest, c *Call, addr, msg string) string {
	t.Helper()
	h := g.connect(t, c, addr, 0, 0)
	require.Positive(t, h, g.lastError(t, c))
	return fmt.Sprint(g.send(t, c, h, msg))
}

// oracleSetting is where a secret goes in a run that echoes candidates:
// the secret is bound to boundTo, and sent there first when sendFirst.
type oracleSetting struct {
	name      string
	boundTo   string
	sendFirst bool
}

// oracleSettings are the two runs in which an echo must tell nothing of a
// secret: one that never sent it, the echo its own destination; one that
// sent it to its destination, a sink, the echo elsewhere.
func oracleSettings(echo, sink string) []oracleSetting {
	return []oracleSetting{
		{"never sent, the echo its destination", echo, false},
		{"sent to its destination, the echo elsewhere", sink, true},
	}
}

func TestHostileSecretOraclePIN(t *testing.T) {
	g := newGuest(t)
	echo := echoServer(t, "tcp", "127.0.0.1:0").Addr().String()
	sink, _ := countingPeer(t)
	candidates := candidatesPIN()
	for _, tt := range oracleSettings(echo, sink) {
		t.Run(tt.name, func(t *testing.T) {
			run := func(pin string) seen {
				c := hostileCall(t, grantsOf(reach(echo, sink), boundSecret("PIN", tt.boundTo)), map[string]string{"PIN": pin})
				var s seen
				if tt.sendFirst {
					s.add(sendOn(t, g, c, sink, "${secret:PIN}\n"))
				}
				sent, back := echoBack(t, g, c, echo, candidates)
				s.add(fmt.Sprint(sent), back)
				if i := strings.Index(back, "${secret:PIN}"); i >= 0 {
					t.Logf("PIN %s: the placeholder comes back at line %d, so the PIN is %04d", pin, i/5, i/5)
				}
				return s
			}
			a, b := run("4821"), run("0420")
			assertSameObservations(t, "two PINs", a, b)
			assertSameText(t, candidates, a[len(a)-1], "the candidates come back as sent")
		})
	}
}

// TestHostileSecretOracleCommonValues: values that the probe never sends
// but that show up by themselves in what comes back: a single byte, the
// start of every HTTP response, a response header's value.
func TestHostileSecretOracleCommonValues(t *testing.T) {
	g := newGuest(t)
	echo := echoServer(t, "tcp", "127.0.0.1:0").Addr().String()
	origin, _ := hostileHTTP(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.Write([]byte("ok\n"))
	}))
	web := strings.TrimPrefix(origin, "http://")
	var printable strings.Builder
	for c := byte(' '); c < 0x7f; c++ {
		printable.WriteByte(c)
	}
	printable.WriteByte('\n')
	for _, tt := range []struct {
		name   string
		values [2]string
		dest   string
		probe  func(t *testing.T, c *Call) seen
	}{
		{"one byte", [2]string{"7", "Q"}, echo, func(t *testing.T, c *Call) seen {
			sent, back := echoBack(t, g, c, echo, printable.String())
			return seen{fmt.Sprint(sent), back}
		}},
		{"HTTP/1.1", [2]string{"HTTP/1.1", "HTTP/1.7"}, web, func(t *testing.T, c *Call) seen {
			h := g.connect(t, c, web, 0, 0)
			require.Positive(t, h, g.lastError(t, c))
			sent := g.send(t, c, h, "GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
			back, _ := g.recvAll(t, c, h, bufCap)
			return seen{fmt.Sprint(sent), strings.SplitN(back, "\r\n", 2)[0]}
		}},
		{"a response header", [2]string{"text/plain; charset=utf-8", "text/plain; charset=utf-7"}, origin + "/", func(t *testing.T, c *Call) seen {
			h := g.http(t, c, "GET "+origin+"/\n", 0, 0)
			require.Positive(t, h, g.lastError(t, c))
			_, ct := g.header(t, c, h, "Content-Type")
			_, body := g.wholeBody(t, c, h)
			return seen{ct, body}
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var runs [2]seen
			for i, v := range tt.values {
				c := hostileCall(t, grantsOf(reach(tt.dest), boundSecret("V", tt.dest)), map[string]string{"V": v})
				runs[i] = tt.probe(t, c)
			}
			assertSameObservations(t, "a value and another", runs[0], runs[1])
		})
	}
}

// TestHostileSecretOracleRelation: B is A twice over, or not. The probe
// sends A twice in a row to an echo; what comes back must not say which.
func TestHostileSecretOracleRelation(t *testing.T) {
	g := newGuest(t)
	echo := echoServer(t, "tcp", "127.0.0.1:0").Addr().String()
	sink, _ := countingPeer(t)
	a := hostileValue(31, 12)
	for _, tt := range oracleSettings(echo, sink) {
		t.Run(tt.name, func(t *testing.T) {
			run := func(b string) seen {
				g2 := grantsOf(reach(echo, sink), boundSecret("A", echo), boundSecret("B", tt.boundTo))
				c := hostileCall(t, g2, map[string]string{"A": a, "B": b})
				var s seen
				if tt.sendFirst {
					s.add(sendOn(t, g, c, sink, "${secret:B}\n"))
				}
				sent, back := echoBack(t, g, c, echo, "${secret:A}${secret:A}\n")
				s.add(fmt.Sprint(sent), back)
				return s
			}
			assertSameObservations(t, "B = A+A and B unrelated", run(a+a), run(hostileValue(32, 24)))
		})
	}
}
