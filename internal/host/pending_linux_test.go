package host

import (
	"crypto/tls"
	"net"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// TestSocketPending: what a peer wrote and nobody read yet is seen through
// the host's own wrappers, plain and under TLS, and nothing is seen once
// it has been read.
func TestSocketPending(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	t.Cleanup(func() { ln.Close() })
	accepted := make(chan net.Conn, 1)
	go func() {
		c, err := ln.Accept()
		if err == nil {
			accepted <- c
		}
	}()
	raw, err := net.Dial("tcp", ln.Addr().String())
	require.NoError(t, err)
	t.Cleanup(func() { raw.Close() })
	peer := <-accepted
	t.Cleanup(func() { peer.Close() })

	for name, conn := range map[string]net.Conn{
		"socket":        raw,
		"slotConn":      &slotConn{Conn: raw},
		"tls.Conn":      tls.Client(raw, &tls.Config{}),
		"tls on a slot": tls.Client(&slotConn{Conn: raw}, &tls.Config{}),
	} {
		t.Run(name, func(t *testing.T) {
			require.False(t, socketPending(conn), "nothing was written")
			_, err := peer.Write([]byte("held"))
			require.NoError(t, err)
			require.Eventually(t, func() bool { return socketPending(conn) }, 10*time.Second, time.Millisecond,
				"bytes the peer wrote wait in the socket")
			buf := make([]byte, 4)
			_, err = raw.Read(buf)
			require.NoError(t, err)
			require.False(t, socketPending(conn), "what was read is no longer waiting")
		})
	}
}
