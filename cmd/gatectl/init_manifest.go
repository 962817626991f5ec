package main

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/gate-dev/gate/internal/safetext"
)

// initHeader begins every manifest gatectl init writes; %s is the path
// that gatectl check is told to read.
const initHeader = `# A manifest written by gatectl init from what it found on this machine:
# the tools an agent could offer its model, each with the probe that says
# whether it can run right now. See the answers with
#
#   gatectl check -m %s
#
# Each tool stands for one of your agent's tools: rename it, say what it
# does, give it its parameters (a JSON Schema, as in
# examples/quickstart/gate.toml) and keep or change its probe. The probes
# are standard-probe shorthands (gatectl probe run -h): env:VAR is there
# while VAR is set, import:bin:NAME while NAME is on PATH, and redis:,
# postgres:, memcached: and docker: ask the service in its own protocol.

[runtime]
ttl   = "30s"   # an answer is reused for 30 s
grace = "30s"   # a tool that was healthy survives failing re-probes for 30 s after that
`

// initExample is the manifest's one tool when nothing was found.
const initExample = `
# ---- Nothing found: an example to edit -----------------------------------
#
# None of the API keys, services or programs gatectl init looks for is on
# this machine (gatectl init -h lists them). This tool is offered while
# SERP_API_KEY is set; replace it with one of yours.

[[tools]]
name = "search_web"
description = "Search the web for information."
parameters = { type = "object", properties = { query = { type = "string" } }, required = ["query"] }
probe = "env:SERP_API_KEY"
`

// renderManifest is the manifest for what s found; checkPath is the
// path the header tells gatectl check to read.
func renderManifest(s survey, checkPath string) []byte {
	var b strings.Builder
	fmt.Fprintf(&b, initHeader, tomlComment(checkPath))
	if s.count() == 0 {
		b.WriteString(initExample)
		return []byte(b.String())
	}
	for _, section := range []struct {
		title string
		found []found
	}{
		{"API keys set in the environment (their names only)", s.keys},
		{"Services the environment names", s.named},
		{"Services that accept connections here", s.services},
		{"Programs on PATH", s.programs},
	} {
		if len(section.found) == 0 {
			continue
		}
		title := "# ---- " + section.title + " "
		fmt.Fprintf(&b, "\n%s%s\n", title, strings.Repeat("-", max(4, 76-len(title))))
		for _, f := range section.found {
			fmt.Fprintf(&b, "\n[[tools]]\nname = %s\ndescription = %s\n# found: %s\n", tomlString(f.tool), tomlString(f.description), tomlComment(f.why))
			if f.note != "" {
				b.WriteString(wrapComment(f.note))
			}
			fmt.Fprintf(&b, "probe = %s\n", tomlString(f.probe))
		}
	}
	return []byte(b.String())
}

// wrapComment is text as comment lines of at most 76 columns.
func wrapComment(text string) string {
	return "# " + strings.ReplaceAll(wrap(tomlComment(text), 74), "\n", "\n# ") + "\n"
}

// tomlString writes s as a TOML basic string: quoted, with a backslash,
// a quote and every control character escaped, and invalid UTF-8 written
// as U+FFFD (TOML holds UTF-8 only).
func tomlString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range strings.ToValidUTF8(s, string(utf8.RuneError)) {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\u%04X`, r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// tomlComment is s for a comment, which TOML ends at a newline and in
// which it refuses control characters: they are written as escapes, as a
// terminal would be shown them.
func tomlComment(s string) string { return safetext.Terminal(s) }
