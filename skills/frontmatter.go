package skills

import (
	"fmt"
	"strings"

	"go.yaml.in/yaml/v3"
)

// maxFrontmatterBytes is how much of a SKILL.md is read: 64 KiB. The
// frontmatter must close within it (real frontmatter is well under 4 KiB;
// Hermes reads only the first few thousand characters). The cap bounds the
// time one hostile or broken file can cost the YAML parser, whatever its
// size, and lets discovery read only the head of large files.
const maxFrontmatterBytes = 64 << 10

const bom = "\ufeff"

// noFrontmatter begins the message of a SKILL.md without frontmatter,
// which is not a skill: it says what the file lacks and the agentskills
// spec's rule it breaks.
const noFrontmatter = "no frontmatter (--- ... ---) at the top: a SKILL.md starts with its name and description between two lines '---' (the agentskills spec)"

// block is a frontmatter block cut out of a SKILL.md.
type block struct {
	text      string // the lines between the delimiters, "\n"-terminated
	openLine  int    // the file line of the opening "---" (1-based)
	firstLine int    // the file line of text's first line
	bodyLine  int    // the file line just after the closing "---"
}

// extractFrontmatter finds the frontmatter of a SKILL.md. It strips one
// UTF-8 byte order mark (Windows editors add one), reads CRLF and CR line
// endings as LF, skips blank lines before the opening "---", and takes as
// the closing delimiter the next line that is exactly "---" (trailing
// spaces and tabs allowed). A "---" inside a value, or an indented one
// inside a block scalar, does not close it: PraisonAI's parser,
// split("---", 2), ends the frontmatter at the next "---" anywhere and cuts
// such files in two.
//
// A file with no frontmatter or an unclosed one gives an Issue: the skill
// has no metadata, so it cannot be offered.
func extractFrontmatter(data []byte) (block, *Issue) {
	truncated := len(data) > maxFrontmatterBytes
	if truncated {
		data = data[:maxFrontmatterBytes]
	}
	text := strings.TrimPrefix(string(data), bom)
	if strings.IndexByte(text, '\r') >= 0 {
		text = strings.ReplaceAll(text, "\r\n", "\n")
		text = strings.ReplaceAll(text, "\r", "\n")
	}

	var b block
	line := 0
	var body strings.Builder
	for rest := text; rest != ""; {
		var l string
		if i := strings.IndexByte(rest, '\n'); i >= 0 {
			l, rest = rest[:i], rest[i+1:]
		} else {
			l, rest = rest, ""
		}
		line++
		isDelim := strings.TrimRight(l, " \t") == "---"
		switch {
		case b.openLine == 0 && strings.TrimSpace(l) == "":
			continue
		case b.openLine == 0 && isDelim:
			b.openLine = line
			b.firstLine = line + 1
		case b.openLine == 0:
			return block{}, &Issue{Code: CodeNoFrontmatter, Line: line,
				Message: noFrontmatter + "; this one starts with other text"}
		case isDelim:
			b.text = body.String()
			b.bodyLine = line + 1
			return b, nil
		default:
			body.WriteString(l)
			body.WriteByte('\n')
		}
	}
	switch {
	case b.openLine == 0:
		return block{}, &Issue{Code: CodeNoFrontmatter, Message: noFrontmatter + "; this one is empty"}
	case truncated:
		return block{}, &Issue{Code: CodeUnclosed, Line: b.openLine,
			Message: fmt.Sprintf("frontmatter not closed: no line '---' after line %d within the first %d KiB read", b.openLine, maxFrontmatterBytes>>10)}
	}
	return block{}, &Issue{Code: CodeUnclosed, Line: b.openLine,
		Message: fmt.Sprintf("frontmatter not closed: no line '---' after line %d", b.openLine)}
}

// field is one top-level key of a frontmatter, with its value. Lines are
// file lines.
type field struct {
	key   string
	line  int
	value *yaml.Node
	// malformed, from the line parser only, is a structured value ("[a,
	// b" unclosed) that YAML could not parse, kept as text in value: the
	// line where YAML failed and its message.
	malformed *Issue
}

// fields is a frontmatter's keys in file order, with lookups by name where
// the last of duplicate keys wins, as PyYAML (PraisonAI's parser) does.
type fields struct {
	list  []field
	index map[string]int // key -> position in list of its last occurrence
}

func newFields(list []field, warn func(Issue)) *fields {
	f := &fields{list: list, index: make(map[string]int, len(list))}
	for i, fl := range list {
		if prev, dup := f.index[fl.key]; dup {
			warn(Issue{Code: CodeDuplicateKey, Line: fl.line, Message: fmt.Sprintf(
				"duplicate key %q (lines %d and %d): the last one wins", fl.key, list[prev].line, fl.line)})
		}
		f.index[fl.key] = i
	}
	return f
}

// get returns the value of key and whether the key is present at all (a key
// with no value is present, with a null value).
func (f *fields) get(key string) (*yaml.Node, int, bool) {
	i, ok := f.index[key]
	if !ok {
		return nil, 0, false
	}
	return f.list[i].value, f.list[i].line, true
}

// malformed returns the failure of key's value, when the line parser could
// not parse it as the structure it starts as (see field.malformed); nil
// otherwise.
func (f *fields) malformed(key string) *Issue {
	i, ok := f.index[key]
	if !ok {
		return nil
	}
	return f.list[i].malformed
}

// parseYAMLFields parses a frontmatter block as YAML. It fails when the YAML
// is invalid or is not a mapping (an empty block is an empty mapping); the
// error carries the file line.
func parseYAMLFields(b block) ([]field, *Issue) {
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(b.text), &doc); err != nil {
		line, msg := yamlError(err, b.text, b.firstLine)
		return nil, &Issue{Code: CodeLenient, Line: line, Message: msg}
	}
	root := resolve(&doc)
	if root == nil {
		return nil, nil
	}
	rebaseLines(root, b.firstLine)
	if root.Kind != yaml.MappingNode {
		return nil, &Issue{Code: CodeLenient, Line: root.Line,
			Message: fmt.Sprintf("the frontmatter is %s, not a mapping of keys to values", kindName(root))}
	}
	var out []field
	for i := 0; i+1 < len(root.Content); i += 2 {
		k := resolve(root.Content[i])
		if k == nil || k.Kind != yaml.ScalarNode {
			continue // a complex key ("? [a, b]"): no skill reader uses one
		}
		out = append(out, field{key: k.Value, line: k.Line, value: root.Content[i+1]})
	}
	return out, nil
}
