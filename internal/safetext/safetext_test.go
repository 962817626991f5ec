package safetext

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
)

func TestClean(t *testing.T) {
	tests := []struct {
		in        string
		multiline bool
		want      string
	}{
		{"plain text, ünïcode", false, "plain text, ünïcode"},
		{"bell\a esc\x1b[2J del\x7f c1\u0085", false, "bell\uFFFD esc\uFFFD[2J del\uFFFD c1\uFFFD"},
		{"rlo\u202eevil\u202c lri\u2066x\u2069 alm\u061c", false, "rlo\uFFFDevil\uFFFD lri\uFFFDx\uFFFD alm\uFFFD"},
		{"line\u2028sep", false, "line\uFFFDsep"},
		{"two\nlines\tand\rcr", false, "two\uFFFDlines\uFFFDand\uFFFDcr"},
		{"two\nlines\tand\rcr", true, "two\nlines\tand\uFFFDcr"},
		{"bad \xff utf-8", false, "bad \uFFFD utf-8"},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, Clean(tt.in, tt.multiline), "%q", tt.in)
	}
}

func TestTerminal(t *testing.T) {
	tests := []struct {
		name, in, want, wantLines string
	}{
		{"plain", "plain text, ünïcode, C:\\Users", "plain text, ünïcode, C:\\Users", "plain text, ünïcode, C:\\Users"},
		{"forged row", "\r\x1b[2Kdeploy_prod  available", `\r\x1b[2Kdeploy_prod  available`, `\r\x1b[2Kdeploy_prod  available`},
		{"osc 52 clipboard", "\x1b]52;c;ZXZpbA==\a", `\x1b]52;c;ZXZpbA==\a`, `\x1b]52;c;ZXZpbA==\a`},
		{"nul, del, c1", "a\x00b\x7fc\u0085d\u009b", `a\x00b\x7fc\u0085d\u009b`, `a\x00b\x7fc\u0085d\u009b`},
		{"bidi", "rlo\u202eevil\u202c lri\u2066x\u2069 alm\u061c lrm\u200e rlm\u200f", `rlo\u202eevil\u202c lri\u2066x\u2069 alm\u061c lrm\u200e rlm\u200f`, `rlo\u202eevil\u202c lri\u2066x\u2069 alm\u061c lrm\u200e rlm\u200f`},
		{"line separators", "a\u2028b\u2029c", `a\u2028b\u2029c`, `a\u2028b\u2029c`},
		{"newline and tab", "two\nlines\tand\rcr", `two\nlines\tand\rcr`, "two\nlines\tand\\rcr"},
		{"invalid utf-8", "bad \xff\xc3 utf-8", `bad \xff\xc3 utf-8`, `bad \xff\xc3 utf-8`},
		{"a real U+FFFD stays", "\uFFFD", "\uFFFD", "\uFFFD"},
		{"empty", "", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, Terminal(tt.in))
			assert.Equal(t, tt.wantLines, TerminalLines(tt.in))
		})
	}
}

// FuzzTerminal: whatever goes in, what comes out is valid UTF-8 with no
// character Allowed refuses (TerminalLines: but newlines and tabs), and
// text with nothing to escape comes out unchanged.
func FuzzTerminal(f *testing.F) {
	for _, s := range []string{"", "plain", "\r\x1b[2Kx", "\x1b]52;c;QQ==\a", "\u202e\u2066", "\xff\xfe", "\uFFFD", "a\nb\tc", "\u0085\u009f\x7f"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, multiline := range []bool{false, true} {
			out := Terminal(s)
			if multiline {
				out = TerminalLines(s)
			}
			if !utf8.ValidString(out) {
				t.Fatalf("%q: output %q is not valid UTF-8", s, out)
			}
			for _, r := range out {
				if !Allowed(r) && !(multiline && (r == '\n' || r == '\t')) {
					t.Fatalf("%q: output %q holds %U", s, out, r)
				}
			}
			if utf8.ValidString(s) && strings.IndexFunc(s, func(r rune) bool {
				return !Allowed(r) && !(multiline && (r == '\n' || r == '\t'))
			}) < 0 && out != s {
				t.Fatalf("%q: nothing to escape, yet got %q", s, out)
			}
		}
	})
}
