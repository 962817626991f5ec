package host

import (
	"net"
	"syscall"

	"golang.org/x/sys/unix"
)

// socketPending reports whether the kernel holds bytes that conn's socket
// has received and nobody has read yet. A read that ends at its deadline
// may do so with bytes already waiting: the Go runtime can wake a reader
// for its deadline before it sees the socket become readable, most often
// on a loaded machine. A hold that waits for a peer to fall quiet asks
// this before it calls the peer quiet, so that "quiet" means the socket
// holds nothing, whatever the scheduler did.
func socketPending(conn net.Conn) bool {
	// Under TLS and the host's own wrappers (tls.Conn, slotConn) is the
	// socket.
	for {
		w, ok := conn.(interface{ NetConn() net.Conn })
		if !ok {
			break
		}
		conn = w.NetConn()
	}
	sc, ok := conn.(syscall.Conn)
	if !ok {
		return false
	}
	rc, err := sc.SyscallConn()
	if err != nil {
		return false
	}
	n := 0
	if err := rc.Control(func(fd uintptr) {
		n, err = unix.IoctlGetInt(int(fd), unix.SIOCINQ)
	}); err != nil {
		return false
	}
	return err == nil && n > 0
}
