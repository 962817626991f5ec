package host

import (
	"bufio"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math"
	"net"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gate-dev/gate/internal/testsvc"
)

// Peers that compute. A peer that computes on a value (a Redis that
// stores it and answers GETRANGE, an error line that keeps 128 bytes, a
// service that upper-cases, base64s, hex-encodes, JSON-escapes or reverses
// what it got) hands it back in a form no redaction recognises.
//
// Trusted by design: a destination a secret is bound to is trusted with
// it, and may do all of this. So these tests make each attack against a
// peer the secret is not bound to, and assert that the host refuses it
// before anything is sent: the send or the request answers -2 (denied),
// with a denial naming the secret, and the peer never receives the value.

// assertRefusedUnbound checks the refusal of a secret sent where it is not
// bound: the status, a denial that names the secret, and a peer that never
// saw the value in any form.
func assertRefusedUnbound(t testing.TB, c *Call, status int32, v string, peer *received) {
	t.Helper()
	assert.Equal(t, StatusDenied, status, "a secret sent where it is not bound is denied")
	found := false
	for _, d := range c.Denials() {
		found = found || strings.Contains(d, `"P"`)
	}
	assert.True(t, found, "a denial names the secret: %q", c.Denials())
	assertNoLeak(t, v, "what the peer received", peer.String())
}

// TestHostileSecretComputingPeers: line services that compute on what they
// are sent, each with the value on one line.
func TestHostileSecretComputingPeers(t *testing.T) {
	g := newGuest(t)
	v := specialValue(21) + hostileValue(22, 160) // 200 bytes: longer than an error line keeps
	bound := echoServer(t, "tcp", "127.0.0.1:0").Addr().String()
	for _, tt := range []struct {
		name   string
		answer func(string) string
	}{
		{"truncating error line", func(s string) string {
			return fmt.Sprintf("-ERR unknown command '%.128s', with args beginning with: ", s)
		}},
		{"upper case", strings.ToUpper},
		{"base64", func(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }},
		{"hex", func(s string) string { return hex.EncodeToString([]byte(s)) }},
		{"JSON error", func(s string) string { b, _ := json.Marshal(map[string]string{"bad_key": s}); return string(b) }},
		{"reversed", reverse},
		{"length", func(s string) string { return ":" + strconv.Itoa(len(s)) }},
	} {
		t.Run(tt.name, func(t *testing.T) {
			addr, peer := linePeer(t, tt.answer)
			c := hostileCall(t, grantsOf(reach(addr, bound), boundSecret("P", bound)), map[string]string{"P": v})
			sent := attackStream(t, g, c, addr, "${secret:P}\r\n", 1, v)
			assertRefusedUnbound(t, c, sent, v, peer)
		})
	}
}

// TestHostileSecretRedis plays the attack on the real Redis: SET x to the
// value, then STRLEN and GETRANGE, and the value sent as a command, whose
// error line keeps 128 bytes of it. Against the Redis the secret is bound
// to (it is that Redis's password) the probe authenticates, as the
// standard redis probe does; against another Redis, nothing of the value
// may arrive: MONITOR, which sees every command the server runs, shows
// none of it.
func TestHostileSecretRedis(t *testing.T) {
	g := newGuest(t)
	v := hostileValue(23, 200) // no space: Redis reads inline commands by words
	own := testsvc.Redis(t, v)
	other := testsvc.Redis(t, "")
	c := hostileCall(t, grantsOf(reach(own, other), boundSecret("P", own)), map[string]string{"P": v})

	h := g.connect(t, c, own, 0, 0)
	require.Positive(t, h, g.lastError(t, c))
	require.Equal(t, int32(len("AUTH ${secret:P}\r\nPING\r\n")), g.send(t, c, h, "AUTH ${secret:P}\r\nPING\r\n"), g.lastError(t, c))
	assert.Equal(t, "+OK\r\n+PONG\r\n", recvLines(t, g, c, h, 2), "the honest use: the secret's own Redis takes it")

	monitor := redisMonitor(t, other)
	attack := "SET x ${secret:P}\r\nSTRLEN x\r\nGETRANGE x 0 9\r\nGETRANGE x 10 19\r\n${secret:P}\r\n"
	sent := attackStream(t, g, c, other, attack, 7, v)
	var rec received
	rec.add([]byte(monitor()))
	assertRefusedUnbound(t, c, sent, v, &rec)
}

// attackStream connects to addr and sends msg; if the host sent it, it
// receives until lines line ends came or the stream ended, and checks
// that what came shows nothing of v. It returns the send's answer.
func attackStream(t testing.TB, g *guest, c *Call, addr, msg string, lines int, v string) int32 {
	t.Helper()
	h := g.connect(t, c, addr, 0, 0)
	require.Positive(t, h, g.lastError(t, c))
	sent := g.send(t, c, h, msg)
	if sent == int32(len(msg)) {
		got := recvLines(t, g, c, h, lines)
		t.Logf("the peer answered: %.300q", got)
		assertNoLeak(t, v, "what the probe read", got, msg)
	}
	return sent
}

// recvLines receives until n line ends came, or the stream ends or fails.
func recvLines(t testing.TB, g *guest, c *Call, h int32, n int) string {
	t.Helper()
	var b strings.Builder
	for strings.Count(b.String(), "\n") < n {
		got, s := g.recv(t, c, h, bufCap, 0)
		if got <= 0 {
			break
		}
		b.WriteString(s)
	}
	return b.String()
}

// redisMonitor starts MONITOR on the Redis at addr and returns a function
// that returns every command the server ran since: it has the server echo
// a marker last and reads up to it, so nothing that ran before is missed.
func redisMonitor(t testing.TB, addr string) func() string {
	t.Helper()
	mon, err := net.DialTimeout("tcp", addr, 10*time.Second)
	require.NoError(t, err)
	t.Cleanup(func() { mon.Close() })
	mon.SetDeadline(time.Now().Add(30 * time.Second))
	_, err = mon.Write([]byte("MONITOR\r\n"))
	require.NoError(t, err)
	br := bufio.NewReader(mon)
	line, err := br.ReadString('\n')
	require.NoError(t, err)
	require.Equal(t, "+OK\r\n", line)
	return func() string {
		const marker = "gate-monitor-marker"
		m, err := net.DialTimeout("tcp", addr, 10*time.Second)
		require.NoError(t, err)
		defer m.Close()
		_, err = m.Write([]byte("ECHO " + marker + "\r\n"))
		require.NoError(t, err)
		var b strings.Builder
		for !strings.Contains(b.String(), marker) {
			line, err := br.ReadString('\n')
			require.NoError(t, err, "MONITOR so far: %q", b.String())
			b.WriteString(line)
		}
		return b.String()
	}
}

// TestHostileSecretComputingHTTPPeer: on the origin the secret is bound to
// one path of, another path computes on what it is sent (a debug endpoint
// that shows the token base64'd). A secret in a header or the query of a
// request to that path is not bound to it.
func TestHostileSecretComputingHTTPPeer(t *testing.T) {
	g := newGuest(t)
	v := specialValue(24)
	for _, req := range []string{
		"GET /debug/token\nAuthorization: Bearer ${secret:P}\n",
		"GET /debug/token?key=${secret:P}\n",
		"POST /debug/token\n\n${secret:P}",
		// The prefix is a path prefix, not a string prefix.
		"GET /api-debug/token\nAuthorization: Bearer ${secret:P}\n",
	} {
		t.Run(req, func(t *testing.T) {
			origin, peer := hostileHTTP(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				fmt.Fprintf(w, "%s %s\n", base64.StdEncoding.EncodeToString([]byte(r.Header.Get("Authorization"))),
					base64.StdEncoding.EncodeToString([]byte(r.URL.Query().Get("key"))))
			}))
			method, rest, _ := strings.Cut(req, " ")
			req := method + " " + origin + rest
			c := hostileCall(t, grantsOf(reach(origin+"/"), boundSecret("P", origin+"/api/")), map[string]string{"P": v})
			h := g.http(t, c, req, 0, 0)
			if h > 0 {
				_, body := g.wholeBody(t, c, h)
				t.Logf("the other path answered: %.120q", body)
				assertNoLeak(t, v, "what the probe read", body, req)
			}
			assertRefusedUnbound(t, c, h, v, peer)
		})
	}
}

// TestHostileSecretChunkedStream: a probe speaks HTTP itself over a stream
// to a server that answers chunked, the chunk framing inside the value,
// which no redaction of the raw stream can match. The server is not the
// secret's destination.
func TestHostileSecretChunkedStream(t *testing.T) {
	g := newGuest(t)
	origin, peer := hostileHTTP(t, http.HandlerFunc(chunkedTokenHandler))
	addr := strings.TrimPrefix(origin, "http://")
	bound := echoServer(t, "tcp", "127.0.0.1:0").Addr().String()
	v := hostileValue(25, 50)
	c := hostileCall(t, grantsOf(reach(addr, bound), boundSecret("P", bound)), map[string]string{"P": v})
	req := "GET /token?at=25 HTTP/1.1\r\nHost: x\r\nAuthorization: ${secret:P}\r\nConnection: close\r\n\r\n"
	sent := attackStream(t, g, c, addr, req, math.MaxInt, v)
	assertRefusedUnbound(t, c, sent, v, peer)
}
