package host

import "net/url"

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
