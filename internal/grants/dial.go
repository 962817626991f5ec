package grants

import (
	"errors"
	"fmt"
	"net"
	"net/netip"
	"slices"
	"strings"
)

// Dial grants are matched so that a pattern never reaches further than it
// reads: whatever name a pattern lets through to a resolver, the owner of
// that name can point anywhere, and whatever path it lets through, the
// kernel resolves after symlinks.
//
//   - "unix:/path": an absolute path without ".."; '*' never covers '/'.
//   - "host:port": port is a number or "*". Host is
//     "*" (any host: every name and address);
//     a host name, compared in lower case without a trailing dot, where
//     '*' covers part or all of one label but never a dot, so
//     "*.example.com" matches "a.example.com" and neither
//     "a.b.example.com" nor "example.com";
//     an IPv4 address or pattern ("10.0.0.5", "10.0.0.*", '*' for one
//     whole octet) or prefix ("10.0.0.0/24"), which match IP literals only
//     and never send a name to a resolver;
//     an IPv6 address or prefix in brackets ("[::1]", "[fd00::/8]"),
//     compared as addresses, not text.
//
// An IPv4-mapped IPv6 address is its IPv4 address, in grants and requests
// alike, so "[::ffff:10.0.0.5]" meets IPv4 grants only and an IPv6 prefix,
// even "[::/0]", never matches it.

// dialMatcher answers a request written exactly as an exact grant's
// canonical form (the common case: "localhost:5432" granted and asked for)
// with one map lookup and no parsing. Anything else is parsed, looked up
// in canonical form (one lookup, or two for a host granted on any port),
// and tried against the patterns.
//
// The exact grants are kept in slices, not maps: a probe holds its matcher
// for its life and is granted one or two addresses, for which a map took
// ten times the memory and was no quicker.
type dialMatcher struct {
	raw   nameSet    // canonical spelling of exact grants with a port
	exact []DialAddr // a few, so searched in order
	unix  []string   // socket path patterns
	hosts []hostPattern
}

// hostPattern is one host:port grant that is not exact. Exactly one of
// any, labels, v4mask (with v4) and prefix says what it matches.
type hostPattern struct {
	port   uint16   // 0: any port
	any    bool     // every host
	labels []string // a host-name pattern, one entry per label
	v4     bool     // an IPv4 pattern: ip&v4mask == v4want
	v4mask uint32
	v4want uint32
	prefix netip.Prefix // an address prefix, IPv4 or IPv6
}

// seal sorts the exact grants and drops their spare capacity, once every
// grant is added: a matcher lives as long as its Policy. nil is a no-op.
func (m *dialMatcher) seal() {
	if m != nil {
		m.raw = m.raw.sealed()
		m.exact = slices.Clip(m.exact)
	}
}

// rawHas reports whether addr is an exact grant as spelled.
func (m *dialMatcher) rawHas(addr string) bool { return m != nil && m.raw.has(addr) }

func (m *dialMatcher) match(a DialAddr) bool {
	if m == nil {
		return false
	}
	if slices.Contains(m.exact, a) {
		return true
	}
	if a.unix {
		for _, g := range m.unix {
			if globMatchStop(g, a.name, '/') {
				return true
			}
		}
		return false
	}
	anyPort := a
	anyPort.port = 0
	if slices.Contains(m.exact, anyPort) {
		return true
	}
	for i := range m.hosts {
		if m.hosts[i].match(a) {
			return true
		}
	}
	return false
}

func (h *hostPattern) match(a DialAddr) bool {
	switch {
	case h.port != 0 && h.port != a.port:
		return false
	case h.any:
		return true
	case h.labels != nil:
		return a.name != "" && matchLabels(h.labels, a.name)
	case h.v4:
		if !a.ip.Is4() {
			return false
		}
		b := a.ip.As4()
		ip := uint32(b[0])<<24 | uint32(b[1])<<16 | uint32(b[2])<<8 | uint32(b[3])
		return ip&h.v4mask == h.v4want
	default:
		return h.prefix.Contains(a.ip)
	}
}

// matchLabels matches name label by label: the same number of labels, each
// matching its pattern.
func matchLabels(pattern []string, name string) bool {
	for i, p := range pattern {
		label := name
		if i < len(pattern)-1 {
			dot := strings.IndexByte(name, '.')
			if dot < 0 {
				return false
			}
			label, name = name[:dot], name[dot+1:]
		} else if strings.IndexByte(name, '.') >= 0 {
			return false
		}
		if !globMatch(p, label) {
			return false
		}
	}
	return true
}

func (m *dialMatcher) add(e string) error {
	if e == "" {
		return errors.New("empty address")
	}
	if p, ok := strings.CutPrefix(e, "unix:"); ok {
		p, err := cleanSocketPath(p)
		if err != nil {
			return err
		}
		if strings.Contains(p, "*") {
			m.unix = append(m.unix, p)
		} else {
			m.exact = append(m.exact, DialAddr{unix: true, name: p})
			m.raw = append(m.raw, "unix:"+p)
		}
		return nil
	}
	host, port, err := net.SplitHostPort(e)
	if err != nil {
		return errors.New("want host:port or unix:/path")
	}
	if host == "" {
		return fmt.Errorf("empty host (write \"*:%s\" to allow any host)", port)
	}
	if port == "" {
		return fmt.Errorf("empty port (write %q to allow any port)", net.JoinHostPort(host, "*"))
	}
	var n uint16
	if port != "*" {
		var ok bool
		if n, ok = parsePort(port); !ok {
			return fmt.Errorf("port %q: want a number from 1 to 65535, or *", port)
		}
	}
	h, exact, err := compileHost(host, e[0] == '[')
	if err != nil {
		return err
	}
	if exact.name != "" || exact.ip.IsValid() {
		exact.port = n
		m.exact = append(m.exact, exact)
		if n != 0 {
			_, canonical := exact.target()
			m.raw = append(m.raw, canonical)
		}
		return nil
	}
	h.port = n
	m.hosts = append(m.hosts, h)
	return nil
}

// compileHost reads the host part of a grant: an exact name or address
// (returned as a DialAddr without port) or a pattern.
func compileHost(host string, bracketed bool) (hostPattern, DialAddr, error) {
	if host == "*." {
		host = "*" // as "db." is "db"
	}
	switch {
	case host == "*":
		return hostPattern{any: true}, DialAddr{}, nil
	case strings.Contains(host, "/"):
		p, err := compilePrefix(host, bracketed)
		return hostPattern{prefix: p}, DialAddr{}, err
	case bracketed:
		ip, err := netip.ParseAddr(host)
		if err != nil || !ip.Is6() {
			return hostPattern{}, DialAddr{}, fmt.Errorf("[%s]: want an IPv6 address or prefix in brackets, like [::1] or [fd00::/8] (no *)", host)
		}
		return hostPattern{}, DialAddr{ip: ip.Unmap()}, nil
	}
	if ip, ok := parseIPLiteral(host); ok {
		if ip.Is6() {
			return hostPattern{}, DialAddr{}, fmt.Errorf("write an IPv6 address in brackets: [%s]", host)
		}
		return hostPattern{}, DialAddr{ip: ip}, nil
	}
	if strings.Trim(host, "0123456789.*") == "" && strings.ContainsAny(host, "0123456789") {
		mask, want, err := compileV4Pattern(host)
		return hostPattern{v4: true, v4mask: mask, v4want: want}, DialAddr{}, err
	}
	name, err := hostName(host, true)
	if err != nil {
		return hostPattern{}, DialAddr{}, err
	}
	if !strings.Contains(name, "*") {
		return hostPattern{}, DialAddr{name: name}, nil
	}
	return hostPattern{labels: strings.Split(name, ".")}, DialAddr{}, nil
}

// compilePrefix reads "10.0.0.0/24" or, from brackets, "fd00::/8". A
// prefix with host bits set is refused rather than masked: "10.0.0.5/24"
// more likely means a typo than 10.0.0.0/24. IPv4-mapped prefixes become
// IPv4 prefixes, as mapped addresses become IPv4 addresses.
func compilePrefix(host string, bracketed bool) (netip.Prefix, error) {
	p, err := netip.ParsePrefix(host)
	if err != nil {
		return netip.Prefix{}, fmt.Errorf("prefix %q: want an address/bits prefix like 10.0.0.0/24 or [fd00::/8]", host)
	}
	if bracketed != p.Addr().Is6() {
		return netip.Prefix{}, fmt.Errorf("prefix %q: IPv6 prefixes go in brackets, IPv4 ones do not", host)
	}
	if p.Masked() != p {
		return netip.Prefix{}, fmt.Errorf("prefix %q has host bits set: write %s", host, p.Masked())
	}
	if p.Addr().Is4In6() && p.Bits() >= 96 {
		p = netip.PrefixFrom(p.Addr().Unmap(), p.Bits()-96)
	}
	return p, nil
}

// compileV4Pattern reads an IPv4 pattern such as "10.0.0.*" or "10.*.0.1":
// four octets, each a number from 0 to 255 or '*' for any.
func compileV4Pattern(host string) (mask, want uint32, err error) {
	octets := strings.Split(host, ".")
	if len(octets) != 4 {
		return 0, 0, fmt.Errorf("%q: an IPv4 pattern has four octets, each 0-255 or *", host)
	}
	for _, o := range octets {
		mask, want = mask<<8, want<<8
		if o == "*" {
			continue
		}
		n, ok := parsePort(o) // 1-65535 in decimal; 0 is handled below
		if o == "0" {
			n, ok = 0, true
		}
		if !ok || n > 255 || o[0] == '0' && o != "0" {
			return 0, 0, fmt.Errorf("%q: an IPv4 pattern has four octets, each 0-255 or * (%q is neither)", host, o)
		}
		mask |= 0xff
		want |= uint32(n)
	}
	return mask, want, nil
}

// Verdict is what a grant check answers of an address.
type Verdict int8

const (
	// Granted: a grant matches.
	Granted Verdict = iota
	// Denied: the address is well formed and no grant matches it.
	Denied
	// Malformed: the address is not well formed.
	Malformed
)

// CheckDial is the whole grant check of gate.dial: Malformed for an
// address that is not well formed, Denied for one no grant matches, and
// otherwise Granted with the network and address to dial, which are the
// cleaned form that the grants matched (so that what is dialled is what
// was granted, byte for byte).
func (p *Policy) CheckDial(addr string) (network, target string, v Verdict) {
	if p != nil && p.dial.rawHas(addr) {
		if path, ok := strings.CutPrefix(addr, "unix:"); ok {
			return "unix", path, Granted
		}
		return "tcp", addr, Granted
	}
	a, err := ParseDialAddr(addr)
	if err != nil {
		return "", "", Malformed
	}
	if p == nil || !p.dial.match(a) {
		return "", "", Denied
	}
	network, target = a.target()
	return network, target, Granted
}
