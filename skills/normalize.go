package skills

import (
	"fmt"
	"strings"
	"unicode"
)

// normalizeList turns a requirement value into a list of names, as
// PraisonAI's SkillRequirements._normalize_list does, so that every
// spelling its users write keeps working:
//
//   - a string: commas count as whitespace, and it is split on whitespace
//     ("a b c", "a,b,c" and "a, b c" all give [a b c]; "" gives nothing);
//   - a list ([]string or []any): each item is stringified and trimmed, and
//     empty items are dropped; items are not split on commas (["a,b"] stays
//     ["a,b"]), again as in PraisonAI. A nil item, which PraisonAI turns
//     into the name "None", is dropped, and so is an item that is itself a
//     list or a map, which PraisonAI turns into its Python repr;
//   - anything else (nil, a number, a map) gives nothing: requires_tools:
//     123 is no requirement at all, as in PraisonAI.
//
// The result is nil when there are no names.
func normalizeList(v any) []string {
	switch v := v.(type) {
	case string:
		return splitNames(v)
	case []string:
		var out []string
		for _, s := range v {
			if s = strings.TrimSpace(s); s != "" {
				out = append(out, s)
			}
		}
		return out
	case []any:
		var out []string
		for _, item := range v {
			var s string
			switch item := item.(type) {
			case nil, []any, []string, map[string]any:
				continue
			case string:
				s = item
			default:
				s = fmt.Sprint(item)
			}
			if s = strings.TrimSpace(s); s != "" {
				out = append(out, s)
			}
		}
		return out
	}
	return nil
}

// splitNames splits s on commas and whitespace and drops empty pieces.
func splitNames(s string) []string {
	out := strings.FieldsFunc(s, func(r rune) bool { return r == ',' || unicode.IsSpace(r) })
	if len(out) == 0 {
		return nil
	}
	return out
}

// normalizeCSVList reads an OpenClaw list field (requires.bins,
// requires.anyBins, requires.env, requires.config, os) the way OpenClaw's
// normalizeCsvOrLooseStringList does: a list gives its items stringified
// and trimmed, a string is split on commas, anything else gives nothing.
// Empty items are dropped.
//
// A string is also split on whitespace, which OpenClaw does not do: a
// binary, a variable or a config path never holds a space, so "gh jq"
// meant two names, and OpenClaw would have looked for one named "gh jq"
// that cannot exist.
func normalizeCSVList(v any) []string {
	// The list and string forms are exactly normalizeList's; keeping a
	// separate name documents which dialect a call site reads.
	return normalizeList(v)
}

// splitPermissionPatterns splits an allowed-tools string into its
// permission patterns, such as "Bash(git add:*)", "Bash(infsh *)", "Read"
// or "mcp__github__create_issue". Patterns are separated by whitespace or
// commas outside parentheses: a space or comma inside "(...)" belongs to the
// pattern. An unbalanced "(" runs to the end of the string; a ")" with no
// "(" is an ordinary character.
func splitPermissionPatterns(s string) []string {
	var out []string
	depth := 0
	start := -1
	for i, r := range s {
		sep := depth == 0 && (r == ',' || unicode.IsSpace(r))
		switch {
		case sep:
			if start >= 0 {
				out = append(out, s[start:i])
				start = -1
			}
			continue
		case r == '(':
			depth++
		case r == ')' && depth > 0:
			depth--
		}
		if start < 0 {
			start = i
		}
	}
	if start >= 0 {
		out = append(out, s[start:])
	}
	return out
}

// permissionToolName returns the tool a permission pattern is about: the
// part before its first "(", trimmed ("Bash(git add:*)" gives "Bash",
// "Read" gives "Read"). It is "" for a pattern that names no tool, such as
// "(x)".
func permissionToolName(pattern string) string {
	if i := strings.IndexByte(pattern, '('); i >= 0 {
		pattern = pattern[:i]
	}
	return strings.TrimSpace(pattern)
}

// allowedTools reads an allowed-tools value (a string, or a list of
// strings) into its permission patterns and the tool names they require.
//
// allowed-tools is a permission list in Claude Code and the agentskills
// spec: "Bash(git add:*) Read" allows two tools, Bash and Read. PraisonAI
// splits it on spaces into the bogus requirements "Bash(git", "add:*)" and
// "Read", which hides such skills under strict enforcement.
// Here each string (each list item too) is split with
// splitPermissionPatterns, and each pattern requires its tool name; both
// results keep the first-seen order and drop duplicates.
func allowedTools(v any) (patterns, tools []string) {
	var raw []string
	switch v := v.(type) {
	case string:
		raw = splitPermissionPatterns(v)
	case []string:
		for _, s := range v {
			raw = append(raw, splitPermissionPatterns(s)...)
		}
	case []any:
		for _, item := range v {
			switch item := item.(type) {
			case nil, []any, []string, map[string]any:
			case string:
				raw = append(raw, splitPermissionPatterns(item)...)
			default:
				raw = append(raw, splitPermissionPatterns(fmt.Sprint(item))...)
			}
		}
	}
	return dedupe(raw), dedupe(mapNonEmpty(raw, permissionToolName))
}

func mapNonEmpty(in []string, f func(string) string) []string {
	var out []string
	for _, s := range in {
		if s = f(s); s != "" {
			out = append(out, s)
		}
	}
	return out
}

// dedupe returns in without repeated strings, in first-seen order; nil when
// in is empty.
func dedupe(in []string) []string {
	return appendUnique(nil, in...)
}

// appendUnique appends to dst the items of add not already in dst. Short
// lists, the usual case, are searched linearly; long ones through a set, so
// that a hostile file with thousands of names costs linear time.
func appendUnique(dst []string, add ...string) []string {
	if len(dst)+len(add) <= 32 {
		for _, s := range add {
			dup := false
			for _, d := range dst {
				if d == s {
					dup = true
					break
				}
			}
			if !dup {
				dst = append(dst, s)
			}
		}
		return dst
	}
	seen := make(map[string]struct{}, len(dst)+len(add))
	for _, d := range dst {
		seen[d] = struct{}{}
	}
	for _, s := range add {
		if _, dup := seen[s]; !dup {
			seen[s] = struct{}{}
			dst = append(dst, s)
		}
	}
	return dst
}
