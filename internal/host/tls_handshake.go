package host

import (
	"context"
	"crypto/tls"
	"net"
	"strconv"
)

// MaxTLSHandshakeBytes bounds what a probe's TLS peer may send before the
// handshake ends. crypto/tls parses every certificate of the peer's
// Certificate message (it takes up to 256 KiB of them) before any hook of
// gate's sees one, and an HTTP transport does it on a goroutine of its own,
// charged to no run; a chain within checkChainCost's bounds is a few KiB.
const MaxTLSHandshakeBytes = 64 << 10

// handshakeConn is a connection whose reads are capped at
// MaxTLSHandshakeBytes until lift: the handshake, which reads on one
// goroutine, then lifts it before the connection is used by anyone else.
type handshakeConn struct {
	net.Conn
	addr   string
	read   int
	lifted bool
}

func (c *handshakeConn) Read(p []byte) (int, error) {
	if c.lifted {
		return c.Conn.Read(p)
	}
	left := MaxTLSHandshakeBytes - c.read
	if left <= 0 {
		return 0, &costlyChainError{c.addr, "the peer sent over " + strconv.Itoa(MaxTLSHandshakeBytes>>10) + " KiB before its handshake ended"}
	}
	if len(p) > left {
		p = p[:left]
	}
	n, err := c.Conn.Read(p)
	c.read += n
	return n, err
}

// handshake runs a TLS client handshake on conn with config, the peer
// held to MaxTLSHandshakeBytes until it ends; past it the handshake fails
// with a costlyChainError naming addr.
func handshake(ctx context.Context, conn net.Conn, config *tls.Config, addr string) (*tls.Conn, error) {
	hc := &handshakeConn{Conn: conn, addr: addr}
	tc := tls.Client(hc, config)
	if err := tc.HandshakeContext(ctx); err != nil {
		return nil, err
	}
	hc.lifted = true
	return tc, nil
}
