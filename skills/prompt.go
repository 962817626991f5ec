package skills

import (
	"strings"
	"unicode"

	"github.com/gate-dev/gate/internal/safetext"
)

// promptDescriptionLimit is the longest description the prompt shows, in
// characters: the agentskills spec's limit on a description (PraisonAI
// cuts at 1536). A longer one is cut to promptDescriptionLimit-1 characters,
// trailing whitespace removed, and an ellipsis "…" appended.
const promptDescriptionLimit = maxDescription

// promptEntry is one skill as the prompt shows it.
type promptEntry struct {
	// Name is the skill's name.
	Name string
	// Description is shown cut to promptDescriptionLimit characters.
	Description string
	// Location is the absolute path of the skill's SKILL.md, where the
	// model reads the instructions when it picks the skill.
	Location string
}

// Entry returns the prompt entry of s.
func (s *Skill) entry() promptEntry {
	return promptEntry{Name: s.Name, Description: s.Description, Location: s.Path}
}

// formatPrompt writes the <available_skills> block the agentskills spec
// describes, with the entries OpenClaw and PraisonAI write:
//
//	<available_skills>
//	  <skill>
//	    <name>pdf-processor</name>
//	    <description>Extract text and OCR from PDF documents</description>
//	    <location>/abs/skills/pdf-processor/SKILL.md</location>
//	  </skill>
//	</available_skills>
//
// Lines are joined by "\n", with no final newline. Values are escaped as
// Python's html.escape does (& < > " ' as &amp; &lt; &gt; &quot; &#x27;),
// and descriptions are cut to promptDescriptionLimit characters. Whatever
// the names, descriptions and paths hold, the block is well-formed XML 1.0
// in valid UTF-8: see promptText for what is replaced. With no
// entries it returns "": the agentskills client guide says to omit the
// block rather than show an empty one (PraisonAI prints the empty
// wrapper).
func formatPrompt(entries []promptEntry) string {
	if len(entries) == 0 {
		return ""
	}
	var sb strings.Builder
	sb.WriteString("<available_skills>")
	for _, e := range entries {
		writeEntry(&sb, e)
	}
	sb.WriteString("\n</available_skills>")
	return sb.String()
}

// writeEntry writes one <skill> element, each line preceded by "\n".
func writeEntry(sb *strings.Builder, e promptEntry) {
	sb.WriteString("\n  <skill>\n    <name>")
	sb.WriteString(escapeXML(promptText(e.Name)))
	sb.WriteString("</name>\n    <description>")
	sb.WriteString(escapeXML(truncateDescription(promptText(e.Description))))
	sb.WriteString("</description>\n    <location>")
	sb.WriteString(escapeXML(promptText(e.Location)))
	sb.WriteString("</location>\n  </skill>")
}

// entryXML is one <skill> element as formatPrompt writes it, for the
// Manager to cache per skill.
func entryXML(e promptEntry) string {
	var sb strings.Builder
	writeEntry(&sb, e)
	return sb.String()
}

var xmlEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;", "'", "&#x27;")

// escapeXML escapes as html.escape(s, quote=True) does. (Go's
// html.EscapeString writes &#34; and &#39;, which would change the prompt's
// bytes from PraisonAI's.)
func escapeXML(s string) string { return xmlEscaper.Replace(s) }

// promptText is s as the prompt may show it. A skill's name and
// description come from a file anyone may have written, and its location
// from folder names, which on Linux may hold any byte but "/" and NUL; the
// prompt must still parse as XML (expat and xmllint refuse the whole block
// for one bad character), must not let a skill change how the rest reads,
// and must not carry text a model reads but a person reviewing the prompt
// cannot see. So safetext's rule applies, multiline (tab and newline stay:
// descriptions span lines): invalid UTF-8, controls, bidirectional
// formatting, separators and noncharacters (U+FFFE and U+FFFF, which XML
// forbids, among them) become U+FFFD, invisible characters (zero-width,
// tags, variation selectors, ...) are dropped. A carriage return is
// dropped first, as what is left of a CRLF line end.
func promptText(s string) string {
	if strings.IndexByte(s, '\r') >= 0 {
		s = strings.ReplaceAll(s, "\r", "")
	}
	return safetext.Clean(s, true)
}

// truncateDescription cuts a description over promptDescriptionLimit
// characters (runes, as Python counts them) to one less, trims trailing
// whitespace and appends "…".
func truncateDescription(s string) string {
	n := 0
	for i := range s {
		if n == promptDescriptionLimit-1 {
			if len(s[i:]) > 0 && runeCountAtLeast(s[i:], 2) {
				return strings.TrimRightFunc(s[:i], unicode.IsSpace) + "…"
			}
			return s
		}
		n++
	}
	return s
}

// runeCountAtLeast reports whether s has at least n runes, without counting
// all of them.
func runeCountAtLeast(s string, n int) bool {
	for range s {
		n--
		if n == 0 {
			return true
		}
	}
	return n <= 0
}
