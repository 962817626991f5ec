package probes

import (
	"fmt"
	"net/netip"
	"path"
	"strconv"
	"strings"

	"github.com/gate-dev/gate/hostfuncs"
	"github.com/gate-dev/gate/internal/grants"
	"github.com/gate-dev/gate/internal/httptoken"
)

// The ABI v2 kinds take a target and options: "redis:127.0.0.1:6379
// password=REDIS_PASSWORD timeout_ms=50". Options are key=value words
// separated by whitespace; a value may be double-quoted, with \" and \\ as
// its only escapes, to hold spaces ("expect_body=\"status: ok\"").

// option is one key=value word of a shorthand.
type option struct{ key, value string }

// DefaultDockerSocket is the socket "docker:" asks.
const DefaultDockerSocket = "/var/run/docker.sock"

// DefaultTLSDays is how many days a certificate must have left, unless a
// tls shorthand says days=N: two weeks, time enough to renew.
const DefaultTLSDays = "14"

// DefaultPostgresUser is the role a postgres shorthand starts up as unless
// it says user=; pg_isready's default too.
const DefaultPostgresUser = "postgres"

// isSpace reports whether c separates options: ASCII whitespace and the
// other control characters, as isSep does for lists.
func isSpace(c byte) bool { return c <= ' ' || c == 0x7F }

// splitTarget returns the first word of s and the rest.
func splitTarget(s string) (target, rest string) {
	i := 0
	for i < len(s) && !isSpace(s[i]) {
		i++
	}
	return s[:i], s[i:]
}

// parseOptions parses whitespace-separated key=value words for kind k,
// refusing unknown names, empty values and repeats (but of header=).
func parseOptions(k *kindEntry, s string) ([]option, error) {
	var opts []option
	seen := map[string]bool{}
	for i := 0; ; {
		for i < len(s) && isSpace(s[i]) {
			i++
		}
		if i == len(s) {
			return opts, nil
		}
		start := i
		for i < len(s) && !isSpace(s[i]) && s[i] != '=' {
			i++
		}
		key := s[start:i]
		if i == len(s) || s[i] != '=' {
			return nil, fmt.Errorf("%q is not an option; want key=value (options: %s)", key, k.optionList())
		}
		if k.option(key) == nil {
			return nil, fmt.Errorf("unknown option %q (options for %s: %s)", key, k.name, k.optionList())
		}
		i++ // the '='
		var value string
		if i < len(s) && s[i] == '"' {
			var b strings.Builder
			i++
			for {
				if i == len(s) {
					return nil, fmt.Errorf("option %s: unterminated quoted value", key)
				}
				c := s[i]
				i++
				if c == '"' {
					break
				}
				if c == '\\' {
					if i == len(s) || (s[i] != '"' && s[i] != '\\') {
						return nil, fmt.Errorf(`option %s: in a quoted value, \ must be followed by " or \`, key)
					}
					c = s[i]
					i++
				}
				b.WriteByte(c)
			}
			if i < len(s) && !isSpace(s[i]) {
				return nil, fmt.Errorf("option %s: want whitespace after the closing quote", key)
			}
			value = b.String()
		} else {
			vs := i
			for i < len(s) && !isSpace(s[i]) {
				i++
			}
			value = s[vs:i]
		}
		if value == "" {
			return nil, fmt.Errorf("option %s: empty value", key)
		}
		if seen[key] && key != "header" {
			return nil, fmt.Errorf("option %s given twice", key)
		}
		seen[key] = true
		opts = append(opts, option{key, value})
	}
}

// option returns k's option named key, or nil.
func (k *kindEntry) option(key string) *optionSpec {
	for _, o := range k.options {
		if o.name == key {
			return o
		}
	}
	return nil
}

// optionList names k's options, for error messages.
func (k *kindEntry) optionList() string {
	names := make([]string, len(k.options))
	for i, o := range k.options {
		names[i] = o.name
	}
	return strings.Join(names, ", ")
}

// quote writes an option value so that parseOptions reads it back:
// as is when it has no whitespace, quote or backslash, else quoted.
func quote(v string) string {
	if v != "" && !strings.ContainsFunc(v, func(r rune) bool { return r < 0x80 && isSpace(byte(r)) || r == '"' || r == '\\' }) {
		return v
	}
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(v) + `"`
}

// optionSpec is one option of the ABI v2 kinds.
type optionSpec struct {
	name string
	// parse checks one key=value word of the option and returns the value
	// as the config holds it, under the option's name or, for a header
	// option, as a line of config "headers".
	parse  func(o option) (string, error)
	header bool
	// write returns the option's words for String from config c; nil
	// writes name=c[name] when it is set and not the default.
	write func(c map[string]string) []option
	// def is the value the option stands for when it is not given: filled
	// into the config (so that the probe and a reader see the same value)
	// and left out by String. nil: none.
	def func(c map[string]string) string
}

// asIs is an option's parse that keeps its value as it is.
func asIs(o option) (string, error) { return o.value, nil }

// The options, each defined once and listed by the kinds that take it.
var (
	optTimeout = &optionSpec{name: "timeout_ms", parse: func(o option) (string, error) {
		n, err := strconv.ParseUint(o.value, 10, 31)
		if err != nil {
			return "", fmt.Errorf("option timeout_ms: %q is not a whole number of milliseconds (0 to 2147483647)", o.value)
		}
		return strconv.FormatUint(n, 10), nil
	}}
	optBearer = &optionSpec{name: "bearer", header: true, parse: func(o option) (string, error) {
		if !ValidEnvName(o.value) {
			return "", fmt.Errorf("option bearer: bad secret name %q: want letters, digits and _, not starting with a digit", o.value)
		}
		return bearerHeader(o.value), nil
	}, write: func(map[string]string) []option {
		return nil // written with the headers, in their order (optHeader)
	}}
	optHeader = &optionSpec{name: "header", header: true, parse: func(o option) (string, error) {
		name, value, ok := strings.Cut(o.value, ":")
		value = strings.Trim(value, " \t")
		if !ok || !httptoken.Valid(name) || value == "" || strings.ContainsFunc(value, isCtl) {
			return "", fmt.Errorf("option header: want header=Name:value (quoted if the value has spaces), not %q", o.value)
		}
		return name + ": " + value, nil
	}, write: func(c map[string]string) []option {
		if c["headers"] == "" {
			return nil
		}
		var words []option
		bearer := false // bearer= may be given once
		for _, line := range strings.Split(c["headers"], "\n") {
			if name, ok := strings.CutPrefix(line, "Authorization: Bearer ${secret:"); ok && !bearer &&
				strings.HasSuffix(name, "}") && ValidEnvName(name[:len(name)-1]) {
				words = append(words, option{"bearer", name[:len(name)-1]})
				bearer = true
				continue
			}
			name, value, _ := strings.Cut(line, ": ")
			words = append(words, option{"header", name + ":" + value})
		}
		return words
	}}
	optExpectHeader = &optionSpec{name: "expect_header", parse: func(o option) (string, error) {
		name, text, ok := strings.Cut(o.value, ":")
		text = strings.Trim(text, " \t")
		if !ok || !httptoken.Valid(name) || strings.ContainsFunc(text, isCtl) {
			return "", fmt.Errorf("option expect_header: want expect_header=Name:text (quoted if the text has spaces), not %q", o.value)
		}
		return name + ": " + text, nil
	}, write: func(c map[string]string) []option {
		v, ok := c["expect_header"]
		if !ok {
			return nil
		}
		name, text, _ := strings.Cut(v, ": ")
		return []option{{"expect_header", name + ":" + text}}
	}}
	optMethod = &optionSpec{name: "method", parse: func(o option) (string, error) {
		if !validMethod(o.value) {
			return "", fmt.Errorf("option method: %q is not a method; want upper-case letters like GET, HEAD or POST", o.value)
		}
		return o.value, nil
	}}
	optStatus = &optionSpec{name: "status", parse: func(o option) (string, error) {
		v, err := checkStatus(o.value)
		if err != nil {
			return "", fmt.Errorf("option status: %v", err)
		}
		return v, nil
	}}
	optInsecure = &optionSpec{name: "insecure", parse: func(o option) (string, error) {
		if o.value != "true" {
			return "", fmt.Errorf(`option insecure: want insecure=true (it skips TLS verification and needs an insecure grant), not %q`, o.value)
		}
		return "true", nil
	}}
	optDays = &optionSpec{name: "days", parse: func(o option) (string, error) {
		n, err := strconv.ParseUint(o.value, 10, 16)
		if err != nil || n > 36500 {
			return "", fmt.Errorf("option days: %q is not a whole number of days (0 to 36500)", o.value)
		}
		return strconv.FormatUint(n, 10), nil
	}, def: func(map[string]string) string { return DefaultTLSDays }}
	optPassword = &optionSpec{name: "password", parse: func(o option) (string, error) {
		if !ValidEnvName(o.value) {
			return "", fmt.Errorf("option password: want the name of the secret that holds it (letters, digits and _, not starting with a digit), not %q", o.value)
		}
		return o.value, nil
	}}
	optBody             = &optionSpec{name: "body", parse: asIs}
	optExpectBody       = &optionSpec{name: "expect_body", parse: asIs}
	optRejectBody       = &optionSpec{name: "reject_body", parse: asIs}
	optRedisUser        = &optionSpec{name: "user", parse: parseWord(true)}
	optPostgresUser     = &optionSpec{name: "user", parse: parseWord(false), def: func(map[string]string) string { return DefaultPostgresUser }}
	optPostgresDatabase = &optionSpec{name: "database", parse: parseWord(false), def: func(c map[string]string) string { return c["user"] }}
)

// parseWord is the parse of a name the probe sends as it is (user=,
// database=): Redis in an inline command, which can't hold a space or a
// quote either (inline), PostgreSQL in a NUL-terminated string; neither
// can carry a control character.
func parseWord(inline bool) func(o option) (string, error) {
	return func(o option) (string, error) {
		if strings.ContainsFunc(o.value, isCtl) || (inline && strings.ContainsAny(o.value, " \"'")) {
			return "", fmt.Errorf("option %s: %q holds a control character, a space or a quote", o.key, o.value)
		}
		return o.value, nil
	}
}

// parseV2 parses the target and options of ABI v2 kind k into sh.
func parseV2(k *kindEntry, sh *Shorthand, target, rest string) error {
	opts, err := parseOptions(k, rest)
	if err != nil {
		return err
	}
	cfg := map[string]string{}
	sh.Config = cfg
	var headers []string
	for _, o := range opts {
		spec := k.option(o.key)
		v, err := spec.parse(o)
		if err != nil {
			return err
		}
		if spec.header {
			headers = append(headers, v)
		} else {
			cfg[o.key] = v
		}
	}
	if len(headers) > 0 {
		cfg["headers"] = strings.Join(headers, "\n")
	}
	g, err := k.target(cfg, target)
	if err != nil {
		return err
	}
	sh.Dial, sh.HTTP = g.Dial, g.HTTP
	for _, o := range k.options {
		if o.def != nil && cfg[o.name] == "" {
			cfg[o.name] = o.def(cfg)
		}
	}
	if u := cfg["url"]; u != "" {
		// The host's own parser has the last word on what it will send.
		if _, err := grants.ParseHTTPTarget(u); err != nil {
			return fmt.Errorf("bad URL %q: %v", u, err)
		}
	}
	if err := bindSecrets(sh); err != nil {
		return err
	}
	// And the grants' compiler on what they allow: a target the grants
	// would refuse ("http://0/", "redis:1.2.3:6379") is refused here,
	// where the manifest's author sees it.
	if err := (hostfuncs.Grants{Dial: sh.Dial, HTTP: sh.HTTP, Secrets: sh.Secrets}).Validate(); err != nil {
		return fmt.Errorf("bad target %q: %v", target, err)
	}
	return nil
}

// bindSecrets grants sh the secrets its config sends (password=, and
// ${secret:NAME} in the URL, the headers or the body), each bound to the
// shorthand's own target and nowhere else: a probe that sends its
// credentials only where its config points needs no other destination,
// and a grant a reader can check at a glance.
func bindSecrets(sh *Shorthand) error {
	var names []string
	if p := sh.Config["password"]; p != "" {
		names = append(names, p)
	}
	for _, k := range []string{"url", "headers", "body"} {
		found, err := secretNames(sh.Config[k])
		if err != nil {
			return fmt.Errorf("%s: %v", k, err)
		}
		for _, n := range found {
			if !contains(names, n) {
				names = append(names, n)
			}
		}
	}
	if len(names) == 0 {
		return nil
	}
	dest := sh.Destination()
	sh.Secrets = make(map[string][]string, len(names))
	for _, n := range names {
		sh.Secrets[n] = []string{dest}
	}
	return nil
}

// Destination is where the shorthand's probe sends what it sends, written
// as a secret's destination is (see hostfuncs.Grants.Secrets): its http
// grant (the URL up to its query) for http, mcp and docker, else its
// address as its config holds it ("HOST:PORT", "tls:HOST:PORT",
// "unix:/PATH"). Every secret a shorthand sends is bound to it.
func (s Shorthand) Destination() string {
	if len(s.HTTP) > 0 {
		return s.HTTP[0]
	}
	return s.Config["addr"]
}

func contains(list []string, s string) bool {
	for _, e := range list {
		if e == s {
			return true
		}
	}
	return false
}

// bearerHeader is the header line bearer=NAME stands for.
func bearerHeader(name string) string {
	return "Authorization: Bearer ${secret:" + name + "}"
}

// stringV2 writes ABI v2 shorthand s of kind k in the form parseV2 reads.
func (s Shorthand) stringV2(k *kindEntry) string {
	var b strings.Builder
	c := s.Config
	if k.writeTarget != nil {
		b.WriteString(k.writeTarget(c))
	} else {
		b.WriteString(string(s.Kind) + ":" + c["addr"])
	}
	put := func(k, v string) { b.WriteString(" " + k + "=" + quote(v)) }
	for _, o := range k.options {
		if o.write != nil {
			for _, w := range o.write(c) {
				put(w.key, w.value)
			}
			continue
		}
		v, ok := c[o.name]
		if ok && (o.def == nil || v != o.def(c)) {
			put(o.name, v)
		}
	}
	return b.String()
}

// isCtl reports whether r is an ASCII control character other than tab.
func isCtl(r rune) bool { return (r < ' ' && r != '\t') || r == 0x7F }

// validMethod reports whether s is a method in the usual spelling:
// upper-case letters and '-', at most 16 of them.
func validMethod(s string) bool {
	if s == "" || len(s) > 16 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; !('A' <= c && c <= 'Z' || c == '-' && i > 0) {
			return false
		}
	}
	return true
}

// checkStatus checks a status list, "200-299,301", and returns it with
// its items joined by commas.
func checkStatus(v string) (string, error) {
	items := strings.FieldsFunc(v, isSep)
	if len(items) == 0 {
		return "", fmt.Errorf("no status codes in %q", v)
	}
	for _, it := range items {
		lo, hi, isRange := strings.Cut(it, "-")
		if !isRange {
			hi = lo
		}
		a, errA := statusCode(lo)
		b, errB := statusCode(hi)
		if errA != nil || errB != nil || a > b {
			return "", fmt.Errorf("%q is not a status code (100 to 599) or a range of them like 200-299", it)
		}
	}
	return strings.Join(items, ","), nil
}

func statusCode(s string) (int, error) {
	if len(s) != 3 {
		return 0, fmt.Errorf("want three digits")
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 100 || n > 599 {
		return 0, fmt.Errorf("want 100 to 599")
	}
	return n, nil
}

// checkURL checks an http(s) URL as a shorthand writes it and returns the
// http grant it needs: scheme://host[:port] and its path, as a prefix. The
// URL must be plain, so that the grant reads as exactly what it allows:
// no user info, fragment, percent-encoded host, "." or ".." or empty path
// segments, and ${secret:NAME} only in the query (where the host allows
// it).
func checkURL(raw string) (string, error) {
	scheme, rest, ok := strings.Cut(raw, "://")
	if !ok || (scheme != "http" && scheme != "https") {
		return "", fmt.Errorf("want http://HOST[:PORT]/PATH or https://HOST[:PORT]/PATH")
	}
	if strings.ContainsFunc(raw, func(r rune) bool { return r <= ' ' || r == 0x7F }) {
		return "", fmt.Errorf("contains whitespace or control characters")
	}
	if strings.Contains(raw, "#") {
		return "", fmt.Errorf("a fragment (#...) is never sent; leave it out")
	}
	beforeQuery, _, _ := strings.Cut(rest, "?")
	if strings.Contains(beforeQuery, "${") {
		return "", fmt.Errorf("${secret:NAME} may appear only in the query")
	}
	authority, p := beforeQuery, ""
	if i := strings.IndexByte(beforeQuery, '/'); i >= 0 {
		authority, p = beforeQuery[:i], beforeQuery[i:]
	}
	if strings.Contains(authority, "@") {
		return "", fmt.Errorf("user info (user@host) is not allowed; send credentials as a header (bearer= or header=)")
	}
	if err := checkHostPort(authority); err != nil {
		return "", err
	}
	if p == "" {
		p = "/"
	} else if c := path.Clean(p); c != p && c+"/" != p {
		return "", fmt.Errorf("path %q is not clean (no ., .. or empty segments)", p)
	}
	return scheme + "://" + authority + p, nil
}

// checkHostPort checks a URL's host[:port]: a name, an IPv4 address or an
// [IPv6] address, and a port from 1 to 65535 if any.
func checkHostPort(hp string) error {
	host, port := hp, ""
	if strings.HasPrefix(hp, "[") {
		end := strings.IndexByte(hp, ']')
		if end < 0 {
			return fmt.Errorf("missing ] in host %q", hp)
		}
		host, port = hp[1:end], hp[end+1:]
		if a, err := netip.ParseAddr(host); err != nil || !a.Is6() || a.Zone() != "" {
			return fmt.Errorf("only IPv6 addresses (without a zone) go in brackets, not %q", host)
		}
		if port != "" {
			p, ok := strings.CutPrefix(port, ":")
			if !ok {
				return fmt.Errorf("want [IPV6]:PORT, not %q", hp)
			}
			port = p
		} else {
			return nil
		}
	} else {
		var hasPort bool
		host, port, hasPort = strings.Cut(hp, ":")
		if host == "" {
			return fmt.Errorf("empty host")
		}
		for i := 0; i < len(host); i++ {
			c := host[i]
			if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' || c == '.' || c == '_') {
				return fmt.Errorf("bad host %q: want a name or an address", host)
			}
		}
		if !hasPort {
			return nil
		}
	}
	n, err := strconv.ParseUint(port, 10, 16)
	if err != nil || n == 0 || port[0] < '1' || port[0] > '9' {
		return fmt.Errorf("port %q is not a number from 1 to 65535", port)
	}
	return nil
}

// secretNames returns the names of the ${secret:NAME} placeholders in v,
// in order, or an error for one that is not closed or names no variable.
func secretNames(v string) ([]string, error) {
	var names []string
	for {
		i := strings.Index(v, "${secret:")
		if i < 0 {
			return names, nil
		}
		v = v[i+len("${secret:"):]
		end := strings.IndexByte(v, '}')
		if end < 0 || !ValidEnvName(v[:end]) {
			bad := v
			if end >= 0 {
				bad = v[:end+1]
			}
			return nil, fmt.Errorf("bad placeholder %q: want ${secret:NAME} with NAME letters, digits and _, not starting with a digit", "${secret:"+bad)
		}
		names = append(names, v[:end])
		v = v[end+1:]
	}
}
