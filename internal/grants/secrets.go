package grants

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"
)

// A secret grant names a variable the probe may send but never read, and
// the destinations it may be sent to, as a browser binds a cookie to its
// origin: a placeholder bound for anywhere else is refused before anything
// is sent. Redaction of what comes back is a second line only (a peer that
// computes on a value gets past any exact match); the first is that a
// value reaches nobody the manifest's author did not name.
//
// A destination is written as a grant is:
//
//   - "host:port" (a dial grant, patterns and all): streams to that
//     address, plain or "tls:";
//   - "tls:host:port": TLS streams to that address only, so the value
//     never travels in clear;
//   - "unix:/path": streams to that socket, and HTTP over it;
//   - an http grant ("https://host[:port]/prefix", "http://...",
//     "unix:/sock:/prefix"): gate.http requests whose URL it matches.
//
// A destination grants no connection by itself: the dial and http grants
// still decide what the probe may reach.

// MaxSecretGrants is how many secrets one probe may be granted: a run
// tracks which it has sent in one 64-bit set.
const MaxSecretGrants = 64

// secretGrant is one secret and where it may go.
type secretGrant struct {
	name    string
	streams *dialMatcher // host:port and unix:/path: plain or TLS streams
	tls     *dialMatcher // tls:host:port: TLS streams only
	http    *httpMatcher // http grants and unix:/path: gate.http requests
}

// compileSecrets checks the secrets grants and returns them sorted by name.
func compileSecrets(m map[string][]string) ([]secretGrant, error) {
	if len(m) > MaxSecretGrants {
		return nil, fmt.Errorf("%d secrets granted; at most %d", len(m), MaxSecretGrants)
	}
	out := make([]secretGrant, 0, len(m))
	for _, name := range slices.Sorted(maps.Keys(m)) {
		if err := checkSecretGrant(name); err != nil {
			return nil, fmt.Errorf("secret grant %q: %w", name, err)
		}
		dests := m[name]
		if len(dests) == 0 {
			return nil, fmt.Errorf("secret grant %q: no destination: name where it may be sent, as dial and http grants are written (\"127.0.0.1:6379\", \"https://api.example.com/v1/\")", name)
		}
		g := secretGrant{name: name}
		for _, d := range dests {
			if err := g.add(d); err != nil {
				return nil, fmt.Errorf("secret grant %q: destination %q: %w", name, d, err)
			}
		}
		g.seal()
		out = append(out, g)
	}
	return out, nil
}

// add reads one destination (see the package comment above).
func (g *secretGrant) add(d string) error {
	switch {
	case d == "":
		return errors.New("empty destination")
	case strings.Contains(d, "://"):
		return addTo(&g.http, d)
	case strings.HasPrefix(d, "tls:"):
		addr := d[len("tls:"):]
		if strings.HasPrefix(addr, "unix:") {
			return errors.New("TLS over a unix socket is not supported")
		}
		return addDial(&g.tls, addr)
	case strings.HasPrefix(d, "unix:"):
		if strings.Contains(d[len("unix:"):], ":") {
			return addTo(&g.http, d) // unix:/sock:/prefix, HTTP only
		}
		if err := addDial(&g.streams, d); err != nil {
			return err
		}
		return addTo(&g.http, d)
	default:
		return addDial(&g.streams, d)
	}
}

func addDial(m **dialMatcher, e string) error {
	if *m == nil {
		*m = &dialMatcher{}
	}
	return (*m).add(e)
}

func addTo(m **httpMatcher, e string) error {
	if *m == nil {
		*m = &httpMatcher{}
	}
	return (*m).add(e)
}

func (g *secretGrant) seal() {
	g.streams.seal()
	g.tls.seal()
}

// Destination is where one stream's or one HTTP request's bytes go: what
// a secret's destinations are matched against.
type Destination struct {
	// A stream: its address as the grants read it, and whether it is TLS.
	addr *DialAddr
	tls  bool
	// An HTTP request: its URL in normal form.
	http *HTTPTarget
	// viaProxy: a plain-http request that goes through a proxy, which
	// would read every header and the body.
	viaProxy bool
}

func StreamDestination(a DialAddr, tls bool) Destination { return Destination{addr: &a, tls: tls} }

func HTTPDestination(t HTTPTarget) Destination { return Destination{http: &t} }

// ThroughProxy is d for a plain-http request that goes through a proxy,
// which reads every header and the body: no secret is bound to it.
func (d Destination) ThroughProxy() Destination {
	d.viaProxy = true
	return d
}

// String is the destination as a denial names it.
func (d Destination) String() string {
	switch {
	case d.http != nil:
		return d.http.WithoutQuery()
	case d.addr != nil && d.tls:
		_, a := d.addr.target()
		return "tls:" + a
	case d.addr != nil && d.addr.unix:
		return "unix:" + d.addr.name
	case d.addr != nil:
		_, a := d.addr.target()
		return a
	}
	return "(nowhere)"
}

// bound reports whether the secret may be sent to d.
func (g *secretGrant) bound(d Destination) bool {
	switch {
	case d.viaProxy:
		return false
	case d.http != nil:
		return g.http.match(*d.http)
	case d.addr != nil:
		return g.streams.match(*d.addr) || (d.tls && g.tls.match(*d.addr))
	}
	return false
}

// SecretSet is a set of one Policy's secrets, bit i for the i-th by name.
type SecretSet uint64

func (s SecretSet) Has(i int) bool { return s&(1<<i) != 0 }

// SecretIndex returns the position of the secret name among the granted
// ones, or -1.
func (p *Policy) SecretIndex(name string) int {
	if p == nil || p.v2 == nil {
		return -1
	}
	s := p.v2.secrets
	i := sort.Search(len(s), func(i int) bool { return s[i].name >= name })
	if i < len(s) && s[i].name == name {
		return i
	}
	return -1
}

// BoundTo returns the set of secrets that may be sent to d.
func (p *Policy) BoundTo(d Destination) SecretSet {
	var set SecretSet
	if p == nil || p.v2 == nil {
		return 0
	}
	for i := range p.v2.secrets {
		if p.v2.secrets[i].bound(d) {
			set |= 1 << i
		}
	}
	return set
}

// AllowSecret reports whether the variable name is granted as a secret, to
// any destination.
func (p *Policy) AllowSecret(name string) bool { return p.SecretIndex(name) >= 0 }

// Secrets returns the names granted as secrets, sorted.
func (p *Policy) Secrets() []string {
	if p == nil || p.v2 == nil || len(p.v2.secrets) == 0 {
		return nil
	}
	out := make([]string, len(p.v2.secrets))
	for i := range p.v2.secrets {
		out[i] = p.v2.secrets[i].name
	}
	return out
}

// SecretNames returns the names of the secrets in set, sorted.
func (p *Policy) SecretNames(set SecretSet) []string {
	var out []string
	for i := range p.v2.secrets {
		if set.Has(i) {
			out = append(out, p.v2.secrets[i].name)
		}
	}
	return out
}

// HasSecrets reports whether any secret is granted.
func (p *Policy) HasSecrets() bool { return p != nil && p.v2 != nil && len(p.v2.secrets) > 0 }

// checkSecretGrant checks a secret's name: a variable name, exactly, since
// a pattern would hand a probe every secret a later variable might hold.
func checkSecretGrant(e string) error {
	if strings.Contains(e, "*") {
		return fmt.Errorf("secrets are named exactly; no patterns")
	}
	if err := checkEnvGrant(e); err != nil {
		return err
	}
	// ${secret:NAME} names only these, so another name could never be used.
	if '0' <= e[0] && e[0] <= '9' {
		return fmt.Errorf("a secret's name starts with a letter or _, as in ${secret:NAME}")
	}
	return nil
}

// SecretBound reports whether the i-th secret (by name, as SecretIndex
// counts) is bound to d.
func (p *Policy) SecretBound(i int, d Destination) bool { return p.v2.secrets[i].bound(d) }

// Spend marks the secrets of set spent: the probe this Policy belongs to
// may not send them again, in this run or a later one, until it is loaded
// again (and compiles a new Policy). A run spends a secret when a
// destination handed its value back (see package host).
func (p *Policy) Spend(set SecretSet) {
	if p != nil && p.v2 != nil {
		p.v2.spent.Or(uint64(set))
	}
}

// Spent returns the set of secrets Spend has marked.
func (p *Policy) Spent() SecretSet {
	if p == nil || p.v2 == nil {
		return 0
	}
	return SecretSet(p.v2.spent.Load())
}
