package skills

import (
	"regexp"
	"strconv"
	"strings"
	"sync"

	"go.yaml.in/yaml/v3"
)

// lenientKey is the line parser's idea of a key line, the same rule as
// OpenClaw's and Hermes' fallbacks: a key of letters, digits, "_" and "-"
// at the start of the line, a colon, and the rest of the line as the value.
// Compiled on first use (see nameRule).
var lenientKey = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^([A-Za-z0-9_-]+):\s*(.*)$`)
})

// parseLenientFields reads a frontmatter block whose YAML is invalid with a
// key: value line parser, so that the skill still loads. Real files break
// YAML most often with an unquoted ": " in a plain description
// ("description: Use when: ..."), which the line parser takes as part of
// the value; the agentskills client guide, OpenClaw and Hermes all fall
// back the same way.
//
// The rules:
//   - a line "key: value" at column 0 starts a key; "#" comments at column
//     0 end the previous key;
//   - indented lines, blank lines and "- item" lines after a key continue
//     its value;
//   - a value that starts with "|" or ">" is a block scalar: its lines are
//     kept (literal) or joined with spaces (folded);
//   - a value that starts with "[" or "{", or that is empty on the key's
//     line and continues below, is structure: it is parsed as YAML on its
//     own, and stays text if that fails too, with the failure kept in the
//     field (field.malformed): a key whose value is a list reports it and
//     takes nothing from it (reqReader.topLevel), so that
//     "requires_tools: [terminal" requires no tool named "[terminal";
//     metadata is reported as unreadable where it is used;
//   - any other value is text, its continuation lines joined with spaces
//     as a plain YAML scalar would be, and one pair of surrounding quotes
//     stripped.
func parseLenientFields(b block) []field {
	type raw struct {
		key   string
		first string
		line  int
		cont  []string
	}
	var raws []raw
	cur := -1
	lines := strings.Split(strings.TrimSuffix(b.text, "\n"), "\n")
	for i, l := range lines {
		line := b.firstLine + i
		switch {
		case cur >= 0 && (l == "" || l[0] == ' ' || l[0] == '\t' || l == "-" || strings.HasPrefix(l, "- ")):
			raws[cur].cont = append(raws[cur].cont, l)
		case strings.HasPrefix(l, "#"):
			cur = -1
		default:
			m := lenientKey().FindStringSubmatch(l)
			if m == nil {
				cur = -1 // a stray line: neither a key nor a continuation
				continue
			}
			raws = append(raws, raw{key: m[1], first: strings.TrimRight(m[2], " \t"), line: line})
			cur = len(raws) - 1
		}
	}

	out := make([]field, 0, len(raws))
	for _, r := range raws {
		cont := r.cont
		for len(cont) > 0 && strings.TrimSpace(cont[len(cont)-1]) == "" {
			cont = cont[:len(cont)-1]
		}
		value, malformed := lenientValue(r.first, cont, r.line)
		out = append(out, field{key: r.key, line: r.line, value: value, malformed: malformed})
	}
	return out
}

// lenientValue builds the node of one line-parsed value; see
// parseLenientFields for the rules. A structured value that YAML cannot
// parse either is text, and malformed says where and why it failed.
func lenientValue(first string, cont []string, line int) (value *yaml.Node, malformed *Issue) {
	text := func(s string) *yaml.Node {
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s, Line: line}
	}
	switch {
	case strings.HasPrefix(first, "|"), strings.HasPrefix(first, ">"):
		lines := dedent(cont)
		if first[0] == '|' {
			return text(strings.Join(lines, "\n")), nil
		}
		return text(fold(lines)), nil
	case strings.HasPrefix(first, "["), strings.HasPrefix(first, "{"), first == "" && len(cont) > 0:
		src := first
		if len(cont) > 0 {
			src += "\n" + strings.Join(cont, "\n")
		}
		var doc yaml.Node
		err := yaml.Unmarshal([]byte(src), &doc)
		if err == nil {
			if n := resolve(&doc); n != nil {
				rebaseLines(n, line)
				return n, nil
			}
			return text(src), nil
		}
		errLine, msg := yamlError(err, src, line)
		lines := strings.Split(src, "\n")
		at := lines[min(max(errLine-line, 0), len(lines)-1)]
		return text(src), &Issue{Code: CodeRequirement, Line: errLine, Message: excerpt(at) + " (" + msg + ")"}
	case first == "":
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!null", Line: line}, nil
	}
	v := first
	if len(cont) > 0 {
		v = fold(append([]string{first}, dedent(cont)...))
	}
	return text(unquote(v)), nil
}

// excerpt quotes a line of a value, trimmed and cut to 40 bytes, for a
// message that says which value is meant.
func excerpt(line string) string {
	line = strings.TrimSpace(line)
	if len(line) <= 40 {
		return strconv.Quote(line)
	}
	return strconv.Quote(strings.ToValidUTF8(line[:40], "")) + "..."
}

// dedent removes the indentation common to the non-blank lines.
func dedent(lines []string) []string {
	common := -1
	for _, l := range lines {
		if strings.TrimSpace(l) == "" {
			continue
		}
		n := len(l) - len(strings.TrimLeft(l, " \t"))
		if common < 0 || n < common {
			common = n
		}
	}
	out := make([]string, len(lines))
	for i, l := range lines {
		if len(l) >= common && common > 0 {
			l = l[common:]
		}
		out[i] = strings.TrimRight(l, " \t")
	}
	return out
}

// fold joins lines as YAML folds a plain or ">" scalar: with single spaces,
// a blank line standing for a line break.
func fold(lines []string) string {
	var sb strings.Builder
	pendingBreak := false
	for _, l := range lines {
		l = strings.TrimSpace(l)
		if l == "" {
			pendingBreak = true
			continue
		}
		if sb.Len() > 0 {
			if pendingBreak {
				sb.WriteByte('\n')
			} else {
				sb.WriteByte(' ')
			}
		}
		pendingBreak = false
		sb.WriteString(l)
	}
	return sb.String()
}

// unquote strips one pair of surrounding quotes. A double-quoted value is
// decoded as YAML would (escapes included) when it can be; a single-quoted
// one has its doubled quotes undone.
func unquote(s string) string {
	if len(s) < 2 || s[0] != s[len(s)-1] || (s[0] != '"' && s[0] != '\'') {
		return s
	}
	if s[0] == '"' {
		var v string
		if yaml.Unmarshal([]byte(s), &v) == nil {
			return v
		}
		return s[1 : len(s)-1]
	}
	return strings.ReplaceAll(s[1:len(s)-1], "''", "'")
}
