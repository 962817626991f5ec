package hostfuncs

import (
	"fmt"
	"net"
	"sort"
	"strings"
)

// Grants name what one probe may ask the host. Everything a grant does not
// name is denied: a probe with zero Grants can read its own config, set a
// reason and log, and nothing else.
//
// Each entry is an exact name or a pattern in which "*" matches any run of
// characters (including none); there are no other metacharacters. Matching
// is case-sensitive, except that the host part of a dial address is compared
// in lower case, as DNS names are.
type Grants struct {
	// Env names environment variables the probe may read: "SERP_API_KEY",
	// "AWS_*".
	Env []string

	// Dial names addresses the probe may connect to: "localhost:5432",
	// "127.0.0.1:*", "unix:/var/run/docker.sock". An IPv6 host is written in
	// brackets: "[::1]:6379".
	Dial []string

	// Import names dependency specs the probe may look up: "py:psycopg2",
	// "bin:*", "lib:libpq.so.5".
	Import []string
}

// IsZero reports whether g grants nothing.
func (g Grants) IsZero() bool {
	return len(g.Env) == 0 && len(g.Dial) == 0 && len(g.Import) == 0
}

// Merge returns the union of g and o, sorted and without duplicates.
func (g Grants) Merge(o Grants) Grants {
	return Grants{
		Env:    union(g.Env, o.Env),
		Dial:   union(g.Dial, o.Dial),
		Import: union(g.Import, o.Import),
	}
}

func union(a, b []string) []string {
	if len(a)+len(b) == 0 {
		return nil
	}
	seen := make(map[string]bool, len(a)+len(b))
	var out []string
	for _, s := range append(append([]string(nil), a...), b...) {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	sort.Strings(out)
	return out
}

// Policy is a compiled, immutable form of Grants, safe for concurrent use.
type Policy struct {
	env, dial, imp matcher
}

// Compile checks g and returns its Policy. An error names the kind and the
// entry that is malformed.
func (g Grants) Compile() (*Policy, error) {
	p := &Policy{}
	var err error
	if p.env, err = compileMatcher("env", g.Env, checkEnvGrant, nil); err != nil {
		return nil, err
	}
	if p.dial, err = compileMatcher("dial", g.Dial, checkDialGrant, normalizeAddr); err != nil {
		return nil, err
	}
	if p.imp, err = compileMatcher("import", g.Import, checkImportGrant, nil); err != nil {
		return nil, err
	}
	return p, nil
}

// AllowEnv reports whether the variable name is granted.
func (p *Policy) AllowEnv(name string) bool { return p != nil && p.env.match(name) }

// AllowDial reports whether the address is granted.
func (p *Policy) AllowDial(addr string) bool { return p != nil && p.dial.match(normalizeAddr(addr)) }

// AllowImport reports whether the spec is granted.
func (p *Policy) AllowImport(spec string) bool { return p != nil && p.imp.match(spec) }

// ImportSchemes returns the schemes that the import grants can reach, with
// "*" standing for "any scheme". The engine prepares those resolvers when
// a probe is loaded, so their one-time setup stays out of the budget.
func (p *Policy) ImportSchemes() []string {
	if p == nil {
		return nil
	}
	set := map[string]bool{}
	for _, pat := range append(keys(p.imp.exact), p.imp.globs...) {
		scheme, _, ok := strings.Cut(pat, ":")
		if !ok || strings.Contains(scheme, "*") {
			scheme = "*"
		}
		set[scheme] = true
	}
	return keys(set)
}

func keys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// matcher answers exact names with one map lookup and falls back to the
// patterns, so the common case (a handful of exact grants) costs no
// allocation and no scan.
type matcher struct {
	exact map[string]bool
	globs []string
}

func (m matcher) match(s string) bool {
	if m.exact[s] {
		return true
	}
	for _, g := range m.globs {
		if globMatch(g, s) {
			return true
		}
	}
	return false
}

func compileMatcher(kind string, entries []string, check func(string) error, norm func(string) string) (matcher, error) {
	m := matcher{exact: map[string]bool{}}
	for _, e := range entries {
		if err := check(e); err != nil {
			return matcher{}, fmt.Errorf("%s grant %q: %w", kind, e, err)
		}
		if norm != nil {
			e = norm(e)
		}
		if strings.Contains(e, "*") {
			m.globs = append(m.globs, e)
		} else {
			m.exact[e] = true
		}
	}
	return m, nil
}

// globMatch reports whether s matches pattern, in which '*' matches any run
// of bytes. It is iterative with one backtrack point, so it runs in
// O(len(pattern)*len(s)) at worst and never recurses.
func globMatch(pattern, s string) bool {
	p, i := 0, 0
	star, mark := -1, 0
	for i < len(s) {
		switch {
		case p < len(pattern) && pattern[p] == '*':
			star, mark = p, i
			p++
		case p < len(pattern) && pattern[p] == s[i]:
			p++
			i++
		case star >= 0:
			p = star + 1
			mark++
			i = mark
		default:
			return false
		}
	}
	for p < len(pattern) && pattern[p] == '*' {
		p++
	}
	return p == len(pattern)
}

func checkEnvGrant(e string) error {
	if e == "" {
		return fmt.Errorf("empty name")
	}
	for _, r := range e {
		if r != '*' && r != '_' && !(r >= 'A' && r <= 'Z') && !(r >= 'a' && r <= 'z') && !(r >= '0' && r <= '9') {
			return fmt.Errorf("%q is not allowed in a variable name", r)
		}
	}
	return nil
}

func checkDialGrant(e string) error {
	if e == "" {
		return fmt.Errorf("empty address")
	}
	if path, ok := strings.CutPrefix(e, "unix:"); ok {
		if path == "" {
			return fmt.Errorf("unix: needs a socket path")
		}
		return nil
	}
	host, port, err := net.SplitHostPort(e)
	if err != nil {
		return fmt.Errorf("want host:port or unix:/path")
	}
	if host == "" {
		return fmt.Errorf("empty host (write \"*:%s\" to allow any host)", port)
	}
	if port == "" {
		return fmt.Errorf("empty port (write %q to allow any port)", net.JoinHostPort(host, "*"))
	}
	return nil
}

func checkImportGrant(e string) error {
	scheme, name, ok := strings.Cut(e, ":")
	if e == "*" {
		return nil
	}
	if !ok || scheme == "" || name == "" {
		return fmt.Errorf("want scheme:name, like py:psycopg2 or bin:*")
	}
	return nil
}

// normalizeAddr lower-cases the host of a host:port address so that
// "LocalHost:80" and "localhost:80" are the same grant. Anything that does
// not parse is returned unchanged and simply fails to match.
func normalizeAddr(a string) string {
	if strings.HasPrefix(a, "unix:") {
		return a
	}
	host, port, err := net.SplitHostPort(a)
	if err != nil {
		return a
	}
	lower := strings.ToLower(host)
	if lower == host {
		return a
	}
	return net.JoinHostPort(lower, port)
}
