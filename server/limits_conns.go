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
// is full, a new connection takes the slot of an unproven one, which is
// closed: the oldest of the peer (the remote address) that holds the most.
// Whoever holds connections without the token (idle ones wait up to the
// header timeout) cannot keep out a client that has it: a peer that opens
// connections as fast as it can takes the slots of its own, never those
// of a client elsewhere, and on one address (every loopback client is
// 127.0.0.1) the token holder's new connection, being the newest, is the
// last to go, and it is proven as soon as its first request is read. Only
// when every connection is proven is a new one refused.
type limitListener struct {
	net.Listener
	max int

	mu        sync.Mutex
	open      int
	unproven  map[string]*list.List // per peer: its unproven *limitConn, oldest first
	unprovenN int

	refused atomic.Int64 // connections closed at once, every slot proven
	evicted atomic.Int64 // unproven connections closed to make room
}

func newLimitListener(l net.Listener, n int) *limitListener {
	return &limitListener{Listener: l, max: n, unproven: map[string]*list.List{}}
}

// peerOf is the host of a remote address: the peer a connection counts
// against.
func peerOf(a net.Addr) string {
	if a == nil {
		return ""
	}
	host, _, err := net.SplitHostPort(a.String())
	if err != nil {
		return a.String()
	}
	return host
}

// evictable is the oldest unproven connection of the peer that holds the
// most; l.mu is held, and there is one.
func (l *limitListener) evictable() *limitConn {
	var most *list.List
	for _, q := range l.unproven {
		if most == nil || q.Len() > most.Len() {
			most = q
		}
	}
	return most.Front().Value.(*limitConn)
}

// unlink takes c out of the unproven; l.mu is held.
func (l *limitListener) unlink(c *limitConn) {
	if c.elem == nil {
		return
	}
	q := l.unproven[c.peer]
	q.Remove(c.elem)
	if q.Len() == 0 {
		delete(l.unproven, c.peer)
	}
	c.elem = nil
	l.unprovenN--
}

func (l *limitListener) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		lc := &limitConn{Conn: c, l: l, peer: peerOf(c.RemoteAddr())}
		l.mu.Lock()
		var evict *limitConn
		switch {
		case l.open < l.max:
			l.open++
		case l.unprovenN > 0:
			// The slot of an unproven connection passes to lc.
			evict = l.evictable()
			l.unlink(evict)
			evict.gone = true
		default:
			l.mu.Unlock()
			l.refused.Add(1)
			_ = c.Close()
			continue
		}
		q := l.unproven[lc.peer]
		if q == nil {
			q = list.New()
			l.unproven[lc.peer] = q
		}
		lc.elem = q.PushBack(lc)
		l.unprovenN++
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
	l    *limitListener
	peer string // its remote host
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
		l.unlink(c)
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
	l.unlink(c)
}

type connKey struct{}

// proveConn marks the connection r came on as one whose client passed the
// server's checks (NewHTTPServer puts it in the request's context).
func proveConn(r *http.Request) {
	if c, ok := r.Context().Value(connKey{}).(*limitConn); ok {
		c.prove()
	}
}
