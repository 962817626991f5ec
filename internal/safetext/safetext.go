// Package safetext is the one rule (Rule) for text gate did not write (a
// probe's names and traces, an upstream's tool descriptions and schemas, a
// skill's files) on its way to a terminal, a JSON report, an HTTP
// response, an XML prompt or a model: no character that can move a
// cursor, forge a line or reorder what a reader sees, and none that a
// reader cannot see at all, which would let text reach a model while it
// hides from the person reviewing what the model was told.
package safetext

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Allowed reports whether r may appear as it is: Rule keeps it.
func Allowed(r rune) bool { return ActionOf(r) == Keep }

// Clean returns s as valid UTF-8 (each bad byte sequence U+FFFD) with
// Rule applied: each character it replaces becomes U+FFFD, each it drops
// is removed. With multiline, newlines and tabs are kept. Clean is
// idempotent, and text Rule keeps whole comes back as it is, without an
// allocation.
func Clean(s string, multiline bool) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	if IndexRefused(s, multiline) < 0 {
		return s
	}
	return strings.Map(func(r rune) rune {
		switch ActionOf(r) {
		case Keep:
			return r
		case Drop:
			return -1
		}
		if multiline && (r == '\n' || r == '\t') {
			return r
		}
		return '\uFFFD'
	}, s)
}

// IndexRefused returns the byte index in s of the first character Rule
// does not keep (with multiline, newlines and tabs are kept), or of the
// first byte that is not valid UTF-8; -1 when there is none.
func IndexRefused(s string, multiline bool) int {
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c < 0x7f || multiline && (c == '\n' || c == '\t') {
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size <= 1 || ActionOf(r) != Keep {
			return i
		}
		i += size
	}
	return -1
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
			// strconv.QuoteRuneToASCII gives the shortest Go escape: \a \b
			// \f \n \r \t \v, \x1b for the other C0 controls and DEL,
			// \u0085 for C1, \u202e for the bidirectional controls, and
			// \ufe0f or \U000e0041 for the invisible ones, even those Go
			// counts as printable (variation selectors, Hangul fillers).
			q := strconv.QuoteRuneToASCII(r)
			b.WriteString(q[1 : len(q)-1])
		}
		i += size
	}
	return b.String()
}
