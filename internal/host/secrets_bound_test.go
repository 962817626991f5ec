package host

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// boundCall is a Call granted dial and http to loopback, and the secret K
// (value v) bound to dests only.
func boundCall(t testing.TB, v string, dests ...string) *Call {
	c := budgetCall(t, Grants{Dial: []string{"127.0.0.1:*"}, HTTP: []string{"http://127.0.0.1:*"}}, 10*time.Second)
	p, err := Grants{Dial: []string{"127.0.0.1:*"}, HTTP: []string{"http://127.0.0.1:*"}, Secrets: boundTo("K", dests...)}.Compile()
	require.NoError(t, err)
	c.Policy = p
	c.LookupEnv = func(name string) (string, bool) {
		if name == "K" {
			return v, true
		}
		return "", false
	}
	t.Cleanup(c.End)
	return c
}

// recorder is a TCP peer that keeps everything it was sent.
type recorder struct {
	net.Listener
	mu  sync.Mutex
	got bytes.Buffer
}

func newRecorder(t testing.TB) *recorder {
	r := &recorder{}
	r.Listener = serve(t, "tcp", "127.0.0.1:0", func(c net.Conn) {
		b := make([]byte, 4096)
		for {
			n, err := c.Read(b)
			r.mu.Lock()
			r.got.Write(b[:n])
			r.mu.Unlock()
			if err != nil {
				return
			}
		}
	})
	return r
}

func (r *recorder) received() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.got.String()
}

// TestSecretGoesOnlyWhereBound: a placeholder bound for somewhere else is
// refused before a byte is sent, with a denial that names the secret and
// the destination.
func TestSecretGoesOnlyWhereBound(t *testing.T) {
	g := newGuest(t)
	bound, other := newRecorder(t), newRecorder(t)
	boundAddr := bound.Addr().String()
	tests := []struct {
		name  string
		dests []string
		addr  string
		want  int32
	}{
		{"bound", []string{boundAddr}, boundAddr, 0},
		{"another port", []string{boundAddr}, other.Addr().String(), StatusDenied},
		{"pattern", []string{"127.0.0.1:*"}, other.Addr().String(), 0},
		{"tls only, sent in clear", []string{"tls:" + boundAddr}, boundAddr, StatusDenied},
		{"an http destination binds no stream", []string{"http://" + boundAddr}, boundAddr, StatusDenied},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := boundCall(t, "hunter2", tt.dests...)
			h := g.connect(t, c, tt.addr, 0, 0)
			require.Positive(t, h)
			msg := "AUTH ${secret:K}\r\n"
			got := g.send(t, c, h, msg)
			if tt.want != 0 {
				assert.Equal(t, tt.want, got)
				want := fmt.Sprintf(`secret "K" not granted to probe %q for %q`, c.Probe, tt.addr)
				assert.Equal(t, want, g.lastError(t, c))
				assert.Equal(t, []string{want}, c.Denials())
			} else {
				assert.Equal(t, int32(len(msg)), got)
			}
			require.Equal(t, StatusOK, g.v2(t, c, "close", uint32(h)))
		})
	}
	require.Eventually(t, func() bool { return strings.Count(bound.received()+other.received(), "hunter2") == 2 }, 5*time.Second, time.Millisecond)
	assert.Equal(t, "AUTH hunter2\r\n", bound.received(), "the bound case only")
	assert.Equal(t, "AUTH hunter2\r\n", other.received(), "the pattern case only")
}

// TestNoPlaceholderBeforeSending: redaction is no oracle. A run that has
// not sent the secret gets back from an echo exactly what it sent, value
// or not; and after sending it to one peer, another peer it is not bound
// to still echoes a candidate as written.
func TestNoPlaceholderBeforeSending(t *testing.T) {
	g := newGuest(t)
	bound, echo := echoServer(t, "tcp", "127.0.0.1:0"), echoServer(t, "tcp", "127.0.0.1:0")
	const v = "1234"
	c := boundCall(t, v, bound.Addr().String())

	he := g.connect(t, c, echo.Addr().String(), 0, 0)
	require.Positive(t, he)
	require.Equal(t, int32(4), g.send(t, c, he, v))
	_, back := g.recv(t, c, he, bufCap, 0)
	assert.Equal(t, v, back, "nothing sent yet: nothing redacted")

	// Sent to a peer that keeps it (a bound peer that echoes it would cut
	// the run off: echo.go).
	sink, _ := countingPeer(t)
	c.Policy, _ = Grants{Dial: []string{"127.0.0.1:*"}, Secrets: boundTo("K", bound.Addr().String(), sink)}.Compile()
	hs := g.connect(t, c, sink, 0, 0)
	require.Positive(t, hs)
	require.Positive(t, g.send(t, c, hs, "${secret:K}"))
	require.Equal(t, StatusOK, g.v2(t, c, "close", uint32(hs)))

	require.Equal(t, int32(4), g.send(t, c, he, v))
	_, back = g.recv(t, c, he, bufCap, 0)
	assert.Equal(t, v, back, "the other peer never had it: nothing withheld there")
}

// TestRecvHoldOutlastsShortTimeouts: an echo that comes in two pieces a
// few milliseconds apart is redacted whole, though the probe reads with a
// 1 ms timeout that ends its waits in between. A try whose peer the
// machine kept off the CPU for as long as the quiet gap between its two
// writes tests nothing the host promises, and is made again (see prompt).
func TestRecvHoldOutlastsShortTimeouts(t *testing.T) {
	g := newGuest(t)
	value := strings.Repeat("s3cr7", 20)
	var got string
	timeouts := 0
	if !prompt(t, func() *stall {
		s := &stall{firstSent: make(chan struct{}, 1), restSent: make(chan struct{}, 1)}
		split := serve(t, "tcp", "127.0.0.1:0", func(c net.Conn) {
			b := make([]byte, 4096)
			n, _ := c.Read(b)
			s.wroteFirst = time.Now()
			c.Write(b[:n/2])
			time.Sleep(2 * time.Millisecond) // less than quietGap
			c.Write(b[n/2 : n])
			s.wroteRest = time.Now()
			s.restSent <- struct{}{}
			io.Copy(io.Discard, c)
		})
		c := boundCall(t, value, split.Addr().String())
		h := g.connect(t, c, split.Addr().String(), 0, 0)
		require.Positive(t, h)
		require.Positive(t, g.send(t, c, h, "${secret:K}"))
		var b strings.Builder
		timeouts = 0
		for b.Len() < len("${secret:K}") && c.Remaining() > time.Second {
			n, s := g.recv(t, c, h, bufCap, 1)
			if n == StatusTimedOut {
				timeouts++
				continue
			}
			if n <= 0 {
				// The two pieces were held as one: the value found whole.
				assertWithheld(t, g, c, n, "K", split.Addr().String())
				break
			}
			b.WriteString(s)
		}
		got = b.String()
		waitSignal(t, s.restSent, "the peer's second piece")
		return s
	}) {
		return
	}
	assert.Empty(t, got, "nothing of the first piece was handed over")
	t.Logf("%d timeouts before the hold ended", timeouts)
}

// TestHTTPBodyWindowIsRedactedText: a body of many copies of the value is
// withheld whole, the same whatever the value's length, so the number of
// copies that would fit tells nothing.
func TestHTTPBodyWindowIsRedactedText(t *testing.T) {
	g := newGuest(t)
	srv := newHTTPServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// More copies than fit in the window as placeholders: the
		// window is full whatever the value's length.
		v := r.Header.Get("Authorization")
		for range MaxHTTPBody/len("${secret:K},") + 100 {
			io.WriteString(w, v+",")
		}
	}))
	for _, v := range []string{"a1b2c3", strings.Repeat("q", 600)} {
		c := boundCall(t, v, srv)
		assertWithheld(t, g, c, g.http(t, c, "GET "+srv+"/\nAuthorization: ${secret:K}\n", 0, 0), "K", srv)
	}
}

// TestHTTPReshapingRefused: in a run granted a secret, the probe cannot
// ask for an encoding or a range of the response; the host's own gzip is
// decoded before redaction, and a body still encoded is refused.
func TestHTTPReshapingRefused(t *testing.T) {
	g := newGuest(t)
	srv := newHTTPServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		v := r.Header.Get("X-Key")
		switch {
		case r.URL.Path == "/br":
			w.Header().Set("Content-Encoding", "br")
			io.WriteString(w, v)
		case strings.Contains(r.Header.Get("Accept-Encoding"), "gzip"):
			w.Header().Set("Content-Encoding", "gzip")
			z := gzip.NewWriter(w)
			io.WriteString(z, "key="+v)
			z.Close()
		default:
			io.WriteString(w, "key="+v)
		}
	}))
	c := boundCall(t, "hunter2", srv)
	for _, h := range []string{"Accept-Encoding: gzip", "Range: bytes=0-3", "If-Range: x", "TE: gzip"} {
		got := g.http(t, c, "GET "+srv+"/\nX-Key: ${secret:K}\n"+h+"\n", 0, 0)
		assert.Equal(t, StatusBadRequest, got, h)
		assert.Contains(t, g.lastError(t, c), "refused in a run granted secrets", h)
	}
	// Each in a run of its own: one that a value came back to is cut off.
	c = boundCall(t, "hunter2", srv)
	assertWithheld(t, g, c, g.http(t, c, "GET "+srv+"/\nX-Key: ${secret:K}\nAccept-Encoding: identity\n", 0, 0), "K", srv)
	c = boundCall(t, "hunter2", srv)
	// The host's gzip, decoded, then read for the value.
	assertWithheld(t, g, c, g.http(t, c, "GET "+srv+"/\nX-Key: ${secret:K}\n", 0, 0), "K", srv)
	c = boundCall(t, "hunter2", srv)
	assert.Equal(t, StatusClosed, g.http(t, c, "GET "+srv+"/br\nX-Key: ${secret:K}\n", 0, 0))
	assert.Contains(t, g.lastError(t, c), "encoded (br)")
}

// TestRedirectCarriesNoValue: a redirect is sent as it was checked, never
// with a Referer, and with a secret's header only where it is bound; one
// from an origin the value went to, to where it is not bound, is not
// followed at all.
func TestRedirectCarriesNoValue(t *testing.T) {
	g := newGuest(t)
	type seenReq struct{ uri, referer, key string }
	var mu sync.Mutex
	var seenBy = map[string][]seenReq{}
	record := func(who string) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			mu.Lock()
			seenBy[who] = append(seenBy[who], seenReq{r.RequestURI, r.Header.Get("Referer"), r.Header.Get("X-Key")})
			mu.Unlock()
			io.WriteString(w, "ok")
		}
	}
	second := newHTTPServer(t, record("second"))
	first := newHTTPServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/away":
			http.Redirect(w, r, second+"/landing", http.StatusFound)
		case "/dots":
			w.Header().Set("Location", "/admin/%2e%2e/ok/x")
			w.WriteHeader(http.StatusFound)
		default:
			record("first")(w, r)
		}
	}))
	c := boundCall(t, "hunter2", first)
	h := g.http(t, c, "GET "+first+"/away?k=${secret:K}\nX-Key: ${secret:K}\n", 0, 0)
	require.Positive(t, h, g.lastError(t, c))
	h = g.http(t, c, "GET "+first+"/dots\nX-Key: ${secret:K}\n", 0, 0)
	require.Positive(t, h, g.lastError(t, c))
	mu.Lock()
	defer mu.Unlock()
	assert.Empty(t, seenBy["second"], "a redirect from the value's origin to one it is not bound to")
	assert.Equal(t, []seenReq{{"/ok/x", "", "hunter2"}}, seenBy["first"], "the path as it was checked, the header where it is bound")
}

// TestRedirectReflectingAValueIsNotFollowed: a Location that holds a sent
// value, bound for a destination the value is not bound to, stops there;
// its denial names the secret, not the URL's query.
func TestRedirectReflectingAValueIsNotFollowed(t *testing.T) {
	g := newGuest(t)
	var hits sync.Map
	second := newHTTPServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { hits.Store(r.RequestURI, true) }))
	first := newHTTPServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// The value, reflected in a spelling of the peer's own.
		w.Header().Set("Location", second+"/x?leak="+strings.ReplaceAll(r.URL.Query().Get("k"), "2", "%32"))
		w.WriteHeader(http.StatusFound)
	}))
	c := boundCall(t, "hunter2", first)
	h := g.http(t, c, "GET "+first+"/?k=${secret:K}\n", 0, 0)
	require.Positive(t, h, g.lastError(t, c))
	assert.Equal(t, int32(http.StatusFound), g.v2(t, c, "http_status", uint32(h)))
	hits.Range(func(k, _ any) bool { t.Errorf("the second origin was asked %v", k); return true })
	require.Len(t, c.Denied(), 1)
	assert.Equal(t, Denial{Kind: "secret", Request: "K", To: second, Probe: c.Probe}, c.Denied()[0], "the scheme, host and port only")
}

// TestBytesOutOnTheWire: placeholders are charged at the most their values
// can take, so a run never puts more than MaxBytesOut on the wire.
func TestBytesOutOnTheWire(t *testing.T) {
	g := newGuest(t)
	rec := newRecorder(t)
	c := boundCall(t, strings.Repeat("v", MaxSecret), rec.Addr().String())
	h := g.connect(t, c, rec.Addr().String(), 0, 0)
	require.Positive(t, h)
	msg := strings.Repeat("${secret:K}", 100) // 1.1 KiB written, 400 KiB as values
	sent := 0
	for {
		n := g.send(t, c, h, msg)
		if n < 0 {
			assert.Equal(t, StatusLimit, n)
			break
		}
		sent++
	}
	assert.Zero(t, sent, "100 placeholders are more than the bound")
	one := "${secret:K}"
	for g.send(t, c, h, one) > 0 {
		sent++
	}
	assert.Equal(t, MaxBytesOut/(len(one)+MaxSecret), sent)
	require.Equal(t, StatusOK, g.v2(t, c, "close", uint32(h)))
	require.Eventually(t, func() bool { return len(rec.received()) == sent*MaxSecret }, 5*time.Second, time.Millisecond)
	assert.LessOrEqual(t, len(rec.received()), MaxBytesOut)
}

// TestBytesInBoundCutsRedactedText: a value placed so that the 1 MiB bound
// falls inside it is never shown in part: it is found whole before the
// bytes around it are handed over, and the stream is withheld from there.
func TestBytesInBoundCutsRedactedText(t *testing.T) {
	g := newGuest(t)
	value := "0123456789abcdefghijklmnopqrstuvwxyzABCD"
	for _, before := range []int{3, len(value) / 2, len(value) - 1} {
		t.Run(fmt.Sprint(before), func(t *testing.T) {
			peer := serve(t, "tcp", "127.0.0.1:0", func(c net.Conn) {
				b := make([]byte, 256)
				c.Read(b) // the secret
				c.Write(bytes.Repeat([]byte("."), MaxBytesIn-before))
				c.Write([]byte(value))
				c.Write(bytes.Repeat([]byte("."), 64<<10))
				io.Copy(io.Discard, c)
			})
			c := boundCall(t, value, peer.Addr().String())
			h := g.connect(t, c, peer.Addr().String(), 0, 0)
			require.Positive(t, h)
			require.Positive(t, g.send(t, c, h, "${secret:K}"))
			got, status := g.recvAll(t, c, h, bufCap)
			// The value is found whole before any of it is handed over:
			// the stream is withheld from there, and the bound never
			// splits it.
			assertWithheld(t, g, c, status, "K", peer.Addr().String())
			assert.Less(t, len(got), MaxBytesIn)
			assert.NotContains(t, got, value[:3], "a part of the value")
		})
	}
}
