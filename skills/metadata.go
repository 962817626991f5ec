package skills

import (
	"fmt"
	"strings"

	"go.yaml.in/yaml/v3"
)

// readMetadata returns the frontmatter's metadata as a mapping node, in
// whichever form it was written:
//
//   - block YAML, or inline or multi-line JSON (JSON is YAML's flow style,
//     and YAML flow collections tolerate trailing commas, as JSON5 does);
//   - a quoted string holding JSON or YAML, as OpenClaw writes and
//     re-parses with JSON5: it is parsed as YAML after removing commas
//     before a closing "}" or "]".
//
// Anything else is reported and ignored: nil.
func readMetadata(fm *fields, warn func(Issue)) *yaml.Node {
	n, line, ok := fm.get("metadata")
	if !ok || isNull(n) {
		return nil
	}
	m, err := asMapping(n, line)
	if err != nil {
		warn(Issue{Code: CodeMetadata, Line: err.Line, Message: "metadata " + err.Message + ": ignored"})
		return nil
	}
	return m
}

// asMapping returns n as a mapping node: n itself, or n's text parsed as
// embedded YAML or JSON. The error's Message reads after "metadata" or the
// name of the block.
func asMapping(n *yaml.Node, line int) (*yaml.Node, *Issue) {
	r := resolve(n)
	if r == nil {
		return nil, &Issue{Line: line, Message: "is empty"}
	}
	if r.Line > 0 {
		line = r.Line
	}
	switch {
	case r.Kind == yaml.MappingNode:
		return r, nil
	case r.Kind == yaml.ScalarNode && r.ShortTag() == "!!str":
		return parseEmbedded(r.Value, line)
	}
	return nil, &Issue{Line: line, Message: fmt.Sprintf("is %s, not a mapping", kindName(r))}
}

// parseEmbedded parses text found inside a value (a quoted JSON string, or
// a value the line parser could not structure) as a mapping.
func parseEmbedded(text string, line int) (*yaml.Node, *Issue) {
	src := removeTrailingCommas(text)
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(src), &doc); err != nil {
		l, msg := yamlError(err, src, line)
		return nil, &Issue{Line: l, Message: "is not valid JSON or YAML (" + msg + ")"}
	}
	r := resolve(&doc)
	switch {
	case r == nil || r.Kind == yaml.ScalarNode:
		return nil, &Issue{Line: line, Message: "is text, not a mapping"}
	case r.Kind != yaml.MappingNode:
		return nil, &Issue{Line: line, Message: fmt.Sprintf("is text holding %s, not a mapping", kindName(r))}
	}
	rebaseLines(r, line)
	return r, nil
}

// removeTrailingCommas drops each comma that is followed, after whitespace
// only, by a "}" or "]", outside quoted strings: the JSON5 trailing commas
// OpenClaw's metadata often has. A quote only opens a string where a JSON
// or YAML flow value can start (after "{", "[", ",", ":" or at the start),
// so the apostrophe in "don't" is not taken for one.
func removeTrailingCommas(s string) string {
	if !strings.Contains(s, ",") {
		return s
	}
	var sb strings.Builder
	sb.Grow(len(s))
	var quote byte
	prev := byte(0) // the last byte outside strings that is not whitespace
	for i := 0; i < len(s); i++ {
		c := s[i]
		if quote != 0 {
			sb.WriteByte(c)
			switch {
			case quote == '"' && c == '\\' && i+1 < len(s):
				i++
				sb.WriteByte(s[i])
			case quote == '\'' && c == '\'' && i+1 < len(s) && s[i+1] == '\'':
				i++ // '' is a quote inside a single-quoted string
				sb.WriteByte(s[i])
			case c == quote:
				quote = 0
				prev = c
			}
			continue
		}
		switch c {
		case '"', '\'':
			if prev == 0 || strings.IndexByte("{[,:", prev) >= 0 {
				quote = c
			}
		case ',':
			j := i + 1
			for j < len(s) && (s[j] == ' ' || s[j] == '\t' || s[j] == '\n' || s[j] == '\r') {
				j++
			}
			if j < len(s) && (s[j] == '}' || s[j] == ']') {
				continue
			}
		}
		sb.WriteByte(c)
		if c != ' ' && c != '\t' && c != '\n' && c != '\r' {
			prev = c
		}
	}
	return sb.String()
}
