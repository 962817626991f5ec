package probes

import (
	"fmt"
	"maps"
	"net"
	"net/netip"
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/gate-dev/gate/hostfuncs"
)

// Shorthand is a standard probe with its config and the grants it needs,
// as a manifest writes it in one string, for example:
//
//	env:DATABASE_URL,REDIS_URL
//	tcp:localhost:5432    tcp:[::1]:6379    tcp:unix:/var/run/docker.sock
//	import:py:psycopg2,bin:docker
//	https://api.example.com/v1/models bearer=OPENAI_API_KEY status=200
//	redis:127.0.0.1:6379 password=REDIS_PASSWORD
//	postgres:127.0.0.1:5432 user=app database=app
//	docker:    docker:unix:/home/me/.docker/run/docker.sock
//	mcp:http://127.0.0.1:8080/mcp bearer=MCP_TOKEN
//	tls:api.example.com:443 days=14
//
// Kinds lists every kind, and Kind.Form and Kind.Example show how each
// is written. The ABI v2 kinds (all but env, tcp and import) take a
// target and then options, whitespace-separated key=value words; a value
// may be double-quoted, with \" and \\ its only escapes, to hold spaces:
// header="X-Org: acme corp". Every one takes timeout_ms=; README.md lists
// the others.
//
// The grants are exact: they allow the probe precisely what its config
// asks it to check and nothing else, so a shorthand can be granted without
// review. Secrets are granted only where the shorthand sends them
// (bearer=, password=, ${secret:NAME} in a URL's query, a header or the
// body), each bound to the shorthand's own target (Destination) and to
// nothing else; the probe never sees their values. A shorthand never
// grants insecure TLS: insecure=true also needs the manifest's own
// insecure grant.
type Shorthand struct {
	// Kind is the standard probe to run.
	Kind Kind
	// Config is the probe's string config: "vars" for env, "addr" for tcp,
	// "specs" for import (comma-separated lists, as the probes read them);
	// the v2 kinds' keys are listed in README.md. Defaults are filled in
	// (postgres "user" and "database", tls "days", docker "socket", ...)
	// so that the probe and a reader see the same values.
	Config map[string]string
	// Env lists the environment variables the probe may read.
	Env []string
	// Dial lists the addresses the probe may dial (one, for tcp).
	Dial []string
	// Import lists the import specs the probe may ask about.
	Import []string
	// HTTP lists the URL prefixes the probe may request (ABI v2 kinds).
	HTTP []string
	// Secrets names the secrets the probe may send (ABI v2 kinds), each
	// with its one destination, the shorthand's own target: "redis:h:6379
	// password=P" gives {"P": {"h:6379"}}, "https://h/v1/x bearer=K"
	// gives {"K": {"https://h/v1/x"}}. Nil when it sends none.
	Secrets map[string][]string
}

// ParseShorthand parses "KIND:VALUE" (see Shorthand); for http the URL
// itself is the shorthand, its scheme the kind. Lists in VALUE are
// separated by commas and/or whitespace, as the probes themselves read
// them; duplicates are dropped. Environment variable names must match
// [A-Za-z_][A-Za-z0-9_]*, import specs must be SCHEME:NAME, and a tcp
// address must be HOST:PORT with a numeric port from 1 to 65535
// ([IPV6]:PORT for IPv6) or unix:/ABSOLUTE/PATH. A URL must be plain
// (no user info, fragment or unclean path; a placeholder only in its
// query) so that its grant, the URL up to its query, reads as exactly
// what it allows. Unknown options are an error that lists the kind's
// options, and so is an option given twice, but for header=.
func ParseShorthand(s string) (Shorthand, error) {
	sh, pairs, err := parseShorthand(s)
	if err != nil || sh.Config != nil {
		return sh, err
	}
	sh.Config = map[string]string{pairs[0]: pairs[1]}
	return sh, nil
}

// ParseShorthandPairs is ParseShorthand for a caller that keeps a probe's
// config as a sorted list rather than a map (the runtime, for every tool a
// manifest names): sh.Config is nil, and pairs holds the config's keys and
// values, key, value, key, value, ..., sorted by key. For the env, tcp and
// import kinds, whose config is one key, it makes no map at all (a map per
// tool was most of what making 10,000 probes allocated).
func ParseShorthandPairs(s string) (sh Shorthand, pairs []string, err error) {
	sh, pairs, err = parseShorthand(s)
	if err != nil || sh.Config == nil {
		return sh, pairs, err
	}
	keys := slices.Sorted(maps.Keys(sh.Config))
	pairs = make([]string, 0, 2*len(keys))
	for _, k := range keys {
		pairs = append(pairs, k, sh.Config[k])
	}
	sh.Config = nil
	return sh, pairs, nil
}

// parseShorthand is ParseShorthand's parse. An ABI v2 kind's config comes
// back in sh.Config, as its options' defaults read it while it is made;
// any other kind's one key and value come back in pairs, with sh.Config
// nil, for each caller to keep as it does.
func parseShorthand(s string) (Shorthand, []string, error) {
	fail := func(format string, args ...any) (Shorthand, []string, error) {
		return Shorthand{}, nil, fmt.Errorf("probe shorthand %q: %s", s, fmt.Sprintf(format, args...))
	}
	kindStr, value, ok := strings.Cut(strings.TrimSpace(s), ":")
	if !ok || kindStr == "" {
		return fail(`want KIND:VALUE, e.g. "env:DATABASE_URL", "tcp:localhost:5432" or "import:bin:docker" (kinds: %s)`, kindList())
	}
	k := lookupShorthand(kindStr)
	if k == nil {
		return fail("unknown kind %q (kinds: %s)", kindStr, kindList())
	}
	if k.v2() {
		target, rest := splitTarget(strings.TrimSpace(value))
		switch {
		case k.wholeTarget:
			// The kind is the URL's scheme: the URL is the target.
			target, rest = splitTarget(strings.TrimSpace(s))
		case !strings.HasPrefix(target, "unix:") && strings.Contains(target, "="):
			// Options but no target: "docker: timeout_ms=50" asks the
			// default socket; the other kinds need one.
			target, rest = "", strings.TrimSpace(value)
		}
		if target == "" && !k.targetOptional {
			return fail("empty target; want e.g. %q", k.example)
		}
		sh := Shorthand{Kind: k.name}
		if err := parseV2(k, &sh, target, rest); err != nil {
			return fail("%v", err)
		}
		return sh, nil, nil
	}
	value = strings.TrimSpace(value)
	if value == "" {
		return fail("empty value; want e.g. %q", k.example)
	}
	value, g, err := k.value(value)
	if err != nil {
		return fail("%v", err)
	}
	sh := Shorthand{Kind: k.name, Env: g.Env, Dial: g.Dial, Import: g.Import}
	if value == "" {
		// Only separators, e.g. "env:,": as empty as "env:".
		return fail("empty value; want e.g. %q", k.example)
	}
	// The grants' compiler has the last word: what it refuses
	// ("import:PY:x", "tcp:0:80") is refused here, where the manifest's
	// author sees it, not when the probe is made. (Env names it reads as
	// ValidEnvName does; env shorthands, the most common, grant neither
	// and skip its cost.)
	if len(sh.Dial) > 0 || len(sh.Import) > 0 {
		if err := (hostfuncs.Grants{Dial: sh.Dial, Import: sh.Import}).Validate(); err != nil {
			return fail("%v", err)
		}
	}
	return sh, []string{k.key, value}, nil
}

// String returns the shorthand in the canonical form ParseShorthand
// accepts, e.g. "env:A,B" or "redis:h:6379 password=P" (options in a
// fixed order, defaults left out); for a Shorthand that ParseShorthand returned,
// ParseShorthand(s.String()) gives s back. The zero Shorthand is "".
func (s Shorthand) String() string {
	if s.Kind == "" {
		return ""
	}
	k := lookup(s.Kind)
	if k != nil && k.v2() {
		return s.stringV2(k)
	}
	key := "" // a kind that is none: "nope:"
	if k != nil {
		key = k.key
	}
	return string(s.Kind) + ":" + s.Config[key]
}

// kindList names the standard probes for error messages, each followed
// by the other words that start its shorthands ("http, https").
func kindList() string {
	var names []string
	for _, k := range kinds {
		names = append(append(names, string(k.name)), k.also...)
	}
	return strings.Join(names, ", ")
}

// isSep reports whether r separates list items. It matches gate_is_sep in
// include/gate.h, so a list means the same here and in the probe.
func isSep(r rune) bool {
	return r == ',' || r <= ' ' || r == 0x7F
}

// splitList splits a list on separators, dropping empty items and
// duplicates but keeping the order.
func splitList(v string) []string {
	out := strings.FieldsFunc(v, isSep)
	// Drop repeats, keeping first occurrences in order: a look back for the
	// few names a shorthand usually holds (a map per call was most of
	// parsing 10,000 shorthands), a map for a long list.
	kept := out[:0]
	if len(out) <= 16 {
		for _, f := range out {
			if !slices.Contains(kept, f) {
				kept = append(kept, f)
			}
		}
		return slices.Clip(kept)
	}
	seen := make(map[string]bool, len(out))
	for _, f := range out {
		if !seen[f] {
			seen[f] = true
			kept = append(kept, f)
		}
	}
	return slices.Clip(kept)
}

// ValidEnvName reports whether n is a variable name an env shorthand
// accepts: [A-Za-z_][A-Za-z0-9_]*.
func ValidEnvName(n string) bool {
	if n == "" {
		return false
	}
	for i := 0; i < len(n); i++ {
		c := n[i]
		switch {
		case c == '_', 'A' <= c && c <= 'Z', 'a' <= c && c <= 'z':
		case '0' <= c && c <= '9' && i > 0:
		default:
			return false
		}
	}
	return true
}

// validSpec reports whether sp is SCHEME:NAME with a scheme like a URL's
// ([A-Za-z][A-Za-z0-9+.-]*) and a non-empty name. splitList has already
// removed separators, so the name has no whitespace or commas.
func validSpec(sp string) bool {
	scheme, name, ok := strings.Cut(sp, ":")
	if !ok || scheme == "" || name == "" {
		return false
	}
	for i := 0; i < len(scheme); i++ {
		c := scheme[i]
		switch {
		case 'A' <= c && c <= 'Z', 'a' <= c && c <= 'z':
		case ('0' <= c && c <= '9' || c == '+' || c == '.' || c == '-') && i > 0:
		default:
			return false
		}
	}
	return true
}

// checkAddr checks a tcp probe address: unix:/PATH or HOST:PORT.
func checkAddr(addr string) error {
	if strings.ContainsFunc(addr, func(r rune) bool { return r <= ' ' || r == 0x7F }) {
		return fmt.Errorf("contains whitespace or control characters")
	}
	if p, ok := strings.CutPrefix(addr, "unix:"); ok {
		// Grants are compared exactly, so insist on one spelling per path.
		if !strings.HasPrefix(p, "/") || path.Clean(p) != p {
			return fmt.Errorf("want unix:/PATH with an absolute, clean path")
		}
		return nil
	}
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("want HOST:PORT, [IPV6]:PORT or unix:/PATH (%v)", err)
	}
	if host == "" {
		return fmt.Errorf("empty host; want HOST:PORT")
	}
	// (SplitHostPort already rejects an IPv6 address without brackets.)
	if strings.HasPrefix(addr, "[") {
		if a, err := netip.ParseAddr(host); err != nil || !a.Is6() {
			return fmt.Errorf("only IPv6 addresses go in brackets, not %q", host)
		}
	}
	// Numeric only: a service name ("http") would depend on the host's
	// /etc/services, and a leading zero would give a port two spellings.
	n, err := strconv.ParseUint(port, 10, 16)
	if err != nil || n == 0 || port[0] < '1' || port[0] > '9' {
		return fmt.Errorf("port %q is not a number from 1 to 65535", port)
	}
	return nil
}
