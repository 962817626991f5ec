package testsvc

import (
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// errNotUp says a server started but did not answer in time.
var errNotUp = errors.New("did not answer in time")

// startError is a server that could not be started, with its output.
type startError struct {
	what string
	err  error
	out  string
}

func (e *startError) Error() string {
	out := strings.TrimSpace(e.out)
	if out == "" {
		return fmt.Sprintf("%s: %v", e.what, e.err)
	}
	return fmt.Sprintf("%s: %v; its output:\n%s", e.what, e.err, out)
}

func (e *startError) Unwrap() error { return e.err }

// FreePort returns a loopback TCP port that was free a moment ago: the
// kernel's choice for 127.0.0.1:0, released at once.
func FreePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// Serve starts a TCP listener on 127.0.0.1 that runs handle on each
// connection it accepts (in a goroutine of its own; the connection is
// closed when handle returns) and returns its address. Listener and
// connections are closed when the test ends, which also ends a handle that
// is blocked reading or writing.
func Serve(t testing.TB, handle func(net.Conn)) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("testsvc.Serve: %v", err)
	}
	serve(t, l, handle)
	return l.Addr().String()
}

// ServeUnix is Serve on a unix socket in a directory of the test's own,
// and returns the socket's path.
func ServeUnix(t testing.TB, handle func(net.Conn)) string {
	t.Helper()
	// t.TempDir() can be longer than a socket path may be (108 bytes).
	dir, err := os.MkdirTemp("", "testsvc")
	if err != nil {
		t.Fatalf("testsvc.ServeUnix: %v", err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	sock := filepath.Join(dir, "s.sock")
	l, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatalf("testsvc.ServeUnix: %v", err)
	}
	serve(t, l, handle)
	return sock
}

// serve runs handle on each connection l accepts, as Serve says, until
// the test ends.
func serve(t testing.TB, l net.Listener, handle func(net.Conn)) {
	var (
		mu     sync.Mutex
		conns  = map[net.Conn]bool{}
		closed bool
		wg     sync.WaitGroup
	)
	t.Cleanup(func() {
		l.Close()
		mu.Lock()
		closed = true
		for c := range conns {
			c.Close()
		}
		mu.Unlock()
		wg.Wait()
	})
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			if closed {
				mu.Unlock()
				c.Close()
				return
			}
			conns[c] = true
			wg.Add(1)
			mu.Unlock()
			go func() {
				defer wg.Done()
				defer func() {
					mu.Lock()
					delete(conns, c)
					mu.Unlock()
					c.Close()
				}()
				handle(c)
			}()
		}
	}()
}

// Mute starts a TCP listener on 127.0.0.1 that accepts every connection
// and never writes a byte nor closes it until the test ends: a peer that
// takes the connection and never answers. (testnet.BlackHole is one that
// never completes the handshake.)
func Mute(t testing.TB) string {
	t.Helper()
	return Serve(t, func(c net.Conn) {
		// Read until the cleanup closes the connection; what arrives is
		// dropped.
		buf := make([]byte, 4096)
		for {
			if _, err := c.Read(buf); err != nil {
				return
			}
		}
	})
}

// Script starts a TCP peer that, on each connection, reads until it has
// seen the text of until (or any bytes, when until is ""), writes reply,
// and then holds the connection open, reading and dropping, until the
// client closes it or the test ends. It fakes answers that a real server
// gives only by accident, such as Redis's -LOADING.
func Script(t testing.TB, until string, reply []byte) string {
	t.Helper()
	return Serve(t, func(c net.Conn) {
		var seen []byte
		buf := make([]byte, 4096)
		replied := false
		for {
			n, err := c.Read(buf)
			if err != nil {
				return
			}
			if replied {
				continue
			}
			seen = append(seen, buf[:n]...)
			if until == "" || strings.Contains(string(seen), until) {
				if _, err := c.Write(reply); err != nil {
					return
				}
				replied = true
			}
		}
	})
}
