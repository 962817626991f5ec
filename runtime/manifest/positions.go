package manifest

import (
	"bytes"
	"sort"
	"strconv"

	"github.com/pelletier/go-toml/v2/unstable"
)

// The decoded document (a map[string]any from go-toml) knows no
// positions, so a second pass over go-toml's unstable parser records where
// every key and value is, by the same path the checker uses to walk the
// map: "tools[1].probe.grants.env[0]". A path names one thing only because
// the document already decoded without error (no duplicate keys, no table
// defined twice), so the pass can be simple.

// span is a byte range of the source; len 0 means unknown.
type span struct {
	off, len int
}

// entry is where one path is.
type entry struct {
	// key is the key that names it (the last part of a dotted key), or
	// the element itself inside an array.
	key span
	// value is the value after "=", or the element; zero when the parser
	// does not record it.
	value span
	// header is the whole "[x]" or "[[x]]" header that opens it, if one
	// does.
	header span
	// implicit is set for tables that only exist because a dotted key or
	// header went through them: an explicit definition later wins.
	implicit bool
}

// index maps paths to where they are in the source.
type index struct {
	src     []byte
	entries map[string]entry
	// arrays counts the elements of each array of tables so far, by the
	// array's path, to name the element each [[x]] header opens.
	arrays map[string]int
	// depths is the depth of each table a header opened (its number of
	// path segments, indices included).
	depths map[string]int
	// deep is the first thing nested deeper than maxDepth, if any.
	deep span
}

// maxDepth bounds how deep a manifest may nest (path segments, array
// indices included: "tools[0].parameters" is 3). Paths grow with depth,
// so an index of a document 10,000 arrays deep (all that go-toml allows)
// would hold 150 MB of paths and take a second to build; a real manifest,
// JSON Schemas included, stays far below 100.
const maxDepth = 100

// buildIndex parses src and records every path. It returns the parser's
// error for a document that is not TOML (go-toml's decoder reports the
// same error, with the same position, so callers may use either).
func buildIndex(src []byte) (*index, error) {
	ix := &index{src: src, entries: map[string]entry{}, arrays: map[string]int{}, depths: map[string]int{}}
	var p unstable.Parser
	p.Reset(src)
	table := "" // the path of the table that key/values go into
	for ix.deep.len == 0 && p.NextExpression() {
		expr := p.Expression()
		switch expr.Kind {
		case unstable.KeyValue:
			ix.keyValue(table, ix.depths[table], expr)
		case unstable.Table:
			table = ix.header(expr, false)
		case unstable.ArrayTable:
			table = ix.header(expr, true)
		}
	}
	return ix, p.Error()
}

// header records a [x.y] or [[x.y]] header and returns the path of the
// table it opens.
func (ix *index) header(n *unstable.Node, array bool) string {
	parts := keyParts(n)
	if len(parts) == 0 {
		return ""
	}
	whole := ix.headerSpan(parts[0].Raw, parts[len(parts)-1].Raw)
	path := ""
	depth := 0
	deeper := func(at unstable.Range) bool {
		if depth++; depth > maxDepth {
			ix.tooDeep(rangeSpan(at))
			return true
		}
		return false
	}
	for i, part := range parts {
		if deeper(part.Raw) {
			return ""
		}
		path = joinKey(path, string(part.Data))
		last := i == len(parts)-1
		switch {
		case last && array:
			ix.add(path, entry{key: rangeSpan(part.Raw), implicit: true})
			if deeper(part.Raw) {
				return ""
			}
			n := ix.arrays[path]
			ix.arrays[path] = n + 1
			path = joinIndex(path, n)
			ix.add(path, entry{key: rangeSpan(part.Raw), value: whole, header: whole})
			ix.depths[path] = depth
		case last:
			ix.depths[path] = depth
			ix.add(path, entry{key: rangeSpan(part.Raw), value: whole, header: whole})
		default:
			ix.add(path, entry{key: rangeSpan(part.Raw), implicit: true})
			// A header that goes through an array of tables goes into its
			// latest element, as TOML says.
			if n := ix.arrays[path]; n > 0 {
				if deeper(part.Raw) {
					return ""
				}
				path = joinIndex(path, n-1)
			}
		}
	}
	return path
}

// keyValue records "a.b = value" in the table at path base, depth
// segments deep, and whatever the value contains.
func (ix *index) keyValue(base string, depth int, n *unstable.Node) {
	value := n.Value()
	if !value.Valid() {
		return
	}
	parts := keyParts(n)
	if len(parts) == 0 {
		return
	}
	if depth += len(parts); depth > maxDepth {
		ix.tooDeep(rangeSpan(parts[0].Raw))
		return
	}
	path := base
	for i, part := range parts {
		path = joinKey(path, string(part.Data))
		if i < len(parts)-1 {
			ix.add(path, entry{key: rangeSpan(part.Raw), implicit: true})
		}
	}
	last := rangeSpan(parts[len(parts)-1].Raw)
	vs := ix.valueSpan(value, ix.afterEquals(last))
	ix.add(path, entry{key: last, value: vs})
	ix.value(path, depth, value, vs)
}

// value records what is inside a value at path, depth segments deep:
// the key/values of an inline table, the elements of an array.
func (ix *index) value(path string, depth int, v *unstable.Node, at span) {
	switch v.Kind {
	case unstable.InlineTable:
		it := v.Children()
		for it.Next() {
			if kv := it.Node(); kv.Kind == unstable.KeyValue {
				ix.keyValue(path, depth, kv)
			}
		}
	case unstable.Array:
		if depth+1 > maxDepth {
			ix.tooDeep(at)
			return
		}
		it := v.Children()
		i := 0
		for it.Next() {
			el := it.Node()
			if el.Kind == unstable.Comment {
				continue
			}
			// An array inside an array has no range of its own: use its
			// first element, or failing that the enclosing array.
			es := ix.valueSpan(el, firstSpan(el, at))
			p := joinIndex(path, i)
			ix.add(p, entry{key: es, value: es})
			ix.value(p, depth+1, el, es)
			i++
		}
	}
}

// tooDeep notes the first place that nests deeper than maxDepth.
func (ix *index) tooDeep(at span) {
	if ix.deep.len == 0 {
		ix.deep = at
		ix.deep.len = max(at.len, 1)
	}
}

// add records e at path unless the path is already known; an explicit
// definition replaces an implicit one, so that a table is shown where it
// is written rather than where a dotted key first went through it.
func (ix *index) add(path string, e entry) {
	old, ok := ix.entries[path]
	if !ok || (old.implicit && !e.implicit) {
		ix.entries[path] = e
	}
}

// valueSpan is the range of v: its own when the parser records one (for
// an inline table, just the "{"), otherwise a one-byte range at start.
func (ix *index) valueSpan(v *unstable.Node, start span) span {
	if s := rangeSpan(v.Raw); s.len > 0 {
		return s
	}
	if start.len > 0 {
		return span{start.off, 1}
	}
	return start
}

// afterEquals finds where the value starts after a key: past blanks, "="
// and blanks. The parser records no range for arrays, and a type error
// about an array should still point at the array.
func (ix *index) afterEquals(key span) span {
	i := key.off + key.len
	i = skipBlanks(ix.src, i)
	if i < len(ix.src) && ix.src[i] == '=' {
		i = skipBlanks(ix.src, i+1)
	}
	if i >= len(ix.src) {
		return key
	}
	return span{i, 1}
}

// headerSpan widens the key of a header to the whole "[x]" or "[[x]]", so
// that a tool's position is its header.
func (ix *index) headerSpan(first, last unstable.Range) span {
	start := skipBlanksBack(ix.src, int(first.Offset))
	if start == 0 || ix.src[start-1] != '[' {
		return rangeSpan(first)
	}
	start--
	if start > 0 && ix.src[start-1] == '[' {
		start--
	}
	end := skipBlanks(ix.src, int(last.Offset+last.Length))
	for n := 0; n < 2 && end < len(ix.src) && ix.src[end] == ']'; n++ {
		end++
	}
	return span{start, end - start}
}

// lookup returns where path is. Every path of a decoded document should
// be known; TestIndexKnowsEveryPath checks the corpus for misses.
func (ix *index) lookup(path string) (entry, bool) {
	e, ok := ix.entries[path]
	return e, ok
}

// paths returns every recorded path, sorted, for tests.
func (ix *index) paths() []string {
	out := make([]string, 0, len(ix.entries))
	for p := range ix.entries {
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}

// keyParts returns the parts of a node's (possibly dotted) key.
func keyParts(n *unstable.Node) []*unstable.Node {
	var parts []*unstable.Node
	it := n.Key()
	for it.Next() {
		parts = append(parts, it.Node())
	}
	return parts
}

// firstSpan is the range of the first descendant of n that has one, or
// def.
func firstSpan(n *unstable.Node, def span) span {
	if s := rangeSpan(n.Raw); s.len > 0 {
		return s
	}
	it := n.Children()
	for it.Next() {
		if s := firstSpan(it.Node(), span{}); s.len > 0 {
			return s
		}
	}
	return def
}

func rangeSpan(r unstable.Range) span {
	return span{int(r.Offset), int(r.Length)}
}

func isBlank(c byte) bool { return c == ' ' || c == '\t' }

func skipBlanks(b []byte, i int) int {
	for i < len(b) && isBlank(b[i]) {
		i++
	}
	return i
}

func skipBlanksBack(b []byte, i int) int {
	for i > 0 && i <= len(b) && isBlank(b[i-1]) {
		i--
	}
	return i
}

// joinKey appends a key to a path. Keys that are not bare TOML keys are
// quoted, so that a key with a dot or a bracket in it cannot be mistaken
// for two keys or an index, and the path reads as the user would write
// the key.
func joinKey(path, key string) string {
	if !isBareKey(key) {
		key = strconv.Quote(key)
	}
	if path == "" {
		return key
	}
	return path + "." + key
}

// joinIndex appends an array index to a path.
func joinIndex(path string, i int) string {
	return path + "[" + strconv.Itoa(i) + "]"
}

// isBareKey reports whether k can be written unquoted in TOML.
func isBareKey(k string) bool {
	if k == "" {
		return false
	}
	return bytes.IndexFunc([]byte(k), func(r rune) bool {
		return !(r == '_' || r == '-' || 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9')
	}) < 0
}
