package skills

import (
	"math"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
)

// maxConvertNodes bounds how many YAML nodes one conversion to Go values
// visits. yaml.Node keeps aliases unexpanded, but converting expands them,
// and a few lines of nested aliases (the "billion laughs") would otherwise
// expand to billions of values.
const maxConvertNodes = 10000

// resolve follows alias and document nodes to the node they stand for; nil
// for nil, for an empty document, or for a chain of aliases deeper than any
// real file needs.
func resolve(n *yaml.Node) *yaml.Node {
	for i := 0; n != nil && i < 32; i++ {
		switch n.Kind {
		case yaml.AliasNode:
			n = n.Alias
		case yaml.DocumentNode:
			if len(n.Content) == 0 {
				return nil
			}
			n = n.Content[0]
		default:
			return n
		}
	}
	return nil
}

// isNull reports whether n is absent or an explicit null ("~", "null" or no
// value at all).
func isNull(n *yaml.Node) bool {
	n = resolve(n)
	return n == nil || (n.Kind == yaml.ScalarNode && n.ShortTag() == "!!null")
}

// scalarText returns the source text of a scalar that is not null: YAML's
// own idea of its value, before any typing, so that version: 1.0 stays
// "1.0" and a date stays the date as written.
func scalarText(n *yaml.Node) (string, bool) {
	n = resolve(n)
	if n == nil || n.Kind != yaml.ScalarNode || n.ShortTag() == "!!null" {
		return "", false
	}
	return n.Value, true
}

// kindName names what a node is, for messages.
func kindName(n *yaml.Node) string {
	n = resolve(n)
	switch {
	case n == nil:
		return "empty"
	case n.Kind == yaml.MappingNode:
		return "a mapping"
	case n.Kind == yaml.SequenceNode:
		return "a list"
	case n.ShortTag() == "!!null":
		return "null"
	case n.ShortTag() == "!!str":
		return "text"
	case n.ShortTag() == "!!bool":
		return "a boolean"
	case n.ShortTag() == "!!int", n.ShortTag() == "!!float":
		return "a number"
	}
	return "a " + strings.TrimPrefix(n.ShortTag(), "!!")
}

// isTrue reads a boolean the forgiving way real files need: YAML's true,
// and the strings "true", "yes", "on" and "1" in any case (YAML 1.2 reads
// yes and on as strings; OpenClaw parses booleans from strings).
func isTrue(n *yaml.Node) bool {
	s, ok := scalarText(n)
	if !ok {
		return false
	}
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "true", "yes", "on", "1":
		return true
	}
	return false
}

// normalizeNode is normalizeList over a YAML node: a string scalar is split
// on commas and whitespace, a list gives its scalar items as written and
// trimmed, and anything else (null, a number, a boolean, a mapping) gives
// nothing. List items that are null, lists or mappings are dropped.
func normalizeNode(n *yaml.Node) []string {
	n = resolve(n)
	if n == nil {
		return nil
	}
	switch n.Kind {
	case yaml.ScalarNode:
		if n.ShortTag() == "!!str" {
			return splitNames(n.Value)
		}
	case yaml.SequenceNode:
		var out []string
		for _, item := range n.Content {
			if s, ok := scalarText(item); ok {
				if s = strings.TrimSpace(s); s != "" {
					out = append(out, s)
				}
			}
		}
		return out
	}
	return nil
}

// converter turns YAML nodes into Go values, visiting at most
// maxConvertNodes nodes over all its calls: one converter serves a whole
// frontmatter, so that a file of many keys, each an alias of a large
// value, cannot multiply the work. What lies beyond the budget is nil.
type converter struct{ budget int }

func newConverter() *converter { return &converter{budget: maxConvertNodes} }

// plain converts n with every scalar as its source text (string), null as
// nil, lists as []any and mappings as map[string]any: the shape of
// Skill.Frontmatter.
func (c *converter) plain(n *yaml.Node) any { return convert(n, false, &c.budget) }

// json converts n to values that marshal as JSON with their YAML types:
// booleans, integers and finite floats keep their type; everything else a
// JSON document cannot hold (timestamps, binary, NaN, huge integers) becomes
// its source text. It is the shape of the openclaw passthrough hints.
func (c *converter) json(n *yaml.Node) any { return convert(n, true, &c.budget) }

// toPlain is plain with a budget of its own, for one value.
func toPlain(n *yaml.Node) any { return newConverter().plain(n) }

func convert(n *yaml.Node, typed bool, budget *int) any {
	n = resolve(n)
	if n == nil || *budget <= 0 {
		return nil
	}
	*budget--
	switch n.Kind {
	case yaml.ScalarNode:
		tag := n.ShortTag()
		if tag == "!!null" {
			return nil
		}
		if typed {
			switch tag {
			case "!!bool":
				var b bool
				if n.Decode(&b) == nil {
					return b
				}
			case "!!int":
				var i int64
				if n.Decode(&i) == nil {
					return i
				}
			case "!!float":
				var f float64
				if n.Decode(&f) == nil && !math.IsNaN(f) && !math.IsInf(f, 0) {
					return f
				}
			}
		}
		return n.Value
	case yaml.SequenceNode:
		out := make([]any, 0, len(n.Content))
		for _, item := range n.Content {
			if *budget <= 0 {
				break
			}
			out = append(out, convert(item, typed, budget))
		}
		return out
	case yaml.MappingNode:
		out := make(map[string]any, len(n.Content)/2)
		for i := 0; i+1 < len(n.Content); i += 2 {
			if *budget <= 0 {
				break
			}
			k := resolve(n.Content[i])
			if k == nil || k.Kind != yaml.ScalarNode {
				continue // a complex key: no JSON or frontmatter reader uses one
			}
			out[k.Value] = convert(n.Content[i+1], typed, budget)
		}
		return out
	}
	return nil
}

// rebaseLines rewrites the Line of every node under n (aliases are not
// followed: they point into the same tree) so that line 1 of the parsed
// text becomes line base of the file. After it, every node of a skill's
// frontmatter carries its line in SKILL.md, wherever it was parsed from.
func rebaseLines(n *yaml.Node, base int) {
	stack := []*yaml.Node{n}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if n == nil {
			continue
		}
		if n.Line > 0 {
			n.Line += base - 1
		}
		stack = append(stack, n.Content...)
	}
}

// yamlLine splits a go-yaml error into its line and message. Compiled on
// first use (see nameRule).
var yamlLine = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^yaml: line (\d+): (.*)$`)
})

// parserProblems are the messages of go-yaml's parser (as opposed to its
// scanner). go-yaml prints the line of a parser error counted from 0, and
// of a scanner error counted from 1 (decode.go adds 1 for scanner errors
// only); both leave the line out when the count is 0.
var parserProblems = map[string]bool{
	"did not find expected ',' or ']'":       true,
	"did not find expected ',' or '}'":       true,
	"did not find expected '-' indicator":    true,
	"did not find expected <document start>": true,
	"did not find expected <stream-start>":   true,
	"did not find expected key":              true,
	"did not find expected node content":     true,
	"found undefined tag handle":             true,
	"found duplicate %TAG directive":         true,
	"found duplicate %YAML directive":        true,
	"found incompatible YAML document":       true,
}

// yamlError splits a go-yaml error into the line it happened on (counted so
// that the text's first line is base) and its message without the "yaml:"
// prefix. It corrects go-yaml's line numbering (see parserProblems) and
// places encoding errors, which carry no line, on the first line that is
// not valid UTF-8 or holds a character YAML forbids. A line past the end
// (errors found at the end of the text) is the last line.
func yamlError(err error, text string, base int) (int, string) {
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	line := 0
	if m := yamlLine().FindStringSubmatch(err.Error()); m != nil {
		if n, convErr := strconv.Atoi(m[1]); convErr == nil {
			line, msg = n, m[2]
		}
	}
	switch {
	case parserProblems[msg]:
		line++
	case line == 0:
		line = badCharLine(text)
	}
	lines := strings.Count(text, "\n")
	if !strings.HasSuffix(text, "\n") {
		lines++
	}
	line = max(1, min(line, lines))
	return base + line - 1, msg
}

// badCharLine returns the 1-based line of the first byte of text that is not
// valid UTF-8 or is a control character YAML does not allow; 1 if there is
// none.
func badCharLine(text string) int {
	line := 1
	for i := 0; i < len(text); {
		r, size := utf8.DecodeRuneInString(text[i:])
		if r == utf8.RuneError && size <= 1 {
			return line
		}
		if r == '\n' {
			line++
		} else if (r < 0x20 && r != '\t' && r != '\r') || r == 0x7f || r == 0xfffe || r == 0xffff {
			return line
		}
		i += size
	}
	return 1
}
