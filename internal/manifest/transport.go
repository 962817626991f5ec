package manifest

import "slices"

// Transports are the values of a url server's transport key, the first
// the default: how gate's MCP gateway speaks to the server at the url.
//
//	streamable  MCP's streamable HTTP transport (2025-03-26 and later)
//	sse         the HTTP+SSE transport of 2024-11-05: an event stream
//	            from url, and messages posted to the endpoint it names
var Transports = []string{TransportStreamable, TransportSSE}

// The transports of a url server (Upstream.Transport).
const (
	TransportStreamable = "streamable"
	TransportSSE        = "sse"
)

// transport checks a server's transport key (v, at the place at); hasURL
// says whether the server has a url, which the key is only about. The
// default is returned as "", as if not written, so that a manifest that
// writes it means what one that does not means.
func (c *checker) transport(at place, v any, hasURL bool) string {
	s, ok := c.str(at, v, `a transport (a string): "streamable" (the default) or "sse"`)
	switch {
	case !ok:
		return ""
	case !hasURL:
		c.keyErr(at, "transport is only allowed with url: a server run with command is spoken to over stdio")
		return ""
	case !slices.Contains(Transports, s):
		c.valueErr(at, `unknown transport %q: want "streamable" (MCP's streamable HTTP, the default) or "sse" (the HTTP+SSE transport of 2024-11-05)`, s)
		return ""
	case s == TransportStreamable:
		return ""
	}
	return s
}
