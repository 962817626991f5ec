package hostfuncs

import "errors"

// HTTP grants (ABI v2) are URL prefixes: "scheme://host[:port]/path-prefix"
// with the host and port written as dial grants write them ("*" for any
// port; a missing port is the scheme's default), or
// "unix:/socket/path[:/path-prefix]" for HTTP over a unix socket. A request
// is matched after it is normalised (ParseHTTPTarget), so that no spelling
// of a URL reaches further than the grant reads. docs/ABI.md states the
// rules with examples.

// HTTPTarget is a request URL as gate.http sends it, after normalisation.
type HTTPTarget struct {
	// Scheme is "http" or "https"; "http" for a unix socket.
	Scheme string
	// Host is the host in lower case without a trailing dot, an IPv6
	// address without brackets; "" for a unix socket.
	Host string
	// Port is the port, the scheme's default when the URL names none; 0
	// for a unix socket.
	Port uint16
	// Unix is the socket's path for "unix:/PATH:/REQUEST-PATH"; "" else.
	Unix string
	// Path is the request path, cleaned (no "." or ".." segments, no
	// empty ones but a trailing slash), starting with "/".
	Path string
	// RawQuery is the query as written, without the "?"; it may hold
	// ${secret:NAME} placeholders, which are substituted after the grants
	// are checked. No other part of a URL may hold one.
	RawQuery string
}

// ParseHTTPTarget parses and normalises a request URL. It refuses (with an
// error that says why) user info, fragments, a placeholder outside the
// query, schemes other than http, https and unix, and hosts that dial
// grants would refuse.
func ParseHTTPTarget(raw string) (HTTPTarget, error) {
	return HTTPTarget{}, errors.New("not implemented")
}

// String is the target as a URL: "https://api.example.com/v1/models?q=1"
// (the port only when it is not the default),
// "unix:/var/run/docker.sock:/_ping".
func (t HTTPTarget) String() string { return "" }

// AllowHTTP reports whether the target is granted.
func (p *Policy) AllowHTTP(t HTTPTarget) bool { return p != nil && p.http.match(t) }

// httpMatcher holds the http grants of one Policy.
type httpMatcher struct{}

func (m *httpMatcher) add(e string) error { return errors.New("not implemented") }

func (m *httpMatcher) match(t HTTPTarget) bool { return false }
