package uplink

import (
	"net"
	"net/url"
	"strings"
)

// Origin is a URL's scheme, host and port, lower-case, the port written
// out: what gate sends a url upstream (and the credentials that go with
// it) goes to its url's origin alone (the gateway's credentials), and an HTTP+SSE
// server's endpoint must be on it (sselink.go).
type Origin struct{ scheme, host, port string }

// OriginOf is u's origin.
func OriginOf(u *url.URL) Origin {
	o := Origin{scheme: strings.ToLower(u.Scheme), host: strings.ToLower(u.Hostname()), port: u.Port()}
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

func (o Origin) String() string { return o.scheme + "://" + net.JoinHostPort(o.host, o.port) }
