package host

import (
	"bytes"
	"crypto/tls"
	"crypto/x509"
	"encoding/binary"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gate-dev/gate/internal/testnet"
)

// Where the v2 helpers put things in the trampoline's one page.
const (
	argAt  = 0     // addresses, requests, header names (up to 32 KiB)
	dataAt = 32768 // send's data and the 16 bytes of gate.tls
	bufAt  = 40960 // receive buffers: 24 KiB
	bufCap = 65536 - bufAt
)

func (g *guest) v2(t testing.TB, c *Call, fn string, args ...uint32) int32 {
	t.Helper()
	got, err := g.call(c, fn, args...)
	require.NoError(t, err)
	return got
}

func (g *guest) connect(t testing.TB, c *Call, addr string, flags, timeoutMS int32) int32 {
	t.Helper()
	p, n := g.put(t, argAt, addr)
	return g.v2(t, c, "connect", p, n, uint32(flags), uint32(timeoutMS))
}

func (g *guest) send(t testing.TB, c *Call, h int32, s string) int32 {
	t.Helper()
	p, n := g.put(t, dataAt, s)
	return g.v2(t, c, "send", uint32(h), p, n)
}

// recv receives once into a buffer of capacity max.
func (g *guest) recv(t testing.TB, c *Call, h int32, max uint32, timeoutMS int32) (int32, string) {
	t.Helper()
	got := g.v2(t, c, "recv", uint32(h), bufAt, max, uint32(timeoutMS))
	if got <= 0 {
		return got, ""
	}
	return got, g.read(bufAt, uint32(got))
}

// recvAll receives until the stream ends or fails, a byte at a time when
// one is set, and returns what came and the status that ended it.
func (g *guest) recvAll(t testing.TB, c *Call, h int32, max uint32) (string, int32) {
	t.Helper()
	var b strings.Builder
	for {
		n, s := g.recv(t, c, h, max, 0)
		if n <= 0 {
			return b.String(), n
		}
		b.WriteString(s)
	}
}

func (g *guest) lastError(t testing.TB, c *Call) string {
	t.Helper()
	n := g.v2(t, c, "last_error", bufAt, bufCap)
	if n < 0 {
		return ""
	}
	return g.read(bufAt, uint32(min(n, bufCap)))
}

// tlsFacts calls gate.tls and returns its answer, NotAfter and seconds left.
func (g *guest) tlsFacts(t testing.TB, c *Call, h int32) (int32, int64, int64) {
	t.Helper()
	got := g.v2(t, c, "tls", uint32(h), dataAt)
	b, _ := g.mod.Memory().Read(dataAt, 16)
	return got, int64(binary.LittleEndian.Uint64(b)), int64(binary.LittleEndian.Uint64(b[8:]))
}

// echoServer answers every connection by sending back what it reads.
func echoServer(t testing.TB, network, addr string) net.Listener {
	return serve(t, network, addr, func(c net.Conn) { io.Copy(c, c) })
}

// serve runs handle on every connection the listener accepts, and closes
// it after.
func serve(t testing.TB, network, addr string, handle func(net.Conn)) net.Listener {
	t.Helper()
	l, err := net.Listen(network, addr)
	require.NoError(t, err)
	var wg sync.WaitGroup
	t.Cleanup(func() { l.Close(); wg.Wait() })
	// The accept loop counts itself, so that each handler's Add happens
	// while the count is above zero: an Add from zero racing Cleanup's
	// Wait is what the race detector reports.
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			wg.Add(1)
			go func() {
				defer wg.Done()
				defer c.Close()
				handle(c)
			}()
		}
	}()
	return l
}

func TestStreamRoundTrip(t *testing.T) {
	g := newGuest(t)
	sock := filepath.Join(t.TempDir(), "echo.sock")
	tcp := echoServer(t, "tcp", "127.0.0.1:0")
	echoServer(t, "unix", sock)
	c := testCall(t, Grants{Dial: []string{"127.0.0.1:*", "unix:" + sock}})
	defer c.End()

	for i, addr := range []string{tcp.Addr().String(), "unix:" + sock} {
		h := g.connect(t, c, addr, 0, 0)
		require.Equal(t, int32(i+1), h, "handles are numbered from 1 in the order opened")
		assert.Equal(t, int32(5), g.send(t, c, h, "PING\n"))
		n, got := g.recv(t, c, h, 64, 0)
		assert.Equal(t, int32(5), n)
		assert.Equal(t, "PING\n", got)
		// A small buffer gets the rest on the next call.
		assert.Equal(t, int32(6), g.send(t, c, h, "abcdef"))
		n, got = g.recv(t, c, h, 4, 0)
		require.Equal(t, int32(4), n)
		assert.Equal(t, "abcd", got)
		n, got = g.recv(t, c, h, 64, 0)
		assert.Equal(t, "ef", got)
		assert.Equal(t, int32(2), n)
		assert.Equal(t, StatusNotFound, g.v2(t, c, "tls", uint32(h), dataAt), "not a TLS stream")
		assert.Equal(t, StatusOK, g.v2(t, c, "close", uint32(h)))
		assert.Equal(t, StatusBadHandle, g.v2(t, c, "close", uint32(h)))
		assert.Equal(t, StatusBadHandle, g.send(t, c, h, "x"), "a closed handle stays closed")
		assert.Contains(t, g.lastError(t, c), "is not open")
	}
	for _, h := range []int32{0, -1, 3, 99} {
		assert.Equal(t, StatusBadHandle, g.send(t, c, h, "x"))
		n, _ := g.recv(t, c, h, 8, 0)
		assert.Equal(t, StatusBadHandle, n)
		assert.Equal(t, StatusBadHandle, g.v2(t, c, "http_status", uint32(h)))
	}
}

func TestConnectStatuses(t *testing.T) {
	g := newGuest(t)
	open := echoServer(t, "tcp", "127.0.0.1:0")
	closedAddr := testnet.ClosedAddr(t)
	hole := testnet.BlackHole(t)
	c := testCall(t, Grants{Dial: []string{"127.0.0.1:*", "unix:/nonexistent/*"}})
	defer c.End()
	tests := []struct {
		addr    string
		flags   int32
		want    int32
		lastErr string
	}{
		{open.Addr().String(), 0, 1, ""},
		{closedAddr, 0, StatusRefused, "connection refused"},
		{"unix:/nonexistent/sock", 0, StatusRefused, "no such file"},
		{hole, 0, StatusTimedOut, "timeout"},
		{"10.0.0.1:22", 0, StatusDenied, `dial "10.0.0.1:22" not granted to probe "t"`},
		{"tls:10.0.0.1:22", 0, StatusDenied, `dial "tls:10.0.0.1:22" not granted`},
		{"127.0.0.1:0", 0, StatusBadRequest, "bad address"},
		{"tls:unix:/nonexistent/sock", 0, StatusBadRequest, "bad address"},
		{"no-port", 0, StatusBadRequest, "bad address"},
		{open.Addr().String(), 6, StatusBadRequest, "unknown flags"},
		{"tls:" + open.Addr().String(), FlagInsecure, StatusDenied, `insecure "` + open.Addr().String() + `" not granted`},
	}
	for _, tt := range tests {
		t.Run(tt.addr, func(t *testing.T) {
			assert.Equal(t, tt.want, g.connect(t, c, tt.addr, tt.flags, 50))
			if tt.lastErr != "" {
				assert.Contains(t, g.lastError(t, c), tt.lastErr)
			}
		})
	}
	assert.Len(t, c.Denied(), 3)
}

func TestRecvTimeoutEOFAndReset(t *testing.T) {
	g := newGuest(t)
	release := make(chan struct{})
	// Sends "late" once told to, then closes: the stream must survive the
	// timeout before.
	late := serve(t, "tcp", "127.0.0.1:0", func(c net.Conn) {
		<-release
		c.Write([]byte("late"))
	})
	reset := serve(t, "tcp", "127.0.0.1:0", func(c net.Conn) {
		c.Read(make([]byte, 1)) // so that the reset cannot beat the connect
		c.Write([]byte("x"))
		c.(*net.TCPConn).SetLinger(0) // close sends RST
	})
	c := testCall(t, Grants{Dial: []string{"127.0.0.1:*"}})
	defer c.End()

	h := g.connect(t, c, late.Addr().String(), 0, 0)
	require.Positive(t, h)
	n, _ := g.recv(t, c, h, 64, 20)
	assert.Equal(t, StatusTimedOut, n)
	assert.Contains(t, g.lastError(t, c), "nothing arrived in time")
	close(release)
	n, got := g.recv(t, c, h, 64, 0)
	assert.Equal(t, int32(4), n, "the stream stays usable after a timeout")
	assert.Equal(t, "late", got)
	n, _ = g.recv(t, c, h, 64, 0)
	assert.Equal(t, int32(0), n, "end of stream")
	n, _ = g.recv(t, c, h, 64, 0)
	assert.Equal(t, int32(0), n, "and it stays ended")

	h = g.connect(t, c, reset.Addr().String(), 0, 0)
	require.Positive(t, h, g.lastError(t, c))
	require.Equal(t, int32(1), g.send(t, c, h, "!"))
	got, status := g.recvAll(t, c, h, 64)
	assert.Equal(t, "x", got)
	assert.Equal(t, StatusClosed, status)
	assert.Contains(t, g.lastError(t, c), "reset")
}

func TestSendBounds(t *testing.T) {
	g := newGuest(t)
	l := serve(t, "tcp", "127.0.0.1:0", func(c net.Conn) { io.Copy(io.Discard, c) })
	c := testCall(t, Grants{Dial: []string{"127.0.0.1:*"}})
	defer c.End()
	h := g.connect(t, c, l.Addr().String(), 0, 0)
	require.Positive(t, h)
	chunk := strings.Repeat("x", 16<<10)
	for range MaxBytesOut / len(chunk) {
		require.Equal(t, int32(len(chunk)), g.send(t, c, h, chunk))
	}
	assert.Equal(t, StatusLimit, g.send(t, c, h, "x"), "64 KiB out is the run's bound")
	assert.Contains(t, g.lastError(t, c), "bytes out")
	assert.Equal(t, int32(0), g.send(t, c, h, ""), "nothing more is nothing")
}

func TestHandleBounds(t *testing.T) {
	g := newGuest(t)
	l := echoServer(t, "tcp", "127.0.0.1:0")
	c := testCall(t, Grants{Dial: []string{"127.0.0.1:*"}})
	defer c.End()
	addr := l.Addr().String()
	for i := 1; i <= MaxOpenHandles; i++ {
		require.Equal(t, int32(i), g.connect(t, c, addr, 0, 0))
	}
	assert.Equal(t, StatusLimit, g.connect(t, c, addr, 0, 0), "8 open at once")
	assert.Contains(t, g.lastError(t, c), "at once")
	opened := MaxOpenHandles
	for h := int32(1); opened < MaxHandlesPerRun; h++ {
		require.Equal(t, StatusOK, g.v2(t, c, "close", uint32(h)))
		opened++
		require.Equal(t, int32(opened), g.connect(t, c, addr, 0, 0))
	}
	require.Equal(t, StatusOK, g.v2(t, c, "close", uint32(MaxHandlesPerRun)))
	assert.Equal(t, StatusLimit, g.connect(t, c, addr, 0, 0), "32 in all")
	assert.Contains(t, g.lastError(t, c), "in all")
}

// tlsServer is a TLS echo server with httptest's certificate (for
// 127.0.0.1 and example.com), and a pool that trusts it.
func tlsServer(t testing.TB) (net.Listener, *x509.Certificate, *x509.CertPool) {
	t.Helper()
	srv := httptest.NewUnstartedServer(http.NotFoundHandler())
	srv.StartTLS()
	cfg := srv.TLS.Clone()
	srv.Close()
	leaf, err := x509.ParseCertificate(cfg.Certificates[0].Certificate[0])
	require.NoError(t, err)
	pool := x509.NewCertPool()
	pool.AddCert(leaf)
	l := serve(t, "tcp", "127.0.0.1:0", func(c net.Conn) {
		tc := tls.Server(c, cfg)
		io.Copy(tc, tc)
	})
	return l, leaf, pool
}

func TestConnectTLS(t *testing.T) {
	g := newGuest(t)
	l, leaf, pool := tlsServer(t)
	addr := l.Addr().String()
	grants := Grants{Dial: []string{"127.0.0.1:*"}, Insecure: []string{addr}}

	t.Run("verified", func(t *testing.T) {
		c := testCall(t, grants)
		c.Net = &Net{RootCAs: pool}
		defer c.End()
		h := g.connect(t, c, "tls:"+addr, 0, 0)
		require.Positive(t, h, g.lastError(t, c))
		assert.Equal(t, int32(5), g.send(t, c, h, "hello"))
		n, got := g.recv(t, c, h, 64, 0)
		assert.Equal(t, int32(5), n)
		assert.Equal(t, "hello", got)
		ok, notAfter, left := g.tlsFacts(t, c, h)
		assert.Equal(t, int32(1), ok)
		assert.Equal(t, leaf.NotAfter.Unix(), notAfter)
		assert.InDelta(t, time.Until(leaf.NotAfter).Seconds(), float64(left), 5)
	})
	t.Run("unknown authority", func(t *testing.T) {
		_, err := x509.SystemCertPool() // loaded once, outside the budget
		require.NoError(t, err)
		c := testCall(t, grants)
		defer c.End()
		assert.Equal(t, StatusTLS, g.connect(t, c, "tls:"+addr, 0, 0))
		assert.Contains(t, g.lastError(t, c), "certificate signed by unknown authority")
	})
	t.Run("wrong CA", func(t *testing.T) {
		c := testCall(t, grants)
		c.Net = &Net{RootCAs: x509.NewCertPool()}
		defer c.End()
		assert.Equal(t, StatusTLS, g.connect(t, c, "tls:"+addr, 0, 0))
	})
	t.Run("insecure with its grant", func(t *testing.T) {
		c := testCall(t, grants)
		defer c.End()
		h := g.connect(t, c, "tls:"+addr, FlagInsecure, 0)
		require.Positive(t, h, g.lastError(t, c))
		ok, notAfter, _ := g.tlsFacts(t, c, h)
		assert.Equal(t, int32(0), ok, "it would not have been verified")
		assert.Equal(t, leaf.NotAfter.Unix(), notAfter)
	})
	t.Run("insecure that would verify", func(t *testing.T) {
		c := testCall(t, grants)
		c.Net = &Net{RootCAs: pool}
		defer c.End()
		h := g.connect(t, c, "tls:"+addr, FlagInsecure, 0)
		require.Positive(t, h)
		ok, _, _ := g.tlsFacts(t, c, h)
		assert.Equal(t, int32(1), ok)
	})
	t.Run("insecure without its grant", func(t *testing.T) {
		c := testCall(t, Grants{Dial: []string{"127.0.0.1:*"}})
		defer c.End()
		assert.Equal(t, StatusDenied, g.connect(t, c, "tls:"+addr, FlagInsecure, 0))
		assert.Equal(t, []string{`insecure "` + addr + `" not granted to probe "t"`}, c.Denials())
	})
	t.Run("tls out of range traps", func(t *testing.T) {
		c := testCall(t, grants)
		c.Net = &Net{RootCAs: pool}
		defer c.End()
		h := g.connect(t, c, "tls:"+addr, 0, 0)
		require.Positive(t, h)
		_, err := g.call(c, "tls", uint32(h), 65536-8)
		var merr *MemoryError
		require.ErrorAs(t, err, &merr)
	})
}

func TestEndClosesHandles(t *testing.T) {
	g := newGuest(t)
	closed := make(chan struct{}, 4)
	l := serve(t, "tcp", "127.0.0.1:0", func(c net.Conn) {
		io.Copy(io.Discard, c)
		closed <- struct{}{}
	})
	c := testCall(t, Grants{Dial: []string{"127.0.0.1:*"}})
	for range 3 {
		require.Positive(t, g.connect(t, c, l.Addr().String(), 0, 0))
	}
	c.End()
	for range 3 {
		select {
		case <-closed:
		case <-time.After(5 * time.Second):
			t.Fatal("the server did not see the connection close")
		}
	}
	_, set := c.LastError()
	assert.False(t, set)
	c.End() // twice is fine
	assert.Equal(t, StatusBadHandle, g.send(t, c, 1, "x"), "End forgets the handles")
}

func TestRecvServesRedactedChunks(t *testing.T) {
	// Without secrets granted redact passes bytes through; this checks the
	// buffer logic a byte at a time over a 200 KiB stream.
	g := newGuest(t)
	payload := bytes.Repeat([]byte("0123456789"), 20<<10)
	l := serve(t, "tcp", "127.0.0.1:0", func(c net.Conn) { c.Write(payload) })
	c := testCall(t, Grants{Dial: []string{"127.0.0.1:*"}})
	c.Deadline = time.Now().Add(time.Minute)
	defer c.End()
	h := g.connect(t, c, l.Addr().String(), 0, 0)
	require.Positive(t, h)
	got, status := g.recvAll(t, c, h, bufCap)
	assert.Equal(t, int32(0), status)
	assert.Equal(t, string(payload), got)
}
