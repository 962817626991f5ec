package grants

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync/atomic"
)

// Spec is what a probe is granted, as hostfuncs.Grants holds it (its
// documentation is there): the same fields, so that one converts to the
// other, and the compiler keeps them equal. It is its own type so that
// this package, which the manifest and the probes' shorthands use to check
// grants, needs nothing but the standard library.
type Spec struct {
	Env      []string
	Dial     []string
	Import   []string
	HTTP     []string
	Secrets  map[string][]string
	Insecure []string
}

// Policy is a compiled form of a Spec, safe for concurrent use. It is
// immutable but for the secrets its probe has spent (Spend), which lives
// here because a Policy lives exactly as long as its probe: a probe
// loaded again compiles a new one.
//
// A kind nothing is granted of has no matcher at all (nil, which matches
// nothing): a probe holds its Policy for its whole life, most are granted
// one kind of thing, and a Gate may hold 10,000 of them.
type Policy struct {
	env  *envMatcher
	dial *dialMatcher
	imp  *importMatcher
	// v2 holds the grants of ABI v2, behind one pointer that is nil for
	// the many probes granted none: an idle tool's heap is counted in
	// bytes (TestIdleMemoryPerTool).
	v2 *policyV2
}

// policyV2 is the part of a Policy that ABI v2 added.
type policyV2 struct {
	http     *httpMatcher
	secrets  []secretGrant // sorted by name
	insecure *dialMatcher
	// spent is the set of secrets the probe may no longer send (see
	// Policy.Spend): the one part of a Policy a run changes.
	spent atomic.Uint64
}

// Compile checks g and returns its Policy. An error names the kind, the
// entry and what is wrong with it.
func (g Spec) Compile() (*Policy, error) {
	var p *Policy
	if len(g.Env) == 1 {
		// One variable, the most common grant of all ("env:NAME"): the
		// Policy, its matcher and the matcher's one name are one allocation.
		one := &struct {
			policy Policy
			env    envMatcher
			names  [1]string
		}{}
		p = &one.policy
		p.env = &one.env
		p.env.exact = one.names[:0:1]
	} else {
		p = &Policy{}
		if len(g.Env) > 0 {
			p.env = &envMatcher{}
		}
	}
	if len(g.Dial) > 0 {
		p.dial = &dialMatcher{}
	}
	if len(g.Import) > 0 {
		p.imp = &importMatcher{}
	}
	for _, e := range g.Env {
		if err := p.env.add(e); err != nil {
			return nil, fmt.Errorf("env grant %q: %w", e, err)
		}
	}
	for _, e := range g.Dial {
		if err := p.dial.add(e); err != nil {
			return nil, fmt.Errorf("dial grant %q: %w", e, err)
		}
	}
	for _, e := range g.Import {
		if err := p.imp.add(e); err != nil {
			return nil, fmt.Errorf("import grant %q: %w", e, err)
		}
	}
	if len(g.HTTP)+len(g.Secrets)+len(g.Insecure) > 0 {
		p.v2 = &policyV2{}
	}
	if len(g.HTTP) > 0 {
		p.v2.http = &httpMatcher{}
	}
	for _, e := range g.HTTP {
		if err := p.v2.http.add(e); err != nil {
			return nil, fmt.Errorf("http grant %q: %w", e, err)
		}
	}
	if len(g.Secrets) > 0 {
		secrets, err := compileSecrets(g.Secrets)
		if err != nil {
			return nil, err
		}
		p.v2.secrets = secrets
	}
	if len(g.Insecure) > 0 {
		p.v2.insecure = &dialMatcher{}
	}
	for _, e := range g.Insecure {
		if err := p.v2.insecure.add(e); err != nil {
			return nil, fmt.Errorf("insecure grant %q: %w", e, err)
		}
	}
	if p.v2 != nil {
		p.v2.insecure.seal()
	}
	if p.env != nil {
		p.env.exact = p.env.exact.sealed()
	}
	if p.imp != nil {
		p.imp.exact = p.imp.exact.sealed()
	}
	p.dial.seal()
	return p, nil
}

// nameSet is a sorted set of names: a probe holds its Policy for its life,
// and for the few names a probe is granted a sorted slice is a third of a
// map's size and as quick to search.
type nameSet []string

// sealed sorts the set and drops repeats; has works only after it.
func (s nameSet) sealed() nameSet {
	if len(s) == 0 {
		return nil
	}
	sort.Strings(s)
	return slices.Clip(slices.Compact(s))
}

func (s nameSet) has(name string) bool {
	_, found := slices.BinarySearch(s, name)
	return found
}

// AllowEnv reports whether the variable name may be read. A secret never
// may, whatever the env grants say.
func (p *Policy) AllowEnv(name string) bool {
	return p != nil && p.env.match(name) && p.SecretIndex(name) < 0
}

// AllowInsecure reports whether the address ("host:port") may be reached
// over TLS without verification. An address that is not well formed is
// never granted.
func (p *Policy) AllowInsecure(addr string) bool {
	if p == nil || p.v2 == nil || p.v2.insecure == nil {
		return false
	}
	if p.v2.insecure.rawHas(addr) {
		return true
	}
	a, err := ParseDialAddr(addr)
	return err == nil && p.v2.insecure.match(a)
}

// AllowDial reports whether the address is granted. An address that is
// not well formed (see ParseDialAddr) is never granted.
func (p *Policy) AllowDial(addr string) bool {
	if p == nil {
		return false
	}
	if p.dial.rawHas(addr) {
		return true
	}
	a, err := ParseDialAddr(addr)
	return err == nil && p.dial.match(a)
}

// AllowImport reports whether the spec is granted. A spec that is not well
// formed (see checkSpecName) is never granted.
func (p *Policy) AllowImport(spec string) bool { return p != nil && p.imp.match(spec) }

func keys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// envMatcher answers exact names with one map lookup and falls back to the
// patterns, so the common case (a handful of exact grants) costs no
// allocation and no scan.
type envMatcher struct {
	exact nameSet
	globs []string
}

func (m *envMatcher) add(e string) error {
	if err := checkEnvGrant(e); err != nil {
		return err
	}
	if strings.Contains(e, "*") {
		m.globs = append(m.globs, e)
	} else {
		m.exact = append(m.exact, e)
	}
	return nil
}

func (m *envMatcher) match(s string) bool {
	if m == nil {
		return false
	}
	if m.exact.has(s) {
		return true
	}
	for _, g := range m.globs {
		if globMatch(g, s) {
			return true
		}
	}
	return false
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

// globMatch reports whether s matches pattern, in which '*' matches any run
// of bytes.
func globMatch(pattern, s string) bool { return globMatchStop(pattern, s, -1) }

// globMatchStop is globMatch with a '*' that never covers the byte stop
// (pass -1 for none): with stop '/', "/run/*.sock" stays in /run.
//
// It is iterative with one backtrack point, so it runs in
// O(len(pattern)*len(s)) at worst and never recurses. One point is enough
// even with a stop byte: a literal stop in the pattern can only meet the
// first stop in s after the '*' before it, so an earlier '*' never has a
// better choice to go back to.
func globMatchStop(pattern, s string, stop int) bool {
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
		case star >= 0 && int(s[mark]) != stop:
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
