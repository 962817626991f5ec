package grants

import (
	"errors"
	"fmt"
	"strings"
)

// Import grants are "scheme:name" patterns, or "*" for "scheme *, name *".
// The scheme and the name are matched separately; in both, '*' never
// covers a '/'. A name that starts with '/' is a path and is matched only
// by a grant whose name also starts with '/': otherwise "bin:*" or "*"
// would tell a probe whether any file on the host exists. Names of other
// schemes are opaque to the matcher ("k8s:deployment/api" is not a path,
// but "k8s:*" does not reach it either, since '*' stops at '/'; grant
// "k8s:deployment/*" for that).
//
// Before any matching, a spec must pass checkImportSpec: no "..", and a
// path must be clean. Grants obey the same rules, checked at load.

// importMatcher answers exact specs with one map lookup and falls back to
// the patterns.
type importMatcher struct {
	exact nameSet
	globs []importPattern
}

type importPattern struct {
	scheme, name string // '*' patterns; neither covers '/'
	path         bool   // name starts with '/'
}

func (m *importMatcher) add(e string) error {
	if e == "*" {
		m.globs = append(m.globs, importPattern{scheme: "*", name: "*"})
		return nil
	}
	scheme, name, ok := strings.Cut(e, ":")
	if !ok || scheme == "" || name == "" {
		return fmt.Errorf("want scheme:name, like py:psycopg2 or bin:*")
	}
	for i := 0; i < len(scheme); i++ {
		if c := scheme[i]; !(c == '*' || 'a' <= c && c <= 'z' || i > 0 && ('0' <= c && c <= '9' || c == '+' || c == '.' || c == '-')) {
			return fmt.Errorf("scheme %q: want [a-z][a-z0-9+.-]*, with * for any run of those", scheme)
		}
	}
	if err := CheckSpecName(name); err != nil {
		return err
	}
	if !strings.Contains(e, "*") {
		m.exact = append(m.exact, e)
		return nil
	}
	m.globs = append(m.globs, importPattern{scheme: scheme, name: name, path: name[0] == '/'})
	return nil
}

func (m *importMatcher) match(spec string) bool {
	if m == nil {
		return false
	}
	// Exact grants passed checkSpecName at load, so a spec equal to one is
	// as well formed as it is.
	if m.exact.has(spec) {
		return true
	}
	if len(m.globs) == 0 {
		return false
	}
	scheme, name, ok := strings.Cut(spec, ":")
	if !ok || name == "" || !ValidScheme(scheme) || CheckSpecName(name) != nil {
		return false
	}
	path := name[0] == '/'
	for _, g := range m.globs {
		if g.path == path && globMatchStop(g.scheme, scheme, '/') && globMatchStop(g.name, name, '/') {
			return true
		}
	}
	return false
}

// ImportSchemes returns the schemes that the import grants can reach, with
// "*" standing for "any scheme". The engine prepares those resolvers when
// a probe is loaded, so their one-time setup stays out of the budget.
func (p *Policy) ImportSchemes() []string {
	if p == nil || p.imp == nil {
		return nil
	}
	set := map[string]bool{}
	for _, spec := range p.imp.exact {
		scheme, _, _ := strings.Cut(spec, ":")
		set[scheme] = true
	}
	for _, g := range p.imp.globs {
		if strings.Contains(g.scheme, "*") {
			set["*"] = true
		} else {
			set[g.scheme] = true
		}
	}
	return keys(set)
}

var (
	errDotDot   = errors.New(`".." is not allowed`)
	errNUL      = errors.New("NUL is not allowed")
	errNotClean = errors.New("the path is not clean (no //, /./ or trailing /)")
)

// CheckSpecName checks the name part of an import spec or grant, whatever
// its scheme. ".." is refused anywhere, not only as a path element: a
// clean rule is easier to trust than a careful one, and no library,
// program or module worth probing for has ".." in its name.
func CheckSpecName(name string) error {
	switch {
	case strings.Contains(name, ".."):
		return errDotDot
	case strings.IndexByte(name, 0) >= 0:
		return errNUL
	case name[0] == '/' && !isCleanAbs(name):
		return errNotClean
	}
	return nil
}

// isCleanAbs reports whether p, which starts with '/', is what path.Clean
// would return for it, given that it holds no "..": no empty or "."
// element and no trailing slash. It does not allocate.
func isCleanAbs(p string) bool {
	if p == "/" {
		return true
	}
	return !strings.HasSuffix(p, "/") && !strings.HasSuffix(p, "/.") &&
		!strings.Contains(p, "//") && !strings.Contains(p, "/./")
}

// ValidScheme reports whether s is an import scheme: [a-z][a-z0-9+.-]*.
func ValidScheme(s string) bool {
	if s == "" || s[0] < 'a' || s[0] > 'z' {
		return false
	}
	for i := 1; i < len(s); i++ {
		c := s[i]
		if !('a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '+' || c == '.' || c == '-') {
			return false
		}
	}
	return true
}

// ErrBadSpec is the error of a malformed import spec (hostfuncs.ErrBadSpec).
var ErrBadSpec = errors.New("bad import spec")

// SplitSpec splits "scheme:name" at the first colon, so names may
// themselves contain colons, and checks the name as the grants do
// (CheckSpecName), so that no resolver sees a spec no grant could match.
// Its errors wrap ErrBadSpec.
func SplitSpec(spec string) (scheme, name string, err error) {
	scheme, name, ok := strings.Cut(spec, ":")
	switch {
	case !ok:
		return "", "", fmt.Errorf("import %q: %w: want scheme:name", spec, ErrBadSpec)
	case !ValidScheme(scheme):
		return "", "", fmt.Errorf("import %q: %w: scheme must match [a-z][a-z0-9+.-]*", spec, ErrBadSpec)
	case name == "":
		return "", "", fmt.Errorf("import %q: %w: empty name", spec, ErrBadSpec)
	}
	if err := CheckSpecName(name); err != nil {
		return "", "", fmt.Errorf("import %q: %w: %w", spec, ErrBadSpec, err)
	}
	return scheme, name, nil
}
