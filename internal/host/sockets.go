package host

import (
	"context"
	"errors"
	"net"
	"runtime"
	"strconv"
	"sync"
	"syscall"
)

// SocketShare says what part of the process's descriptor limit the
// sockets of all probe runs may hold at once: a quarter (1/SocketShare) of
// the RLIMIT_NOFILE soft limit, as read when the first probe opens one. The
// rest is the host's: gatectl serve's HTTP clients take up to half of it
// (server.ServerOptions), the MCP gateway's upstreams, files and the
// runtime's own descriptors what is left. So probes that hold their 8
// streams each make other probes wait, and never make an innocent probe's
// dial or the server's accept fail for want of a descriptor. On Unix, Go
// raises the soft limit to one below the hard limit at start (the syscall
// package's init), so it is the hard limit that counts, unless the host
// app lowered the limit since.
const SocketShare = 4

// defaultDescriptorLimit is the limit assumed where it cannot be read.
const defaultDescriptorLimit = 1024

// maxSocketBound caps the bound where the descriptor limit is huge or
// unlimited; past a million sockets the kernel's own limits come first.
const maxSocketBound = 1 << 20

// SocketBound returns how many sockets the runs of all probes of the
// process may hold at once (see SocketShare). gate.dial, gate.connect and
// gate.http each take one for as long as their socket is open (a dial's
// for the moment of the connect). A run that cannot get one waits for
// one, within the time its call may wait; if none comes free, gate.connect
// and gate.http answer StatusLimit and gate.dial ends the run as an error
// (see docs/ABI.md).
func SocketBound() int { return processSockets().bound }

// socketSlots is a counting semaphore of sockets, shared by every run of
// the process.
type socketSlots struct {
	bound int
	held  chan struct{}
	// full is the last error of a call that found no slot.
	full error
}

var processSockets = sync.OnceValue(func() *socketSlots {
	return newSocketSlots(socketBound(descriptorLimit()))
})

func newSocketSlots(bound int) *socketSlots {
	return &socketSlots{
		bound: bound,
		held:  make(chan struct{}, bound),
		full:  &SocketsError{Bound: bound},
	}
}

// socketBound is the share of a descriptor limit that probes may hold.
func socketBound(limit uint64) int {
	n := limit / SocketShare
	switch {
	case n < 1:
		return 1
	case n > maxSocketBound:
		return maxSocketBound
	}
	return int(n)
}

// SocketsError is why a call got no socket: the host's bound across all
// probes was reached and none came free in time, or one came so late that
// the dial then ran out of time (Late).
type SocketsError struct {
	Bound int
	Late  bool
}

func (e *SocketsError) Error() string {
	msg := "the host's bound of " + strconv.Itoa(e.Bound) + " open sockets across all probes is reached"
	if e.Late {
		msg += ": the wait for one left the dial no time"
	}
	return msg
}

// take waits for a slot until ctx ends; waited says it was not free at
// once. The error is a *net.OpError of Op "dial" around a *SocketsError,
// as a failed dial's would be, so that every caller maps it with the
// dial's own errors (see dialStatus).
func (s *socketSlots) take(ctx context.Context, network string) (slot *socketSlot, waited bool, err error) {
	select {
	case s.held <- struct{}{}:
		return &socketSlot{s: s}, false, nil
	default:
	}
	select {
	case s.held <- struct{}{}:
		return &socketSlot{s: s}, true, nil
	case <-ctx.Done():
		return nil, true, &net.OpError{Op: "dial", Net: network, Err: s.full}
	}
}

// dial takes a slot, dials with it and ties it to the socket (see hold).
// A dial that ran out of time after waiting for its slot failed for the
// host's want of sockets, not the peer's slowness: its error says so, so
// that a probe never reads it as "the service timed out".
func (s *socketSlots) dial(ctx context.Context, network string, dial func() (net.Conn, error)) (net.Conn, error) {
	slot, waited, err := s.take(ctx, network)
	if err != nil {
		return nil, err
	}
	conn, err := dial()
	if err != nil && waited && (ctx.Err() != nil || isTimeout(err)) {
		err = &net.OpError{Op: "dial", Net: network, Err: &SocketsError{Bound: s.bound, Late: true}}
	}
	return slot.hold(conn, err)
}

// reserveSocket takes a slot for the exchange's first connection before
// net/http is asked for it: the transport dials on a goroutine of its own
// and, when the request's context ends while the dial still waits for a
// slot, reports the context's error, not the dial's. The slot goes to the
// first dial (see heldSocket); release gives it back if none took it.
func (x *exchange) reserveSocket(ctx context.Context) (release func(), err error) {
	network := "tcp"
	if x.first.Unix != "" {
		network = "unix"
	}
	slot, _, err := processSockets().take(ctx, network)
	if err != nil {
		return nil, err
	}
	x.slot.Store(slot)
	return func() {
		if slot := x.slot.Swap(nil); slot != nil {
			slot.release()
		}
	}, nil
}

// dialHeld dials with the exchange's reserved slot, or, once a dial has
// taken it (a redirect's connection), with a slot of its own.
func (x *exchange) dialHeld(ctx context.Context, network, addr string) (net.Conn, error) {
	if slot := x.slot.Swap(nil); slot != nil {
		return slot.hold(x.net.rawDial(ctx, network, addr))
	}
	return x.net.dialContext(ctx, network, addr)
}

// socketSlot is one taken slot; release gives it back once, however many
// times it is called.
type socketSlot struct {
	s    *socketSlots
	once sync.Once
}

func (sl *socketSlot) release() { sl.once.Do(func() { <-sl.s.held }) }

// hold ties the slot to conn, which gives it back when it is closed, or
// gives it back now when the dial failed.
func (sl *socketSlot) hold(conn net.Conn, err error) (net.Conn, error) {
	if err != nil {
		sl.release()
		return nil, err
	}
	c := &slotConn{Conn: conn, slot: sl}
	// A conn dropped without Close (nothing in gate does, but a transport
	// might) has its descriptor closed by the net package's own cleanup;
	// its slot comes back the same way rather than being lost for good.
	runtime.AddCleanup(c, func(sl *socketSlot) { sl.release() }, sl)
	return c, nil
}

// slotConn is a socket that holds a slot until it is closed.
type slotConn struct {
	net.Conn
	slot *socketSlot
}

func (c *slotConn) Close() error {
	err := c.Conn.Close()
	c.slot.release()
	return err
}

// NetConn returns the socket itself, as tls.Conn's does.
func (c *slotConn) NetConn() net.Conn { return c.Conn }

// outOfSockets reports whether err means the host, not the peer, had no
// socket to give: its bound across probes, the process's or system's
// descriptor limit (EMFILE, ENFILE), or every ephemeral port in use
// (connect's EADDRNOTAVAIL; gate binds no local address). None of them
// says anything of the peer: read as "unreachable", a busy host's
// exhausted ports were a wrong answer.
func outOfSockets(err error) bool {
	var full *SocketsError
	return errors.As(err, &full) || errors.Is(err, syscall.EMFILE) || errors.Is(err, syscall.ENFILE) ||
		errors.Is(err, syscall.EADDRNOTAVAIL)
}
