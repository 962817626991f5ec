package server

import (
	"container/list"
	"net"
	"net/http"
	"sync"
	"sync/atomic"

	"github.com/gate-dev/gate/internal/budget"
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
//
// A peer may have at most share proven connections: a request past it is
// refused (proveConn reports it, and the server answers 429 and closes the
// connection), and while the peer has its share a new connection of its
// is closed at once. So no peer, with the token or without, can take
// every slot, and only the peer past its share loses a connection for it.
// Unproven connections are not counted: they give their slots up when the
// listener is full, as above, and a client with the token on a flooding
// peer's address (every loopback client is 127.0.0.1) keeps the last place
// among them.
type limitListener struct {
	net.Listener
	max, share int

	mu        sync.Mutex
	open      int
	proven    map[string]int        // per peer: its proven connections open
	unproven  map[string]*list.List // per peer: its unproven *limitConn, oldest first
	unprovenN int

	refused     atomic.Int64 // connections closed at once, every slot proven
	peerRefused atomic.Int64 // connections closed at once, their peer's share proven
	evicted     atomic.Int64 // unproven connections closed to make room
}

func newLimitListener(l net.Listener, n, share int) *limitListener {
	return &limitListener{Listener: l, max: n, share: max(share, 1), proven: map[string]int{}, unproven: map[string]*list.List{}}
}

// peerOf is the party of a remote address: the peer a connection counts
// against (budget.Peer).
func peerOf(a net.Addr) string {
	if a == nil {
		return ""
	}
	return budget.Peer(a.String())
}

// openNow is how many connections are open.
func (l *limitListener) openNow() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.open
}

// provenBy is how many proven connections peer holds, for tests; a peer
// that holds none is forgotten (its state ends with its last connection).
func (l *limitListener) provenBy(peer string) (n int, known bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	n, known = l.proven[peer]
	return n, known
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

// leave takes c's place from its peer, whose slot is given back or passed
// on by the caller; l.mu is held.
func (l *limitListener) leave(c *limitConn) {
	l.unlink(c)
	c.gone = true
	if !c.proven {
		return
	}
	if l.proven[c.peer]--; l.proven[c.peer] <= 0 {
		delete(l.proven, c.peer)
	}
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
		case l.proven[lc.peer] >= l.share:
			l.mu.Unlock()
			l.peerRefused.Add(1)
			_ = c.Close()
			continue
		case l.open < l.max:
			l.open++
		case l.unprovenN > 0:
			// The slot of an unproven connection passes to lc.
			evict = l.evictable()
			l.leave(evict)
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
	elem   *list.Element
	gone   bool
	proven bool
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
		l.leave(c)
		l.open--
	}
	return err
}

// prove takes the connection out of those that may be closed to make
// room, and reports false, leaving it unproven, when its peer has its
// share of proven connections already, or when it was closed to make
// room before its request was read through: that request is refused, not
// handled, since its client, whose connection ended without an answer,
// could not tell whether it was.
func (c *limitConn) prove() bool {
	l := c.l
	l.mu.Lock()
	defer l.mu.Unlock()
	switch {
	case c.proven:
		return true
	case c.gone, l.proven[c.peer] >= l.share:
		return false
	}
	l.unlink(c)
	c.proven = true
	l.proven[c.peer]++
	return true
}

type connKey struct{}

// proveConn marks the connection r came on as one whose client passed the
// server's checks (NewHTTPServer puts it in the request's context). It
// reports false when the connection's peer has its share of proven
// connections already, or when the connection was closed to make room
// (the refusal then reaches no one): the request is to be refused.
func proveConn(r *http.Request) bool {
	if c, ok := r.Context().Value(connKey{}).(*limitConn); ok {
		return c.prove()
	}
	return true
}
