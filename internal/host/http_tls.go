package host

import (
	"context"
	"net"
	"net/url"
)

// tlsPeer names the peer of the request being sent, for the TLS config's
// verification (see tlsConfig): the host net/http's transport takes as the
// server name (the URL's, which a redirect changes: checkRedirect moves
// current before the next request is dialled), and the host and port the
// grants allowed.
func (x *exchange) tlsPeer() (name, addr string) {
	t := x.current
	name = unixHost
	if u, err := url.Parse(requestURL(t)); err == nil {
		name = u.Hostname()
	}
	return name, t.Addr()
}

// dialTLS dials an https request's peer (not through a proxy: the
// transport does that handshake itself) and runs the handshake with the
// peer held to MaxTLSHandshakeBytes until it ends, with the server name
// the transport would send (none for an IP address).
func (x *exchange) dialTLS(ctx context.Context, network, addr string) (net.Conn, error) {
	conn, err := x.dial(ctx, network, addr)
	if err != nil {
		return nil, err
	}
	name, peer := x.tlsPeer()
	config := x.c.tlsConfig(ctx, "", x.tlsPeer, x.insecure)
	if net.ParseIP(name) == nil {
		config.ServerName = name
	}
	tc, err := handshake(ctx, conn, config, peer)
	if err != nil {
		conn.Close()
		return nil, err
	}
	return tc, nil
}
