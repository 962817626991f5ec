package grants

import (
	"errors"
	"fmt"
	"net"
	"strconv"
	"strings"
)

// HTTP grants (ABI v2) are URL prefixes: "scheme://host[:port]/path-prefix"
// with the host and port written as dial grants write them ("*" for any
// port; a missing port is the scheme's default), or
// "unix:/socket/path[:/path-prefix]" for HTTP over a unix socket. A request
// is matched after it is normalised (ParseHTTPTarget), so that no spelling
// of a URL reaches further than the grant reads. docs/ABI.md states the
// rules with examples.
//
// Hosts, ports and socket paths are matched by the dial grant machinery
// (dialMatcher, ParseDialAddr), so that an http grant and a dial grant for
// the same host read the same way: names label by label, IPv4 patterns
// never match names, IPv6 compared as addresses, "127.1" refused.

// HTTPTarget is a request URL as gate.http sends it, after normalisation.
// What the host sends (String, Addr) is what the grants matched, byte for
// byte, so a target the grants allowed cannot reach another path or host
// on the wire.
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
//
// Normalising means: scheme and host in lower case, a trailing dot of the
// host dropped, the scheme's default port filled in (80 or 443), escapes
// of unreserved characters ("%41", "%2e") decoded and other escapes in
// upper case, characters that have no business raw in a path ("|", "{")
// escaped, and ".", ".." and empty segments resolved, keeping a trailing
// slash. Escaped "/", "\" and NUL are refused rather than kept: servers
// differ on whether "%2F" is a "/", so one spelling could reach a path
// that another is not granted.
func ParseHTTPTarget(raw string) (HTTPTarget, error) {
	t, _, err := parseHTTPTarget(raw)
	return t, err
}

// parseHTTPTarget is ParseHTTPTarget that also returns the address the
// dial grants compare.
func parseHTTPTarget(raw string) (HTTPTarget, DialAddr, error) {
	if raw == "" {
		return HTTPTarget{}, DialAddr{}, errors.New("empty URL")
	}
	if err := checkURLBytes(raw); err != nil {
		return HTTPTarget{}, DialAddr{}, err
	}
	if strings.IndexByte(raw, '#') >= 0 {
		return HTTPTarget{}, DialAddr{}, errors.New("a URL sent to a server has no fragment (#)")
	}
	head, query, _ := strings.Cut(raw, "?")
	if strings.Contains(head, "${") {
		return HTTPTarget{}, DialAddr{}, errors.New("a ${secret:NAME} placeholder may appear only in the query: the grants are checked against the URL as written")
	}
	u, err := splitHTTPHead(head, false)
	if err != nil {
		return HTTPTarget{}, DialAddr{}, err
	}
	t := HTTPTarget{Scheme: u.scheme, Path: u.path, RawQuery: query}
	if u.scheme == "unix" {
		t.Scheme, t.Unix = "http", u.unix
		return t, DialAddr{unix: true, name: u.unix}, nil
	}
	a, err := ParseDialAddr(u.hostport)
	if err != nil {
		return HTTPTarget{}, DialAddr{}, err
	}
	t.Port = a.port
	if a.ip.IsValid() {
		t.Host = a.ip.String()
	} else {
		t.Host = a.name
	}
	return t, a, nil
}

// urlHead is what comes before a URL's query, split but not yet matched.
type urlHead struct {
	scheme   string // "http", "https" or "unix", in lower case
	hostport string // "host:port" as the URL spells the host, the port filled in
	unix     string // the cleaned socket path
	path     string // the cleaned path; "" in a grant that names none
}

// splitHTTPHead reads what comes before the query: the scheme, the host
// and port or socket, and the path. The host is left for the dial rules
// to read (ParseDialAddr for a request, dialMatcher.add for a grant). In
// a grant (grant set) the path may be missing, and '*' in it is refused.
func splitHTTPHead(head string, grant bool) (urlHead, error) {
	colon := strings.IndexByte(head, ':')
	if colon <= 0 {
		return urlHead{}, errors.New("want http://host/path, https://host/path or unix:/socket:/path")
	}
	u := urlHead{scheme: strings.ToLower(head[:colon])}
	rest := head[colon+1:]
	var err error
	switch u.scheme {
	case "unix":
		// The socket path ends at the first ':', so it may hold none.
		sock, path, hasPath := strings.Cut(rest, ":")
		if !hasPath && !grant {
			return urlHead{}, errors.New("want unix:/path/to.sock:/request/path")
		}
		if hasPath && !strings.HasPrefix(path, "/") {
			return urlHead{}, errors.New("want unix:/path/to.sock:/request/path (a socket path may not hold \":\")")
		}
		if u.unix, err = cleanSocketPath(sock); err != nil {
			return urlHead{}, err
		}
		if hasPath {
			u.path, err = cleanHTTPPath(path, grant)
		}
		return u, err
	case "http", "https":
	default:
		return urlHead{}, fmt.Errorf("scheme %q: want http, https or unix", head[:colon])
	}
	rest, ok := strings.CutPrefix(rest, "//")
	if !ok {
		return urlHead{}, fmt.Errorf("want %s://host/path", u.scheme)
	}
	// The authority ends at the first '/' after any brackets, which in a
	// grant may hold an IPv6 prefix: "[fd00::/8]".
	from := 0
	if strings.HasPrefix(rest, "[") {
		from = max(strings.IndexByte(rest, ']'), 0)
	}
	authority, path := rest, ""
	if slash := strings.IndexByte(rest[from:], '/'); slash >= 0 {
		authority, path = rest[:from+slash], rest[from+slash:]
	}
	if strings.IndexByte(authority, '@') >= 0 {
		return urlHead{}, errors.New("user info (user@host) is not allowed: send credentials in a header, from a secret")
	}
	if strings.IndexByte(authority, '%') >= 0 {
		return urlHead{}, fmt.Errorf("host %q: no percent-encoding or IPv6 zones in a host", authority)
	}
	host, port, err := splitAuthority(authority)
	if err != nil {
		return urlHead{}, err
	}
	if port == "" {
		port = "80"
		if u.scheme == "https" {
			port = "443"
		}
	}
	u.hostport = host + ":" + port
	if path != "" || !grant {
		u.path, err = cleanHTTPPath(path, grant)
	}
	return u, err
}

// splitAuthority splits "host", "host:port", "[v6]" or "[v6]:port"; the
// brackets stay on host so that the dial rules can see them.
func splitAuthority(authority string) (host, port string, err error) {
	if authority == "" {
		return "", "", errors.New("empty host")
	}
	host = authority
	if authority[0] == '[' {
		end := strings.IndexByte(authority, ']')
		if end < 0 {
			return "", "", fmt.Errorf("host %q: missing ]", authority)
		}
		host, port = authority[:end+1], authority[end+1:]
		if port != "" && port[0] != ':' {
			return "", "", fmt.Errorf("host %q: want [ipv6] or [ipv6]:port", authority)
		}
	} else if i := strings.LastIndexByte(authority, ':'); i >= 0 {
		host, port = authority[:i], authority[i:]
		if strings.IndexByte(host, ':') >= 0 {
			return "", "", fmt.Errorf("host %q: write an IPv6 address in brackets", authority)
		}
	}
	if port != "" {
		if port = port[1:]; port == "" {
			return "", "", fmt.Errorf("host %q: empty port after \":\"", authority)
		}
	}
	if host == "" || host == "[]" {
		return "", "", errors.New("empty host")
	}
	return host, port, nil
}

// checkURLBytes refuses what no URL on a request line may hold raw.
func checkURLBytes(raw string) error {
	for i := 0; i < len(raw); i++ {
		switch c := raw[i]; {
		case c == ' ':
			return errors.New("a URL holds no spaces (write %20)")
		case c < 0x20 || c == 0x7f:
			return fmt.Errorf("a URL holds no control characters (byte 0x%02x)", c)
		case c >= 0x80:
			return fmt.Errorf("a URL holds ASCII only (byte 0x%02x; percent-encode it)", c)
		case c == '\\':
			return errors.New("a URL holds no \\ (some servers read it as /)")
		}
	}
	return nil
}

// cleanHTTPPath normalises a request path: escapes of unreserved
// characters decoded and others in upper case, characters that are not
// allowed raw escaped, then ".", ".." and empty segments resolved, with a
// trailing slash kept. ".." never climbs above "/". An empty path is "/".
// In a grant, '*' is refused: prefixes are not patterns.
func cleanHTTPPath(p string, grant bool) (string, error) {
	if p == "" {
		return "/", nil
	}
	if p[0] != '/' {
		return "", fmt.Errorf("path %q: want a path starting with /", p)
	}
	var b strings.Builder
	b.Grow(len(p))
	for i := 0; i < len(p); i++ {
		c := p[i]
		switch {
		case c == '%':
			if i+2 >= len(p) || unhex(p[i+1]) < 0 || unhex(p[i+2]) < 0 {
				return "", fmt.Errorf("path %q: %% starts a two-digit hex escape", p)
			}
			d := byte(unhex(p[i+1])<<4 | unhex(p[i+2]))
			i += 2
			switch {
			case d == '/', d == '\\', d == 0:
				return "", fmt.Errorf("path %q: an escaped %q is refused: servers differ on whether it is one, so one spelling could reach a path that another is not granted", p, rune(d))
			case unreserved(d):
				b.WriteByte(d)
			default:
				b.WriteByte('%')
				b.WriteByte(upperHex[d>>4])
				b.WriteByte(upperHex[d&15])
			}
		case c == '*' && grant:
			return "", fmt.Errorf("path %q: an http grant's path is a prefix, not a pattern (no *)", p)
		case c == '/' || unreserved(c) || strings.IndexByte("!$&'()*+,;=:@", c) >= 0:
			b.WriteByte(c)
		default:
			b.WriteByte('%')
			b.WriteByte(upperHex[c>>4])
			b.WriteByte(upperHex[c&15])
		}
	}
	return resolveDots(b.String()), nil
}

const upperHex = "0123456789ABCDEF"

func unreserved(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' ||
		c == '-' || c == '.' || c == '_' || c == '~'
}

func unhex(c byte) int {
	switch {
	case '0' <= c && c <= '9':
		return int(c - '0')
	case 'a' <= c && c <= 'f':
		return int(c-'a') + 10
	case 'A' <= c && c <= 'F':
		return int(c-'A') + 10
	}
	return -1
}

// resolveDots drops empty and "." segments and resolves ".." (RFC 3986
// 5.2.4, with empty segments dropped too), keeping a trailing slash, which
// a path ending in "/", "/." or "/.." has.
func resolveDots(p string) string {
	segs := strings.Split(p[1:], "/")
	out := segs[:0]
	trailing := false
	for _, s := range segs {
		switch s {
		case "", ".":
			trailing = true
		case "..":
			if len(out) > 0 {
				out = out[:len(out)-1]
			}
			trailing = true
		default:
			out = append(out, s)
			trailing = false
		}
	}
	if len(out) == 0 {
		return "/"
	}
	clean := "/" + strings.Join(out, "/")
	if trailing {
		clean += "/"
	}
	return clean
}

// String is the target as a URL: "https://api.example.com/v1/models?q=1"
// (the port only when it is not the default),
// "unix:/var/run/docker.sock:/_ping".
func (t HTTPTarget) String() string {
	var b strings.Builder
	if t.Unix != "" {
		b.WriteString("unix:")
		b.WriteString(t.Unix)
		b.WriteByte(':')
	} else {
		b.WriteString(t.Scheme)
		b.WriteString("://")
		if strings.IndexByte(t.Host, ':') >= 0 {
			b.WriteByte('[')
			b.WriteString(t.Host)
			b.WriteByte(']')
		} else {
			b.WriteString(t.Host)
		}
		if !(t.Scheme == "http" && t.Port == 80 || t.Scheme == "https" && t.Port == 443) {
			b.WriteByte(':')
			b.WriteString(strconv.Itoa(int(t.Port)))
		}
	}
	b.WriteString(t.Path)
	if t.RawQuery != "" {
		b.WriteByte('?')
		b.WriteString(t.RawQuery)
	}
	return b.String()
}

// Addr is the address to connect to, as gate.dial and the dial and
// insecure grants write it: "host:port", "[::1]:8080" or "unix:/path".
func (t HTTPTarget) Addr() string {
	if t.Unix != "" {
		return "unix:" + t.Unix
	}
	return net.JoinHostPort(t.Host, strconv.Itoa(int(t.Port)))
}

// AllowHTTP reports whether the target is granted. A target that is not
// in normal form (as ParseHTTPTarget returns it) is never granted, so that
// one assembled by hand cannot carry "/v1/../admin" past a "/v1/" grant.
func (p *Policy) AllowHTTP(t HTTPTarget) bool {
	return p != nil && p.v2 != nil && p.v2.http.match(t)
}

// httpMatcher holds the http grants of one Policy.
type httpMatcher struct {
	grants []httpGrant
}

// httpGrant is one http grant: the scheme, the host and port (or socket)
// as a one-entry dial matcher, and the path prefix ("" for every path).
type httpGrant struct {
	scheme string // "http", "https" or "unix"
	addr   dialMatcher
	prefix string
}

func (m *httpMatcher) add(e string) error {
	if e == "" {
		return errors.New("empty URL prefix")
	}
	if err := checkURLBytes(e); err != nil {
		return err
	}
	switch {
	case strings.IndexByte(e, '#') >= 0:
		return errors.New("a grant has no fragment (#)")
	case strings.IndexByte(e, '?') >= 0:
		return errors.New("a grant matches scheme, host, port and path; it has no query")
	case strings.Contains(e, "${"):
		return errors.New("a grant holds no ${...} placeholders")
	}
	u, err := splitHTTPHead(e, true)
	if err != nil {
		return err
	}
	g := httpGrant{scheme: u.scheme, prefix: u.path}
	addr := u.hostport
	if u.scheme == "unix" {
		addr = "unix:" + u.unix
	}
	if err := g.addr.add(addr); err != nil {
		return err
	}
	m.grants = append(m.grants, g)
	return nil
}

func (m *httpMatcher) match(t HTTPTarget) bool {
	if m == nil {
		return false
	}
	// Matched in normal form only: the target must be what parsing its own
	// URL gives, or a hand-made one could hold what parsing refuses.
	n, a, err := parseHTTPTarget(t.String())
	if err != nil || n != t {
		return false
	}
	scheme := t.Scheme
	if a.unix {
		scheme = "unix"
	}
	for i := range m.grants {
		g := &m.grants[i]
		if g.scheme == scheme && g.addr.match(a) && pathHasPrefix(t.Path, g.prefix) {
			return true
		}
	}
	return false
}

// pathHasPrefix reports whether path is under prefix by whole segments:
// "/v1" covers "/v1" and "/v1/x", not "/v1x"; "/v1/" covers "/v1/x", not
// "/v1". The empty prefix covers everything.
func pathHasPrefix(path, prefix string) bool {
	if prefix == "" || prefix == "/" {
		return true
	}
	if !strings.HasPrefix(path, prefix) {
		return false
	}
	return prefix[len(prefix)-1] == '/' || len(path) == len(prefix) || path[len(prefix)] == '/'
}

// WithoutQuery is the target as String writes it, without its query: what
// a denial names, since a query may hold a value a peer reflected.
func (t HTTPTarget) WithoutQuery() string {
	t.RawQuery = ""
	return t.String()
}
