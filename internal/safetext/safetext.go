// Package safetext is the one rule for text a probe controls (its names,
// the traces and errors that carry them) on its way to a terminal, a JSON
// report or an HTTP response: no character that can move a cursor, forge a
// line or reorder what a reader sees.
package safetext

import (
	"strings"
	"unicode"
)

// Allowed reports whether r may appear as it is: not a C0 or C1 control
// (nor DEL), not a Unicode bidirectional formatting character, not a line
// or paragraph separator.
func Allowed(r rune) bool {
	if unicode.IsControl(r) {
		return false
	}
	switch r {
	case 0x061c, 0x200e, 0x200f, // ALM, LRM, RLM
		0x202a, 0x202b, 0x202c, 0x202d, 0x202e, // LRE, RLE, PDF, LRO, RLO
		0x2066, 0x2067, 0x2068, 0x2069, // LRI, RLI, FSI, PDI
		0x2028, 0x2029: // line and paragraph separators
		return false
	}
	return true
}

// Clean returns s as valid UTF-8 with every character Allowed refuses
// replaced by U+FFFD; with multiline, newlines and tabs are kept.
func Clean(s string, multiline bool) string {
	clean := func(r rune) rune {
		if Allowed(r) || multiline && (r == '\n' || r == '\t') {
			return r
		}
		return '\uFFFD'
	}
	s = strings.ToValidUTF8(s, "\uFFFD")
	if strings.IndexFunc(s, func(r rune) bool { return clean(r) != r }) < 0 {
		return s
	}
	return strings.Map(clean, s)
}
