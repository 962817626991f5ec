// Package httptoken holds the one check of an HTTP token (RFC 9110,
// section 5.6.2), which methods and header names must be. The host's
// request parser, the Go probe SDK and the shorthands' header options all
// ask it, so that a header one accepts the others do too. It imports
// nothing: the SDK is compiled into probes.
package httptoken

// Valid reports whether s is a token: one or more of the letters, digits
// and !#$%&'*+-.^_`|~.
func Valid(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !isTchar(s[i]) {
			return false
		}
	}
	return true
}

func isTchar(c byte) bool {
	switch {
	case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		return true
	}
	switch c {
	case '!', '#', '$', '%', '&', '\'', '*', '+', '-', '.', '^', '_', '`', '|', '~':
		return true
	}
	return false
}
