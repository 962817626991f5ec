package server

import (
	"container/list"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
)

// limitListener hands out at most max connections at a time. Unlike
// golang.org/x/net/netutil.LimitListener, which stops accepting when
// full, it accepts and makes room, or closes the new connection: a
// listener that stops accepting leaves new connections in the kernel's
// queue, where clients wait for a timeout instead of learning at once that
// they must retry.
//
// A connection is unproven until a request on it passes the server's
// checks (the token, when there is one; see proveConn). When the listener
// is full, a new connection takes the slot of the oldest unproven one,
// which is closed: whoever holds connections without the token (idle ones
// wait up to the header timeout) cannot keep out a client that has it, for
// that client's new connection, being the newest, is the last to go, and
// it is proven as soon as its first request is read. Only when every
// connection is proven is a new one refused.
type limitListener struct {
	net.Listener
	max int

	mu       sync.Mutex
	open     int
	unproven list.List // of *limitConn, oldest first

	refused atomic.Int64 // connections closed at once, every slot proven
	evicted atomic.Int64 // unproven connections closed to make room
}

func newLimitListener(l net.Listener, n int) *limitListener {
	return &limitListener{Listener: l, max: n}
}

func (l *limitListener) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		lc := &limitConn{Conn: c, l: l}
		l.mu.Lock()
		var evict *limitConn
		switch {
		case l.open < l.max:
			l.open++
		case l.unproven.Len() > 0:
			// The oldest unproven connection's slot passes to lc.
			evict = l.unproven.Remove(l.unproven.Front()).(*limitConn)
			evict.elem, evict.gone = nil, true
		default:
			l.mu.Unlock()
			l.refused.Add(1)
			_ = c.Close()
			continue
		}
		lc.elem = l.unproven.PushBack(lc)
		l.mu.Unlock()
		if evict != nil {
			l.evicted.Add(1)
			_ = evict.Conn.Close()
		}
		return lc, nil
	}
}

// limitConn gives its slot back when closed, once.
type limitConn struct {
	net.Conn
	l *limitListener
	// elem is the connection's place among the unproven, nil once it is
	// proven or gone; gone says its slot is given back or passed on.
	// Both are guarded by l.mu.
	elem *list.Element
	gone bool
}

// CloseWrite half-closes a TCP connection: the server does it before it
// closes one whose client may still be sending (a 431, a body too large),
// so that the client reads the answer rather than a reset.
func (c *limitConn) CloseWrite() error {
	if cw, ok := c.Conn.(interface{ CloseWrite() error }); ok {
		return cw.CloseWrite()
	}
	return nil
}

func (c *limitConn) Close() error {
	err := c.Conn.Close()
	l := c.l
	l.mu.Lock()
	defer l.mu.Unlock()
	if !c.gone {
		if c.elem != nil {
			l.unproven.Remove(c.elem)
			c.elem = nil
		}
		c.gone = true
		l.open--
	}
	return err
}

// prove takes the connection out of those that may be closed to make
// room.
func (c *limitConn) prove() {
	l := c.l
	l.mu.Lock()
	defer l.mu.Unlock()
	if c.elem != nil {
		l.unproven.Remove(c.elem)
		c.elem = nil
	}
}

type connKey struct{}

// proveConn marks the connection r came on as one whose client passed the
// server's checks (NewHTTPServer puts it in the request's context).
func proveConn(r *http.Request) {
	if c, ok := r.Context().Value(connKey{}).(*limitConn); ok {
		c.prove()
	}
}
