package host

import (
	"bufio"
	"bytes"
	"io"
	"net"
	"net/http"
	"net/http/httputil"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// The hostile peers of the secrets tests: each is what a real service
// might do with what it was sent (echo it, repeat it, quote it in an error,
// encode it), written small enough to read at a glance.

// received gathers what a peer was sent, across its connections, for a
// test to check once the run is over. A peer that records keeps at most
// maxRecorded bytes and counts the rest.
type received struct {
	mu    sync.Mutex
	b     bytes.Buffer
	total atomic.Int64
	// ends counts the connections the peer has done with.
	ends atomic.Int32
}

const maxRecorded = 4 << 20

func (r *received) add(b []byte) {
	r.total.Add(int64(len(b)))
	r.mu.Lock()
	defer r.mu.Unlock()
	if room := maxRecorded - r.b.Len(); room > 0 {
		r.b.Write(b[:min(len(b), room)])
	}
}

func (r *received) String() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.b.String()
}

// recordingConn is a conn whose reads are recorded.
type recordingConn struct {
	net.Conn
	r *received
}

func (c recordingConn) Read(b []byte) (int, error) {
	n, err := c.Conn.Read(b)
	c.r.add(b[:n])
	return n, err
}

// recordingListener records every byte its connections read: what the
// server behind it was sent, on the wire.
type recordingListener struct {
	net.Listener
	r *received
}

func (l recordingListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return recordingConn{c, l.r}, nil
}

// hostileHTTP serves h on loopback, recording every byte its clients
// send, and returns its origin ("http://127.0.0.1:PORT").
func hostileHTTP(t testing.TB, h http.Handler) (string, *received) {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	r := &received{}
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
	go srv.Serve(recordingListener{l, r})
	t.Cleanup(func() { srv.Close() })
	return "http://" + l.Addr().String(), r
}

// hostilePeer serves handle on every connection at a loopback address,
// recording what it was sent, and returns the address.
func hostilePeer(t testing.TB, handle func(net.Conn)) (string, *received) {
	t.Helper()
	r := &received{}
	l := serve(t, "tcp", "127.0.0.1:0", func(c net.Conn) {
		defer r.ends.Add(1)
		handle(recordingConn{c, r})
	})
	return l.Addr().String(), r
}

// repeatHandler answers with ?pad= dots and then the request body ?times=
// times over: a service that amplifies what it is sent, so that a probe
// can place a value wherever it likes in a response of any length.
func repeatHandler(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	times, _ := strconv.Atoi(r.URL.Query().Get("times"))
	pad, _ := strconv.Atoi(r.URL.Query().Get("pad"))
	bw := bufio.NewWriter(w)
	bw.WriteString(strings.Repeat(".", pad))
	for range times {
		if _, err := bw.Write(body); err != nil {
			return
		}
	}
	bw.Flush()
}

// echoBodyHandler answers with the request body, and says in
// X-Got-Length how long the body was, as a service that quotes the
// request it could not parse does.
func echoBodyHandler(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	w.Header().Set("X-Got-Length", strconv.FormatInt(r.ContentLength, 10))
	w.Write(body)
}

// tokenBody is what the token-echoing handlers answer: the Authorization
// header the request carried, as a service's debug endpoint shows it.
func tokenBody(r *http.Request) []byte {
	return []byte("token=" + r.Header.Get("Authorization") + "\n")
}

// stall is a peer that pauses in the middle of a reply, as one that
// writes a reply in two syscalls may: once the probe has sent a line, it
// sends first(line) and says so on firstSent; once the test says so on
// next, it sends rest(line) and says so on restSent.
type stall struct {
	addr                      string
	firstSent, next, restSent chan struct{}
	// wroteFirst is from before the first write began, wroteRest from
	// after the second ended: between them lies at least the pause
	// between the two parts' arrival, however the peer was scheduled.
	// Read them after restSent.
	wroteFirst, wroteRest time.Time
}

// pause bounds from above how long the peer sent nothing between its two
// writes. The
// host promises a whole value only from a peer that pauses less than its
// quiet gap in the middle of one (docs/ABI.md); on a loaded machine the
// test's own peer can be kept off the CPU for longer, and such a try
// tests nothing the host promises.
func (s *stall) pause() time.Duration { return s.wroteRest.Sub(s.wroteFirst) }

// prompt runs try, the whole exchange with a fresh stallPeer, until its
// peer paused for less than the host's quiet gap, and reports whether one
// did within a few tries. The caller asserts only on such a try.
func prompt(t testing.TB, try func() *stall) bool {
	t.Helper()
	for range 5 {
		if s := try(); s.pause() < quietGap {
			return true
		} else {
			t.Logf("the machine kept the peer off the CPU for %v between its writes, longer than the quiet gap (%v): trying again", s.pause(), quietGap)
		}
	}
	t.Logf("the peer never wrote within the quiet gap: nothing the host promises was tested")
	return false
}

func stallPeer(t testing.TB, first, rest func(line string) string) *stall {
	s := &stall{firstSent: make(chan struct{}, 1), next: make(chan struct{}), restSent: make(chan struct{}, 1)}
	s.addr, _ = hostilePeer(t, func(c net.Conn) {
		line, err := bufio.NewReader(c).ReadString('\n')
		if err != nil {
			return
		}
		s.wroteFirst = time.Now()
		if _, err := io.WriteString(c, first(line)); err != nil {
			return
		}
		s.firstSent <- struct{}{}
		select {
		case <-s.next:
		case <-time.After(20 * time.Second):
			return
		}
		io.WriteString(c, rest(line))
		s.wroteRest = time.Now()
		s.restSent <- struct{}{}
		io.Copy(io.Discard, c)
	})
	return s
}

// fountainPeer sends n bytes of 'x' on each connection, then closes it.
func fountainPeer(t testing.TB, n int) string {
	addr, _ := hostilePeer(t, func(c net.Conn) {
		c.Write(bytes.Repeat([]byte{'x'}, n))
	})
	return addr
}

// linePeer answers each line it is sent (without its line end) with
// answer(line) and a line end: a service that computes on what it is sent.
func linePeer(t testing.TB, answer func(line string) string) (string, *received) {
	return hostilePeer(t, func(c net.Conn) {
		br := bufio.NewReader(c)
		for {
			line, err := br.ReadString('\n')
			if err != nil {
				return
			}
			if _, err := io.WriteString(c, answer(strings.TrimRight(line, "\r\n"))+"\r\n"); err != nil {
				return
			}
		}
	})
}

// countingPeer reads everything it is sent and records it.
func countingPeer(t testing.TB) (string, *received) {
	return hostilePeer(t, func(c net.Conn) { io.Copy(io.Discard, c) })
}

// onceLinePeer echoes the first line it is sent and closes the stream.
func onceLinePeer(t testing.TB) string {
	addr, _ := hostilePeer(t, func(c net.Conn) {
		var line []byte
		buf := make([]byte, 64<<10)
		for !slices.Contains(line, '\n') {
			n, err := c.Read(buf)
			line = append(line, buf[:n]...)
			if err != nil {
				return
			}
		}
		c.Write(line)
	})
	return addr
}

// dumpHandler records each request it serves, as it arrived, in r.
func dumpHandler(r *received) http.HandlerFunc {
	return func(w http.ResponseWriter, req *http.Request) {
		b, _ := httputil.DumpRequest(req, true)
		r.add(b)
		w.Write([]byte("landed\n"))
	}
}
