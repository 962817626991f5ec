package gateway

import (
	"net"
	"net/url"
	"strings"
)

// origin is a URL's scheme, host and port, lower-case, the port written
// out: what gate sends a url upstream (and the credentials that go with
// it) goes to its url's origin alone (credentials.go), and an HTTP+SSE
// server's endpoint must be on it (sselink.go).
type origin struct{ scheme, host, port string }

func originOf(u *url.URL) origin {
	o := origin{scheme: strings.ToLower(u.Scheme), host: strings.ToLower(u.Hostname()), port: u.Port()}
	if o.port == "" {
		switch o.scheme {
		case "http":
			o.port = "80"
		case "https":
			o.port = "443"
		}
	}
	return o
}

func (o origin) String() string { return o.scheme + "://" + net.JoinHostPort(o.host, o.port) }
