package safetext

import (
	"slices"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestClean(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		in        string
		multiline bool
		want      string
	}{
		{"plain", "plain text, ünïcode, 漢字, emoji 🔍", false, "plain text, ünïcode, 漢字, emoji 🔍"},
		{"c0 c1 del", "bell\a esc\x1b[2J del\x7f c1\u0085", false, "bell\uFFFD esc\uFFFD[2J del\uFFFD c1\uFFFD"},
		{"bidi", "rlo\u202eevil\u202c lri\u2066x\u2069 alm\u061c lrm\u200e", false, "rlo\uFFFDevil\uFFFD lri\uFFFDx\uFFFD alm\uFFFD lrm\uFFFD"},
		{"separators", "line\u2028sep\u2029", false, "line\uFFFDsep\uFFFD"},
		{"newlines single-line", "two\nlines\tand\rcr", false, "two\uFFFDlines\uFFFDand\uFFFDcr"},
		{"newlines multiline", "two\nlines\tand\rcr", true, "two\nlines\tand\uFFFDcr"},
		{"bad utf-8", "bad \xff utf-8", false, "bad \uFFFD utf-8"},
		{"noncharacters", "a\uFFFEb\uFDD0c\U0010FFFF", false, "a\uFFFDb\uFFFDc\uFFFD"},
		// ASCII smuggled in tag characters: "ignore" written invisibly.
		{"tags", "Search the web.\U000E0001\U000E0069\U000E0067\U000E006E\U000E006F\U000E0072\U000E0065\U000E007F", false, "Search the web."},
		{"zero width", "pass\u200bword\u200c\u200d", false, "password"},
		{"word joiner and invisible operators", "a\u2060b\u2061c\u2062d\u2063e\u2064f", false, "abcdef"},
		{"bom, mongolian vowel separator, soft hyphen", "\uFEFFa\u180Eb\u00ADc", false, "abc"},
		{"hangul fillers", "a\u115Fb\u1160c\u3164d\uFFA0e", false, "abcde"},
		{"variation selectors", "\u26A0\uFE0F care, x\uFE00\U000E0100\U000E01EF", false, "\u26A0 care, x"},
		{"interlinear annotation", "a\uFFF9hidden\uFFFAnote\uFFFBb", false, "ahiddennoteb"},
		{"combining grapheme joiner, khmer inherent vowels", "a\u034Fb\u17B4\u17B5c", false, "abc"},
		{"a real U+FFFD stays", "\uFFFD", false, "\uFFFD"},
		{"empty", "", false, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got := Clean(tt.in, tt.multiline)
			assert.Equal(t, tt.want, got, "%q", tt.in)
			assert.Equal(t, got, Clean(got, tt.multiline), "not idempotent")
		})
	}
}

// Every tag character (the 95 that spell ASCII, their language tag and
// cancel tag, and the reserved rest of the block) and every character of
// the invisible kinds is refused, whatever its place in the text.
func TestRuleRefusesEveryInvisible(t *testing.T) {
	t.Parallel()
	ranges := [][2]rune{
		{0xE0000, 0xE007F},                 // tags
		{0x200B, 0x200D}, {0x2060, 0x2064}, // zero-width, word joiner, invisible operators
		{0xFEFF, 0xFEFF}, {0x180E, 0x180E}, {0x00AD, 0x00AD},
		{0x115F, 0x1160}, {0x3164, 0x3164}, {0xFFA0, 0xFFA0},
		{0xFE00, 0xFE0F}, {0xE0100, 0xE01EF}, {0x180B, 0x180D}, // variation selectors
	}
	for _, rg := range ranges {
		for r := rg[0]; r <= rg[1]; r++ {
			require.False(t, Allowed(r), "%U", r)
			require.Equal(t, Drop, ActionOf(r), "%U", r)
			assert.Equal(t, "ab", Clean("a"+string(r)+"b", true), "%U", r)
			assert.Equal(t, 1, IndexRefused("a"+string(r), false), "%U", r)
		}
	}
	for _, r := range []rune{'a', ' ', 'é', '漢', '🔍', 0x2800, 0x3000, 0x00A0, 0xFFFD} {
		assert.True(t, Allowed(r), "%U", r)
	}
}

// Each class of Rule holds characters, and none of an earlier class: the
// order decides only where classes overlap (bidi controls are Cf).
func TestRuleClasses(t *testing.T) {
	t.Parallel()
	for i, c := range Rule {
		n := 0
		for r := rune(0); r <= unicode.MaxRune; r++ {
			if !unicode.Is(c.Table, r) {
				continue
			}
			n++
			first, ok := ClassOf(r)
			require.True(t, ok)
			if first.Name != c.Name {
				require.True(t, slices.IndexFunc(Rule[:i], func(e Class) bool { return e.Name == first.Name }) >= 0, "%U", r)
			}
		}
		assert.NotZero(t, n, c.Name)
	}
	assert.Equal(t, Replace, ActionOf(0x202E))
	assert.Equal(t, Drop, ActionOf(0x200B))
}

// FuzzClean: whatever goes in, what comes out is valid UTF-8 with no
// character Rule refuses (multiline: but newlines and tabs), cleaning it
// again changes nothing, and text with nothing to clean comes back as it
// is.
func FuzzClean(f *testing.F) {
	for _, s := range []string{"", "plain", "\u202e\u2066", "\xff\xfe", "\uFFFD", "a\nb\tc\r", "\U000E0041\u200b\uFE0F", "\u3164\u115f", "\uFFFE\U0010FFFF"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, multiline := range []bool{false, true} {
			out := Clean(s, multiline)
			if !utf8.ValidString(out) {
				t.Fatalf("%q: output %q is not valid UTF-8", s, out)
			}
			if i := IndexRefused(out, multiline); i >= 0 {
				t.Fatalf("%q: output %q holds a refused character at %d", s, out, i)
			}
			for _, r := range out {
				if !Allowed(r) && !(multiline && (r == '\n' || r == '\t')) {
					t.Fatalf("%q: output %q holds %U", s, out, r)
				}
			}
			if again := Clean(out, multiline); again != out {
				t.Fatalf("%q: cleaned %q, then %q", s, out, again)
			}
			if IndexRefused(s, multiline) < 0 && out != s {
				t.Fatalf("%q: nothing to clean, yet got %q", s, out)
			}
		}
	})
}

func TestTerminal(t *testing.T) {
	t.Parallel()
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
		{"invisible", "a\u200bb\U000E0041c\uFE0Fd\u3164", `a\u200bb\U000e0041c\ufe0fd\u3164`, `a\u200bb\U000e0041c\ufe0fd\u3164`},
		{"a real U+FFFD stays", "\uFFFD", "\uFFFD", "\uFFFD"},
		{"empty", "", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tt.want, Terminal(tt.in))
			assert.Equal(t, tt.wantLines, TerminalLines(tt.in))
		})
	}
}

// FuzzTerminal: whatever goes in, what comes out is valid UTF-8 with no
// character Allowed refuses (TerminalLines: but newlines and tabs), and
// text with nothing to escape comes out unchanged.
func FuzzTerminal(f *testing.F) {
	for _, s := range []string{"", "plain", "\r\x1b[2Kx", "\x1b]52;c;QQ==\a", "\u202e\u2066", "\xff\xfe", "\uFFFD", "a\nb\tc", "\u0085\u009f\x7f", "\uFE0F\u3164\U000E0041"} {
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
