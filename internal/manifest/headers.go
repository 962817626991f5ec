package manifest

import (
	"maps"
	"slices"
	"strings"
)

// Header is one header gate's MCP gateway sends with every request to a
// url upstream (Upstream.Headers).
type Header struct {
	// Name is an HTTP field name (RFC 9110 token characters) as written;
	// names are unique regardless of case.
	Name string `json:"name"`
	// Value is the value as written: no control characters, and each
	// ${secret:NAME} in it expanded from gate's environment when a session
	// starts (SecretNames, ExpandSecrets).
	Value string `json:"value"`
}

// The bounds of an upstream's headers: far above what any credential
// needs (a JWT is a few KiB), and within what servers accept of a request's
// headers (8 KiB a field is common).
const (
	maxHeaders     = 32
	maxHeaderName  = 128
	maxHeaderValue = 8 << 10
)

// transportHeaders are the headers gate's HTTP transport and the MCP SDK
// set themselves, by lower-case name, with why a manifest may not: a
// value written there would break the protocol, smuggle a second request,
// or reach a proxy rather than the server.
var transportHeaders = map[string]string{
	"host":                 "it names the server, which url does",
	"content-type":         "MCP's transport sets it",
	"content-length":       "the transport sets it from the body",
	"content-encoding":     "the transport sends bodies as they are",
	"transfer-encoding":    "the transport frames the body",
	"accept":               "MCP's transport sets it",
	"accept-encoding":      "the transport negotiates compression",
	"connection":           "the transport manages connections",
	"keep-alive":           "the transport manages connections",
	"proxy-connection":     "the transport manages connections",
	"proxy-authorization":  "it goes to a proxy, not to the server",
	"te":                   "the transport manages it",
	"trailer":              "the transport manages it",
	"upgrade":              "the transport manages it",
	"expect":               "the transport manages it",
	"mcp-session-id":       "MCP's transport sets it",
	"mcp-protocol-version": "MCP's transport sets it",
	"last-event-id":        "MCP's transport sets it when it resumes a stream",
}

// validHeaderName reports whether s is an HTTP field name: 1 or more
// token characters (RFC 9110, section 5.6.2).
func validHeaderName(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		case strings.IndexByte("!#$%&'*+-.^_`|~", c) >= 0:
		default:
			return false
		}
	}
	return true
}

// controlIn returns the first control character of s (C0, DEL), or -1:
// none may be in a header value, where CR or LF would end the field and
// start another.
func controlIn(s string) int {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c == 0x7f {
			return int(c)
		}
	}
	return -1
}

// headers checks an upstream's headers table, returning them sorted by
// lower-case name (each once, whatever its case).
func (c *checker) headers(at place, v any) []Header {
	t, ok := c.table(at, v, `a table of strings like { "X-Api-Key" = "${secret:API_KEY}" }`)
	if !ok {
		return nil
	}
	if len(t) > maxHeaders {
		c.valueErr(at, "%d headers: want at most %d", len(t), maxHeaders)
		return nil
	}
	out := make([]Header, 0, len(t))
	seen := make(map[string]string, len(t)) // lower-case name: as written
	good := true
	for _, k := range slices.Sorted(maps.Keys(t)) {
		p := c.key(at, k)
		lower := strings.ToLower(k)
		switch why, owned := transportHeaders[lower]; {
		case len(k) > maxHeaderName || !validHeaderName(k):
			c.keyErr(p, "bad header name %q: want at most %d letters, digits and !#$%%&'*+-.^_`|~ (an HTTP field name)", clip(k), maxHeaderName)
			good = false
			continue
		case owned:
			c.keyErr(p, "header %s is not the manifest's to set: %s", k, why)
			good = false
			continue
		}
		if first, dup := seen[lower]; dup {
			c.keyErr(c.later(at, k, first), "header %s written twice (as %s and %s): HTTP field names are case-insensitive", k, first, k)
			good = false
			continue
		}
		seen[lower] = k
		s, ok := c.str(p, t[k], `a string (a header's value), like "Bearer ${secret:TOKEN}"`)
		if !ok || !c.headerValue(p, s) {
			good = false
			continue
		}
		out = append(out, Header{Name: k, Value: s})
	}
	if !good {
		return nil
	}
	slices.SortFunc(out, func(a, b Header) int { return strings.Compare(strings.ToLower(a.Name), strings.ToLower(b.Name)) })
	return out
}

// headerValue checks a header's value as written.
func (c *checker) headerValue(at place, s string) bool {
	if len(s) > maxHeaderValue {
		c.valueErr(at, "header value of %d bytes: want at most %d", len(s), maxHeaderValue)
		return false
	}
	if ch := controlIn(s); ch >= 0 {
		c.valueErr(at, "header value with the control character %#02x: a header value may not hold CR, LF, NUL or any other control", ch)
		return false
	}
	if _, err := SecretNames(s); err != nil {
		c.valueErr(at, "%v", err)
		return false
	}
	return true
}

// hasHeader reports whether hs has a header of that name, in any case.
func hasHeader(hs []Header, name string) bool {
	return slices.ContainsFunc(hs, func(h Header) bool { return strings.EqualFold(h.Name, name) })
}

// clip cuts a name from the manifest to 64 bytes for a message.
func clip(s string) string {
	if len(s) > 64 {
		return s[:64] + "..."
	}
	return s
}

// credentials checks the keys that give a url upstream its credentials,
// headers and oauth, into u.
func (c *checker) credentials(at place, t map[string]any, u *Upstream, hasURL bool) {
	if !hasURL {
		c.notAllowed(at, t, []string{"headers", "oauth"}, "%s is only allowed with url: a server run with command is given its credentials in env")
		return
	}
	if v, p, ok := c.field(at, t, "headers"); ok {
		u.Headers = c.headers(p, v)
	}
	if v, p, ok := c.field(at, t, "oauth"); ok {
		u.OAuth = c.oauth(p, v)
		if hasHeader(u.Headers, "Authorization") {
			for _, h := range u.Headers {
				if strings.EqualFold(h.Name, "Authorization") {
					c.keyErr(c.key(c.key(at, "headers"), h.Name), "an Authorization header and oauth exclude each other: oauth sends its token as the Authorization header")
				}
			}
		}
	}
}
