package host

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The hostile peers a version-2 probe may talk to, each against the bound
// that must hold.
// Each test's budget is a short one; "ended by the budget" is asserted by
// the answer the probe got (timed out, with the guest not interrupted),
// not by a clock.

// budgetCall is a Call with a short budget and the engine's 5% reserve.
func budgetCall(t testing.TB, g Grants, budget time.Duration) *Call {
	c := testCall(t, g)
	c.Deadline = time.Now().Add(budget)
	c.Reserve = budget / 20
	return c
}

func TestHostilePeerSendsForever(t *testing.T) {
	g := newGuest(t)
	chunk := []byte(strings.Repeat("spam", 4096))
	l := serve(t, "tcp", "127.0.0.1:0", func(c net.Conn) {
		for {
			if _, err := c.Write(chunk); err != nil {
				return
			}
		}
	})
	c := budgetCall(t, Grants{Dial: []string{"127.0.0.1:*"}}, 30*time.Second)
	defer c.End()
	h := g.connect(t, c, l.Addr().String(), 0, 0)
	require.Positive(t, h)
	total := 0
	var status int32
	for {
		n, _ := g.recv(t, c, h, bufCap, 0)
		if n <= 0 {
			status = n
			break
		}
		total += int(n)
	}
	assert.Equal(t, StatusLimit, status)
	assert.Equal(t, MaxBytesIn, total, "1 MiB in, not a byte more")
	assert.Contains(t, g.lastError(t, c), "bytes in")
}

func TestHostilePeerNeverSends(t *testing.T) {
	g := newGuest(t)
	l := serve(t, "tcp", "127.0.0.1:0", func(c net.Conn) { io.Copy(io.Discard, c) })
	c := budgetCall(t, Grants{Dial: []string{"127.0.0.1:*"}}, 100*time.Millisecond)
	defer c.End()
	h := g.connect(t, c, l.Addr().String(), 0, 0)
	require.Positive(t, h)
	n, _ := g.recv(t, c, h, 64, 0) // 0: as long as the budget allows
	assert.Equal(t, StatusTimedOut, n, "the wait ends with time left to answer")
	assert.Nil(t, c.Interrupted())
}

func TestHostileHandshakeStalls(t *testing.T) {
	g := newGuest(t)
	l := serve(t, "tcp", "127.0.0.1:0", func(c net.Conn) { io.Copy(io.Discard, c) })
	addr := l.Addr().String()
	grants := Grants{Dial: []string{"127.0.0.1:*"}, HTTP: []string{"https://127.0.0.1:*"}}

	c := budgetCall(t, grants, 100*time.Millisecond)
	defer c.End()
	assert.Equal(t, StatusTimedOut, g.connect(t, c, "tls:"+addr, 0, 0))
	assert.Nil(t, c.Interrupted())

	c = budgetCall(t, grants, 100*time.Millisecond)
	defer c.End()
	assert.Equal(t, StatusTimedOut, g.http(t, c, "GET https://"+addr+"/\n", 0, 0))
	assert.Nil(t, c.Interrupted())
}

func TestHostileTrickle(t *testing.T) {
	g := newGuest(t)
	trickle := func(head bool) net.Listener {
		return serve(t, "tcp", "127.0.0.1:0", func(c net.Conn) {
			http.ReadRequest(bufio.NewReader(c))
			msg := "HTTP/1.1 200 OK\r\nContent-Length: 100000\r\n\r\n"
			if !head {
				if _, err := io.WriteString(c, msg); err != nil {
					return
				}
				msg = strings.Repeat("x", 100000)
			}
			for i := 0; i < len(msg); i++ {
				if _, err := c.Write([]byte{msg[i]}); err != nil {
					return
				}
				time.Sleep(10 * time.Millisecond) // a trickle, on purpose
			}
		})
	}
	for _, head := range []bool{true, false} {
		t.Run(fmt.Sprint("head=", head), func(t *testing.T) {
			l := trickle(head)
			c := budgetCall(t, Grants{HTTP: []string{"http://127.0.0.1:*"}}, 100*time.Millisecond)
			defer c.End()
			assert.Equal(t, StatusTimedOut, g.http(t, c, "GET http://"+l.Addr().String()+"/\n", 0, 0))
			assert.Nil(t, c.Interrupted())
		})
	}
}

func TestHostileHugeResponse(t *testing.T) {
	g := newGuest(t)
	var written atomic.Int64
	done := make(chan error, 1)
	l := serve(t, "tcp", "127.0.0.1:0", func(c net.Conn) {
		http.ReadRequest(bufio.NewReader(c))
		io.WriteString(c, "HTTP/1.1 200 OK\r\nContent-Length: 10737418240\r\n\r\n")
		block := make([]byte, 64<<10)
		for written.Load() < 10<<30 {
			n, err := c.Write(block)
			written.Add(int64(n))
			if err != nil {
				done <- err
				return
			}
		}
		done <- nil
	})
	c := budgetCall(t, Grants{HTTP: []string{"http://127.0.0.1:*"}}, 10*time.Second)
	defer c.End()
	h := g.http(t, c, "GET http://"+l.Addr().String()+"/\n", 0, 0)
	require.Positive(t, h, g.lastError(t, c))
	n := g.v2(t, c, "http_body", uint32(h), bufAt, 0)
	assert.Equal(t, int32(MaxHTTPBody), n, "64 KiB kept")
	// The connection is closed already: the server's next writes fail
	// once the socket buffers are full, long before 10 GB.
	select {
	case err := <-done:
		require.Error(t, err, "the server wrote 10 GB")
	case <-time.After(20 * time.Second):
		t.Fatal("the server is still writing: the connection was not closed")
	}
	assert.Less(t, written.Load(), int64(64<<20), "only socket buffers beyond the 64 KiB read")
	t.Logf("the server wrote %d bytes before the close", written.Load())
}

func TestHostileHTTPHandlesInALoop(t *testing.T) {
	g := newGuest(t)
	l := serve(t, "tcp", "127.0.0.1:0", func(c net.Conn) {
		http.ReadRequest(bufio.NewReader(c))
		io.WriteString(c, "HTTP/1.1 204 No Content\r\n\r\n")
	})
	c := budgetCall(t, Grants{HTTP: []string{"http://127.0.0.1:*"}}, 10*time.Second)
	defer c.End()
	req := "GET http://" + l.Addr().String() + "/\n"
	var got []int32
	for range MaxOpenHandles + 1 {
		got = append(got, g.http(t, c, req, 0, 0))
	}
	assert.Equal(t, []int32{1, 2, 3, 4, 5, 6, 7, 8, StatusLimit}, got)
}

func TestHostileStopDuringRecv(t *testing.T) {
	g := newGuest(t)
	// The peer answers 2 s after the stop: a recv that the stop did not
	// cut short gets its answer (and the check after it stops the guest
	// all the same, so the last error is what tells).
	l := serve(t, "tcp", "127.0.0.1:0", func(c net.Conn) {
		time.Sleep(2 * time.Second)
		c.Write([]byte("late"))
	})
	for _, engine := range []bool{true, false} {
		t.Run(fmt.Sprint("engine=", engine), func(t *testing.T) {
			// A budget far longer than the test: if the stop is not seen,
			// the recv ends at the budget and the error says so.
			c := budgetCall(t, Grants{Dial: []string{"127.0.0.1:*"}}, 30*time.Second)
			defer c.End()
			stop := make(chan struct{})
			if engine {
				c.EngineStop = stop
			} else {
				c.Stop = StopChan(stop)
			}
			h := g.connect(t, c, l.Addr().String(), 0, 0)
			require.Positive(t, h)
			time.AfterFunc(20*time.Millisecond, func() { close(stop) })
			_, err := g.call(c, "recv", uint32(h), bufAt, 64, 0)
			require.Error(t, err)
			assert.True(t, errors.Is(err, ErrStopped), "%v", err)
			last, _ := c.LastError()
			assert.Equal(t, "recv: "+ErrStopped.Error(), last, "the stop cut the wait short")
		})
	}
}

// secretCall is a Call granted the secret K, whose value is v, bound to
// every address g grants (or to one nothing listens on).
func secretCall(t testing.TB, g Grants, v string) *Call {
	c := budgetCall(t, g, 10*time.Second)
	dests := append(slices.Clone(g.Dial), g.HTTP...)
	if len(dests) == 0 {
		dests = []string{"127.0.0.1:1"}
	}
	g.Secrets = boundTo("K", dests...)
	p, err := g.Compile()
	require.NoError(t, err)
	c.Policy = p
	c.LookupEnv = func(name string) (string, bool) {
		if name == "K" {
			return v, true
		}
		return "", false
	}
	return c
}

// Two secrets of different lengths: whatever comes back must be the same
// for both, and hold neither.
var secretValues = []string{"s3cr7", "0123456789abcdefghijklmnopqrstuvwxyzABCD"}

// seen gathers everything a probe read in one scenario.
type seen []string

func (s *seen) add(v ...string) { *s = append(*s, v...) }

func assertNoSecret(t *testing.T, what string, got map[string]seen) {
	t.Helper()
	a, b := got[secretValues[0]], got[secretValues[1]]
	require.Equal(t, len(a), len(b), what)
	for i := range a {
		for _, v := range secretValues {
			assert.NotContains(t, a[i], v, what)
			assert.NotContains(t, b[i], v, what)
		}
		assert.Equal(t, a[i], b[i], "%s: what the probe reads depends on the secret", what)
	}
}

func TestHostileSecretThroughEcho(t *testing.T) {
	g := newGuest(t)
	l := echoServer(t, "tcp", "127.0.0.1:0")
	got := map[string]seen{}
	for _, v := range secretValues {
		var s seen
		// Whole, a byte at a time, and padded (to the bytes-out bound) so
		// that the host's 64 KiB read would cut the longer value.
		for _, tt := range []struct {
			pad int
			cap uint32
		}{{0, 64}, {0, 1}, {MaxBytesOut - placeholderCost([]byte("AUTH ${secret:K}\n"), 1), bufCap}} {
			c := secretCall(t, Grants{Dial: []string{"127.0.0.1:*"}}, v)
			defer c.End()
			h := g.connect(t, c, l.Addr().String(), 0, 0)
			require.Positive(t, h)
			msg := strings.Repeat("p", tt.pad) + "AUTH ${secret:K}\n"
			// At 0: the padded message takes the whole page.
			p, n := g.put(t, 0, msg)
			require.Equal(t, int32(len(msg)), g.v2(t, c, "send", uint32(h), p, n), "send answers the length as written")
			// The echo holds the value: withheld whole, wherever it lies
			// and however the probe reads.
			var b strings.Builder
			status := int32(1)
			for status > 0 {
				var part string
				status, part = g.recv(t, c, h, tt.cap, 0)
				b.WriteString(part)
			}
			assert.NotContains(t, b.String(), "AUTH", "what was handed over before the value")
			s.add(fmt.Sprint(status), g.lastError(t, c))
			assert.True(t, c.Policy.Spent().Has(0), "spent")
			require.Equal(t, StatusOK, g.v2(t, c, "close", uint32(h)))
		}
		got[v] = s
	}
	assertNoSecret(t, "echo", got)
	assert.Equal(t, fmt.Sprint(StatusDenied), got[secretValues[0]][0])
	assert.Contains(t, got[secretValues[0]][1], `secret "K" came back from `+l.Addr().String())
}

func TestHostileSecretThroughHTTP(t *testing.T) {
	g := newGuest(t)
	mux := http.NewServeMux()
	mux.HandleFunc("/echo", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Auth", r.Header.Get("Authorization"))
		body, _ := io.ReadAll(r.Body)
		fmt.Fprintf(w, "%s %s %s", r.RequestURI, r.Header.Get("Authorization"), body)
	})
	mux.HandleFunc("/redirect", func(w http.ResponseWriter, r *http.Request) {
		// Reflects the secret in Location, outside the grants: not followed.
		http.Redirect(w, r, "/elsewhere?k="+r.URL.Query().Get("k"), http.StatusFound)
	})
	mux.HandleFunc("/follow", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/echo?k="+r.URL.Query().Get("k"), http.StatusFound)
	})
	mux.HandleFunc("/pad", func(w http.ResponseWriter, r *http.Request) {
		// The secret across the 64 KiB the host keeps.
		io.WriteString(w, strings.Repeat("x", MaxHTTPBody-3)+r.Header.Get("Authorization"))
	})
	srv := newHTTPServer(t, mux)
	closedAddr := closedAddr(t)
	got := map[string]seen{}
	grants := Grants{HTTP: []string{"http://127.0.0.1:*/echo", "http://127.0.0.1:*/redirect", "http://127.0.0.1:*/follow", "http://127.0.0.1:*/pad", "http://" + closedAddr + "/"}}
	for _, v := range secretValues {
		var s seen
		// Each in a run of its own: one that a destination handed a value
		// back to is cut off.
		for _, req := range []string{
			"POST " + srv + "/echo?k=${secret:K}\nAuthorization: Bearer ${secret:K}\n\n{\"k\":\"${secret:K}\"}",
			"GET " + srv + "/redirect?k=${secret:K}\n",
			"GET " + srv + "/follow?k=${secret:K}\n",
			"GET " + srv + "/pad\nAuthorization: ${secret:K}\n",
		} {
			c := secretCall(t, grants, v)
			h := g.http(t, c, req, 0, 0)
			s.add(fmt.Sprint(h), g.lastError(t, c))
			if h > 0 {
				_, body := g.body(t, c, h)
				_, auth := g.header(t, c, h, "X-Auth")
				_, loc := g.header(t, c, h, "Location")
				_, length := g.header(t, c, h, "Content-Length")
				s.add(body, auth, loc, length)
			}
			s.add(c.Denials()...)
			c.End()
		}
		// A request that fails, with the secret in its query.
		c := secretCall(t, grants, v)
		assert.Equal(t, StatusRefused, g.http(t, c, "GET http://"+closedAddr+"/?k=${secret:K}\n", 0, 0))
		s.add(g.lastError(t, c))
		s.add(c.Denials()...)
		c.End()
		got[v] = s
	}
	assertNoSecret(t, "http", got)
	t.Logf("%q", got[secretValues[0]])
}

func newHTTPServer(t testing.TB, h http.Handler) string {
	l := serve(t, "tcp", "127.0.0.1:0", func(net.Conn) {})
	l.Close()
	srv := &http.Server{Handler: h}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	return "http://" + ln.Addr().String()
}

func closedAddr(t testing.TB) string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := l.Addr().String()
	l.Close()
	return addr
}

// TestRedactRun: what a run leaves behind never holds a secret it sent:
// one that wrote the value (a guess: it never read one) leaves the host's
// sentence instead of all it wrote, not its texts redacted in place, which
// would tell whoever reads them which guess was right; and the secret is
// spent. A run that sent none leaves its reason and logs as it wrote them.
func TestRedactRun(t *testing.T) {
	g := newGuest(t)
	v := secretValues[1]
	for _, sent := range []bool{false, true} {
		t.Run(fmt.Sprintf("sent=%v", sent), func(t *testing.T) {
			c := secretCall(t, Grants{}, v)
			if sent {
				c.markSent(c.allSecrets())
			}
			p, n := g.put(t, argAt, "reason: "+v)
			g.v2call(t, c, "reason", p, n)
			g.v2call(t, c, "log", 1, p, n)
			c.RedactRun()
			reason, _ := c.Reason()
			if !sent {
				assert.Equal(t, "reason: "+v, reason)
				assert.Equal(t, "reason: "+v, c.Logs()[0].Message)
				return
			}
			assert.Equal(t, `secret "K" came back from the run's own text: what came is withheld whole, the run may use the network no more, and the probe may not send the secret again until it is loaded again`, reason)
			assert.Empty(t, c.Logs())
			assert.Equal(t, c.allSecrets(), c.Policy.Spent(), "spent")
		})
	}
}

func (g *guest) v2call(t testing.TB, c *Call, fn string, args ...uint32) {
	t.Helper()
	_, err := g.call(c, fn, args...)
	require.NoError(t, err)
}

// TestHostileSecretPrefixByTiming: a probe that sends guesses of a secret's
// first bytes to an echo server must not learn from recv which guess begins
// the value. A host that held back a tail because it might begin a value
// would keep the right guess until the wait ran out (here, a 10 s budget)
// and hand the wrong ones over at once. Every guess must come back whole
// and at once: the bound is half the budget, so only a machine stalled for
// seconds could fail it.
func TestHostileSecretPrefixByTiming(t *testing.T) {
	g := newGuest(t)
	l := echoServer(t, "tcp", "127.0.0.1:0")
	sinkAddr, _ := countingPeer(t)
	v := secretValues[1]
	for _, guess := range []string{v[:1], v[:10], "Z", v[:len(v)-1]} {
		c := secretCall(t, Grants{Dial: []string{"127.0.0.1:*"}}, v)
		// A secret first, to a peer that keeps it, so that the run is one
		// that has sent one (the echo would be withheld whole).
		sink := g.connect(t, c, sinkAddr, 0, 0)
		require.Positive(t, sink)
		p, n := g.put(t, 0, "${secret:K}")
		require.Equal(t, int32(n), g.v2(t, c, "send", uint32(sink), p, n))
		h := g.connect(t, c, l.Addr().String(), 0, 0)
		require.Positive(t, h)
		p, n = g.put(t, 0, guess)
		require.Equal(t, int32(n), g.v2(t, c, "send", uint32(h), p, n))
		got, back := g.recv(t, c, h, bufCap, 0)
		require.Equal(t, int32(len(guess)), got, "guess %q: %s", guess, g.lastError(t, c))
		assert.Equal(t, guess, back)
		assert.Greater(t, c.Remaining(), 5*time.Second, "guess %q: recv waited on a prefix of the secret", guess)
		c.End()
	}
}
