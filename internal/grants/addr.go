package grants

import (
	"errors"
	"fmt"
	"net"
	"net/netip"
	"path"
	"strconv"
	"strings"
)

// DialAddr is a dial address in the one spelling that grants compare, so
// that "[0:0::1]:80" and "[::1]:80", or "DB.:80" and "db:80", are the same
// request. It is comparable: exact grants are map keys.
type DialAddr struct {
	unix bool
	// name is the cleaned socket path, or the lower-case host name without
	// a trailing dot; "" for an IP literal.
	name string
	// ip is the IP literal, IPv4-mapped IPv6 unmapped: "[::ffff:10.0.0.5]"
	// is 10.0.0.5 to every grant, as it is to the network.
	ip   netip.Addr
	port uint16 // in a grant, 0 means any port
}

// target is the address to dial: what the grants matched, not what the
// probe wrote.
func (a DialAddr) target() (network, addr string) {
	switch {
	case a.unix:
		return "unix", a.name
	case a.ip.IsValid():
		return "tcp", netip.AddrPortFrom(a.ip, a.port).String()
	default:
		return "tcp", net.JoinHostPort(a.name, strconv.Itoa(int(a.port)))
	}
}

// ParseDialAddr reads a probe's address: "unix:/path", "host:port" or
// "[ipv6]:port". It refuses, rather than guesses at, anything a resolver
// could read two ways: ".." in a path, a host name with an empty label, a
// name that getaddrinfo would take for a number ("10.5", "0x7f000001"),
// brackets around something that is not IPv6. A well-formed address
// allocates only when a host name has upper case to fold.
func ParseDialAddr(addr string) (DialAddr, error) {
	if p, ok := strings.CutPrefix(addr, "unix:"); ok {
		p, err := cleanSocketPath(p)
		return DialAddr{unix: true, name: p}, err
	}
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return DialAddr{}, errors.New("want host:port or unix:/path")
	}
	n, ok := parsePort(port)
	if !ok {
		return DialAddr{}, fmt.Errorf("port %q: want a number from 1 to 65535", port)
	}
	bracketed := addr[0] == '['
	if ip, ok := parseIPLiteral(host); ok {
		if bracketed != ip.Is6() {
			return DialAddr{}, errors.New("brackets go around IPv6 addresses and nothing else")
		}
		return DialAddr{ip: ip.Unmap(), port: n}, nil
	}
	if bracketed {
		return DialAddr{}, fmt.Errorf("%q is not an IPv6 address", host)
	}
	name, err := hostName(host, false)
	return DialAddr{name: name, port: n}, err
}

// parseIPLiteral parses host as an IP address. It does not call
// netip.ParseAddr on what cannot be one, because its error allocates and
// host names are the common case.
func parseIPLiteral(host string) (netip.Addr, bool) {
	if !strings.ContainsRune(host, ':') && strings.Trim(host, "0123456789.") != "" {
		return netip.Addr{}, false
	}
	ip, err := netip.ParseAddr(host)
	return ip, err == nil
}

// parsePort reads a decimal port from 1 to 65535.
func parsePort(s string) (uint16, bool) {
	if s == "" {
		return 0, false
	}
	n := 0
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, false
		}
		if n = n*10 + int(s[i]-'0'); n > 65535 {
			return 0, false
		}
	}
	return uint16(n), n > 0
}

// cleanSocketPath checks a unix socket path and returns it cleaned, so
// that "/run//app/./x.sock" meets the grant "/run/app/x.sock". ".." is
// refused anywhere rather than cleaned away: the kernel resolves it after
// symlinks, where path.Clean cannot follow.
func cleanSocketPath(p string) (string, error) {
	switch {
	case p == "":
		return "", errors.New("unix: needs a socket path")
	case p[0] != '/':
		return "", errors.New("the socket path must be absolute")
	case strings.Contains(p, ".."):
		return "", errDotDot
	case strings.IndexByte(p, 0) >= 0:
		return "", errNUL
	}
	return path.Clean(p), nil
}

// hostName checks a host name (a pattern, when pattern is set, with '*' in
// its labels) and returns it in lower case without a trailing dot. Labels
// are 1 to 63 of [A-Za-z0-9_-]; the name is at most 253 bytes.
//
// A name whose last label is all digits is refused: no top-level domain
// is, and resolvers take such names for IPv4 addresses in the forms
// inet_aton accepts ("10.5", "167772165", "10.0.0.010" in octal), which
// grants could not reason about. For the same reason a request made only
// of inet_aton numbers ("0x7f.0.0.1", "0x7f000001") is refused.
func hostName(host string, pattern bool) (string, error) {
	if len(host) > 1 && host[len(host)-1] == '.' {
		host = host[:len(host)-1]
	}
	if host == "" || len(host) > 253 {
		return "", errors.New("a host name has 1 to 253 characters")
	}
	numeric := true // every label so far is an inet_aton number
	lastDigits := false
	for rest := host; rest != ""; {
		label := rest
		if dot := strings.IndexByte(rest, '.'); dot >= 0 {
			label, rest = rest[:dot], rest[dot+1:]
			if rest == "" {
				label = "" // "a." was trimmed above; "a.." leaves an empty label
			}
		} else {
			rest = ""
		}
		if label == "" || len(label) > 63 {
			return "", fmt.Errorf("host %q: labels have 1 to 63 characters", host)
		}
		digits := true
		for i := 0; i < len(label); i++ {
			c := label[i]
			switch {
			case '0' <= c && c <= '9':
			case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', c == '-', c == '_', c == '*' && pattern:
				digits = false
			default:
				return "", fmt.Errorf("host %q: %q is not allowed in a host name", host, c)
			}
		}
		numeric = numeric && (digits || isHexNumber(label))
		lastDigits = digits
	}
	if lastDigits || numeric && !pattern {
		return "", fmt.Errorf("host %q is neither an IP address nor a host name", host)
	}
	return strings.ToLower(host), nil
}

// isHexNumber reports whether label is a number in C hex notation.
func isHexNumber(label string) bool {
	if len(label) < 2 || label[0] != '0' || label[1] != 'x' && label[1] != 'X' {
		return false
	}
	return strings.Trim(label[2:], "0123456789abcdefABCDEF") == ""
}
