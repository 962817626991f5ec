package probetest

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/netip"
	"os"
	"path"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// peerNet is one case's fake network: a loopback listener per peer, and
// the dial function the engine uses instead of a net.Dialer
// (runtime.EngineConfig.WithDialContext). gate.dial, gate.connect and
// gate.http reach it after the grants allowed the address, with the
// address as the host normalised it: ("tcp", "host:port") for host:port,
// tls: and http(s) URLs alike (the host speaks TLS over the connection
// itself), ("unix", "/path") for unix sockets.
type peerNet struct {
	peers   map[string]*livePeer // by dialKey
	secrets map[string]string

	mu       sync.Mutex
	closed   bool
	conns    map[net.Conn]struct{}
	failures []string
	wg       sync.WaitGroup
	// dialed counts the probe's connections to a listener, accepted those
	// the peers have taken: one dialed but not yet accepted when the run
	// ends still gets its script (settle waits for it).
	dialed, accepted int
}

// livePeer is a Peer behind a listener.
type livePeer struct {
	key  string // as the test wrote it
	peer Peer
	ln   net.Listener // nil for Refuse
	srv  *http.Server
}

// dialKey is how the dialer finds a peer: the network and the address in
// the host's normal form.
func dialKey(network, addr string) string {
	if network == "unix" {
		return "unix " + path.Clean(addr)
	}
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return "tcp " + addr
	}
	if ip, err := netip.ParseAddr(host); err == nil {
		return "tcp " + net.JoinHostPort(ip.Unmap().String(), port)
	}
	return "tcp " + net.JoinHostPort(strings.TrimSuffix(strings.ToLower(host), "."), port)
}

// peerTarget reads a Peers key: "host:port", "unix:/path", "tls:host:port",
// "http://host[:port]" or "https://host[:port]" (an origin: no path). It
// returns the dial key the host's connections will have, whether the peer
// speaks TLS, and the host name its certificate must name.
func peerTarget(key string) (dk string, useTLS bool, host string, err error) {
	if p, ok := strings.CutPrefix(key, "unix:"); ok {
		if !strings.HasPrefix(p, "/") {
			return "", false, "", errors.New("the socket path must be absolute")
		}
		return dialKey("unix", p), false, "", nil
	}
	addr := key
	for _, scheme := range []string{"http://", "https://"} {
		if rest, ok := strings.CutPrefix(key, scheme); ok {
			rest = strings.TrimSuffix(rest, "/")
			if strings.ContainsAny(rest, "/?#@") {
				return "", false, "", errors.New("an http(s) peer is an origin, scheme://host[:port], without a path")
			}
			useTLS = scheme == "https://"
			addr = rest
			if _, _, err := net.SplitHostPort(rest); err != nil {
				port := "80"
				if useTLS {
					port = "443"
				}
				addr = net.JoinHostPort(strings.Trim(rest, "[]"), port)
			}
		}
	}
	if rest, ok := strings.CutPrefix(key, "tls:"); ok {
		useTLS, addr = true, rest
	}
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return "", false, "", errors.New(`want "host:port", "unix:/path", "tls:host:port" or an http(s) origin`)
	}
	if n, err := strconv.Atoi(port); err != nil || n < 1 || n > 65535 {
		return "", false, "", fmt.Errorf("port %q: want a number from 1 to 65535", port)
	}
	host = strings.TrimSuffix(strings.ToLower(host), ".")
	if _, err := netip.ParseAddr(host); err != nil && !isHostName(host) {
		return "", false, "", fmt.Errorf("host %q: want a name or an IP address", host)
	}
	return dialKey("tcp", addr), useTLS, host, nil
}

// isHostName reports whether s could be a host name: letters, digits,
// '-', '_' and dots between non-empty labels. The host refuses more; a
// peer the host would refuse is merely never reached.
func isHostName(s string) bool {
	for label := range strings.SplitSeq(s, ".") {
		if label == "" {
			return false
		}
		for _, c := range label {
			if !('a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '-' || c == '_') {
				return false
			}
		}
	}
	return true
}

// newPeerNet starts a listener for each peer. ca makes the certificates
// of TLS peers; secrets are the case's, for Expect and Send.
func newPeerNet(peers map[string]Peer, secrets map[string]string, ca *testCA) (*peerNet, error) {
	n := &peerNet{peers: map[string]*livePeer{}, secrets: secrets, conns: map[net.Conn]struct{}{}}
	for key, p := range peers {
		dk, useTLS, host, err := peerTarget(key)
		if err != nil {
			n.close()
			return nil, fmt.Errorf("peer %q: %v", key, err)
		}
		if other, ok := n.peers[dk]; ok {
			n.close()
			a, b := min(key, other.key), max(key, other.key)
			return nil, fmt.Errorf("peers %q and %q are the same address", a, b)
		}
		lp := &livePeer{key: key, peer: p}
		n.peers[dk] = lp
		if p.kind == peerRefuse {
			continue
		}
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			n.close()
			return nil, fmt.Errorf("peer %q: %v", key, err)
		}
		if useTLS {
			cert, err := ca.leaf(host)
			if err != nil {
				ln.Close()
				n.close()
				return nil, fmt.Errorf("peer %q: %v", key, err)
			}
			ln = tls.NewListener(ln, &tls.Config{Certificates: []tls.Certificate{cert}})
		}
		lp.ln = ln
		n.serve(lp)
	}
	return n, nil
}

func (n *peerNet) serve(lp *livePeer) {
	if lp.peer.kind == peerHandler {
		lp.srv = &http.Server{
			Handler:  lp.peer.handler,
			ErrorLog: log.New(io.Discard, "", 0),
			ConnState: func(c net.Conn, s http.ConnState) {
				switch s {
				case http.StateNew:
					n.track(c, true)
				case http.StateClosed, http.StateHijacked:
					n.track(c, false)
				}
			},
		}
		n.wg.Go(func() { lp.srv.Serve(lp.ln) })
		return
	}
	n.wg.Go(func() {
		for {
			c, err := lp.ln.Accept()
			if err != nil {
				return
			}
			n.track(c, true)
			n.wg.Go(func() {
				defer n.track(c, false)
				defer c.Close()
				if msg := n.play(c, lp.peer.steps); msg != "" {
					n.fail(fmt.Sprintf("peer %s: %s", lp.key, msg))
				}
			})
		}
	})
}

// dial is the engine's DialContext: a connection to the peer's listener,
// or "connection refused" as the system would say it.
func (n *peerNet) dial(ctx context.Context, network, addr string) (net.Conn, error) {
	lp := n.peers[dialKey(network, addr)]
	if lp == nil || lp.ln == nil {
		return nil, &net.OpError{Op: "dial", Net: network, Addr: fakeAddr{network, addr},
			Err: os.NewSyscallError("connect", syscall.ECONNREFUSED)}
	}
	var d net.Dialer
	c, err := d.DialContext(ctx, "tcp", lp.ln.Addr().String())
	if err == nil {
		n.mu.Lock()
		n.dialed++
		n.mu.Unlock()
	}
	return c, err
}

type fakeAddr struct{ network, addr string }

func (a fakeAddr) Network() string { return a.network }
func (a fakeAddr) String() string  { return a.addr }

// play runs a script on one connection; it returns what went wrong, or "".
func (n *peerNet) play(c net.Conn, steps []Step) string {
	for i, s := range steps {
		switch s.op {
		case stepExpect:
			want := n.expand(s.text)
			if msg := expect(c, want); msg != "" {
				return fmt.Sprintf("step %d, %v: %s", i+1, s, n.redact(msg))
			}
		case stepSend:
			if _, err := io.WriteString(c, n.expand(s.text)); err != nil {
				return fmt.Sprintf("step %d, %v: %v", i+1, s, err)
			}
		case stepClose:
			closeWrite(c)
			io.Copy(io.Discard, c) // until the probe closes: a clean end, not a reset
			return ""
		case stepHang:
			io.Copy(io.Discard, c)
			return ""
		}
	}
	io.Copy(io.Discard, c)
	return ""
}

// expect reads exactly len(want) bytes and compares them, stopping at the
// first byte that differs so that a probe that sends something else is
// told at once rather than when the run ends.
func expect(c net.Conn, want string) string {
	got := make([]byte, 0, len(want))
	buf := make([]byte, len(want))
	for len(got) < len(want) {
		k, err := c.Read(buf[:len(want)-len(got)])
		got = append(got, buf[:k]...)
		if !strings.HasPrefix(want, string(got)) {
			// Show a little of what followed, to make the mismatch clear.
			c.SetReadDeadline(time.Now().Add(10 * time.Millisecond))
			more := make([]byte, 64)
			m, _ := c.Read(more)
			return fmt.Sprintf("received %q", append(got, more[:m]...))
		}
		if err != nil {
			if len(got) == 0 {
				return "the probe closed the connection without sending anything"
			}
			return fmt.Sprintf("the probe closed the connection after %q", got)
		}
	}
	return ""
}

func closeWrite(c net.Conn) {
	switch c := c.(type) {
	case *tls.Conn:
		c.CloseWrite()
	case *net.TCPConn:
		c.CloseWrite()
	}
}

// expand puts the case's secret values in place of their placeholders.
func (n *peerNet) expand(s string) string {
	for name, v := range n.secrets {
		s = strings.ReplaceAll(s, "${secret:"+name+"}", v)
	}
	return s
}

// redact is expand's inverse, for messages: a violation never prints a
// secret's value.
func (n *peerNet) redact(s string) string {
	for name, v := range n.secrets {
		if v != "" {
			s = strings.ReplaceAll(s, v, "${secret:"+name+"}")
		}
	}
	return s
}

func (n *peerNet) track(c net.Conn, open bool) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if open {
		n.accepted++
	}
	if open && n.closed {
		c.Close() // accepted as the case ended
	} else if open {
		n.conns[c] = struct{}{}
	} else {
		delete(n.conns, c)
	}
}

func (n *peerNet) fail(msg string) {
	n.mu.Lock()
	defer n.mu.Unlock()
	for _, f := range n.failures {
		if f == msg { // the reuse run meets the same peer; say it once
			return
		}
	}
	n.failures = append(n.failures, msg)
}

// settle waits for the peers to finish what the run left them: the host
// closes every handle when a run ends, so each connection's script meets
// the end of the stream and returns; a connection the probe made that no
// peer has accepted yet is waited for too, or its script would never
// run. A connection still open after grace
// (the host leaked it, or a handler hangs) is closed.
func (n *peerNet) settle(grace time.Duration) {
	deadline := time.Now().Add(grace)
	for {
		n.mu.Lock()
		open := len(n.conns) + max(n.dialed-n.accepted, 0)
		n.mu.Unlock()
		if open == 0 || time.Now().After(deadline) {
			break
		}
		time.Sleep(time.Millisecond)
	}
}

// close stops every listener and connection and waits for the peers'
// goroutines; then failures is final.
func (n *peerNet) close() []string {
	for _, lp := range n.peers {
		if lp.srv != nil {
			lp.srv.Close()
		} else if lp.ln != nil {
			lp.ln.Close()
		}
	}
	n.mu.Lock()
	n.closed = true
	for c := range n.conns {
		c.Close()
	}
	n.mu.Unlock()
	n.wg.Wait()
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.failures
}

// contains reports whether any of texts holds b; for the secret rule.
func contains(b string, texts ...string) bool {
	for _, t := range texts {
		if strings.Contains(t, b) {
			return true
		}
	}
	return false
}
