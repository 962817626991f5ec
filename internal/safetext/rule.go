package safetext

import (
	"unicode"
	"unicode/utf8"
)

// Action is what the rule does with a character.
type Action uint8

const (
	// Keep: the character stands as it is.
	Keep Action = iota
	// Replace: the character becomes U+FFFD. It acts on the text around
	// it (moves a cursor, rings, ends a line, reorders what follows), so
	// a reader must see that something was there.
	Replace
	// Drop: the character is removed. It renders as nothing, so the text
	// without it reads as the text with it did; what a model is given is
	// then what a person sees.
	Drop
)

// Class is one kind of character the rule refuses.
type Class struct {
	Name   string // what one such character is, for a message
	Holds  string // which characters, for the documentation
	Table  *unicode.RangeTable
	Action Action
}

// Rule is the one rule for text that reaches a terminal, a log, a report,
// an XML prompt or a model: the first class that holds a character
// decides what becomes of it; a character in none is kept. The classes
// are Unicode's, from the tables of Go's unicode package (Unicode
// 15.0.0): general categories Cc, Cf, Zl, Zp, and the properties
// Variation_Selector, Other_Default_Ignorable_Code_Point and
// Noncharacter_Code_Point. Together they hold every control and every
// Default_Ignorable_Code_Point (which Unicode derives from Cf,
// Variation_Selector and Other_Default_Ignorable_Code_Point).
var Rule = []Class{
	{"a control character", "C0 and C1 controls and DEL (Cc)", unicode.Cc, Replace},
	{"a bidirectional formatting character", "ALM, LRM, RLM, embeddings, overrides and isolates", bidi, Replace},
	{"a line or paragraph separator", "U+2028, U+2029 (Zl, Zp)", separators, Replace},
	{"a noncharacter", "U+FDD0-FDEF, U+FFFE and U+FFFF of every plane", unicode.Noncharacter_Code_Point, Replace},
	{"an invisible format character", "every other Cf: soft hyphen, zero-width space and joiners, word joiner, invisible operators, byte order mark, Mongolian vowel separator, interlinear annotation, tags U+E0000-E007F, ...", unicode.Cf, Drop},
	{"a variation selector", "U+180B-180D, U+180F, U+FE00-FE0F, U+E0100-E01EF", unicode.Variation_Selector, Drop},
	{"an invisible character", "the other default-ignorable code points: combining grapheme joiner, Hangul fillers U+115F, U+1160, U+3164, U+FFA0, Khmer inherent vowels, reserved U+2065, U+FFF0-FFF8, U+E0000-E0FFF", unicode.Other_Default_Ignorable_Code_Point, Drop},
}

// bidi are the bidirectional formatting characters, which reorder what
// follows them on screen (the "Trojan Source" trick). They are Cf, and
// come before Cf in Rule so that they are replaced, not dropped.
var bidi = &unicode.RangeTable{R16: []unicode.Range16{
	{Lo: 0x061c, Hi: 0x061c, Stride: 1}, // ALM
	{Lo: 0x200e, Hi: 0x200f, Stride: 1}, // LRM, RLM
	{Lo: 0x202a, Hi: 0x202e, Stride: 1}, // LRE, RLE, PDF, LRO, RLO
	{Lo: 0x2066, Hi: 0x2069, Stride: 1}, // LRI, RLI, FSI, PDI
}}

var separators = &unicode.RangeTable{R16: []unicode.Range16{{Lo: 0x2028, Hi: 0x2029, Stride: 1}}}

// ActionOf returns what the rule does with r.
func ActionOf(r rune) Action {
	if r < utf8.RuneSelf {
		if r < 0x20 || r == 0x7f {
			return Replace
		}
		return Keep
	}
	if c, ok := ClassOf(r); ok {
		return c.Action
	}
	return Keep
}

// ClassOf returns the class of Rule that holds r, and false for a
// character the rule keeps.
func ClassOf(r rune) (Class, bool) {
	for _, c := range Rule {
		if unicode.Is(c.Table, r) {
			return c, true
		}
	}
	return Class{}, false
}
