// Package safetext is the one rule for text a probe controls (its names,
// the traces and errors that carry them) on its way to a terminal, a JSON
// report or an HTTP response: no character that can move a cursor, forge a
// line or reorder what a reader sees.
package safetext

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
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

// Terminal returns s for a terminal: every character Allowed refuses, and
// every byte that is not valid UTF-8, is written as the Go escape that
// names it ("\x1b", "\r", "\u202e", "\xff"), so that the line cannot be
// rewritten, recoloured, reordered or made to touch the clipboard, and the
// reader still sees that something odd was there (Clean's U+FFFD hides
// which character it was). Tabs and newlines are escaped too: in a table
// they would move columns and forge rows. Backslashes are left alone, so
// Windows paths stay readable; a backslash followed by text that looks
// like an escape was written so by whoever wrote s.
//
// Column widths must be measured on the result, not on s.
func Terminal(s string) string {
	return terminal(s, false)
}

// TerminalLines is Terminal for text of several lines (a probe's output,
// a stack trace): newlines and tabs are kept, everything else Terminal
// escapes is escaped.
func TerminalLines(s string) string {
	return terminal(s, true)
}

func terminal(s string, multiline bool) string {
	keep := func(r rune) bool {
		return Allowed(r) || multiline && (r == '\n' || r == '\t')
	}
	// The common case, text with nothing to escape, costs no allocation.
	clean := true
	for _, r := range s {
		if r == utf8.RuneError || !keep(r) {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size <= 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case keep(r):
			b.WriteString(s[i : i+size])
		default:
			// strconv.QuoteRune gives the shortest Go escape: \a \b \f \n \r
			// \t \v, \x1b for the other C0 controls and DEL, \u0085 for C1,
			// \u202e for the bidirectional controls.
			q := strconv.QuoteRune(r)
			b.WriteString(q[1 : len(q)-1])
		}
		i += size
	}
	return b.String()
}
