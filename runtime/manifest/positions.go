package manifest

import (
	"bytes"
	"fmt"
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

	// What the limits count, and the first limit exceeded, if any.
	lim       Limits
	keys      map[string]int // keys of each table, by its path
	values    int            // paths recorded
	pathBytes int            // their total length
	maxPath   int            // the cap on pathBytes
	cost      *keyCost
	over      *limitErr
}

// limitErr is a limit a document exceeds, at the first thing over it.
type limitErr struct {
	at         span
	key, where string
	msg        string
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
//
// It also counts what lim caps, in the same linear pass, and stops at the
// first thing over a limit (ix.over), before go-toml's decoder, whose
// cost would grow faster than the document, ever sees it.
func buildIndex(src []byte, lim Limits) (*index, error) {
	lim = lim.resolved()
	ix := &index{
		src: src, entries: map[string]entry{}, arrays: map[string]int{}, depths: map[string]int{},
		lim: lim, keys: map[string]int{}, cost: newKeyCost(),
		maxPath: maxPathBytes(len(src)),
	}
	var p unstable.Parser
	p.Reset(src)
	table := "" // the path of the table that key/values go into
	for ix.deep.len == 0 && ix.over == nil && p.NextExpression() {
		expr := p.Expression()
		switch expr.Kind {
		case unstable.KeyValue:
			ix.keyValue(table, ix.depths[table], expr)
		case unstable.Table:
			table = ix.header(expr, false)
		case unstable.ArrayTable:
			table = ix.header(expr, true)
		}
		if ix.over == nil {
			ix.cost.expression(expr)
			if ix.cost.work > lim.MaxKeyComparisons {
				at := span{}
				if parts := keyParts(expr); len(parts) > 0 {
					at = rangeSpan(parts[0].Raw)
				}
				ix.exceed(at, "", "", fmt.Sprintf("too many keys to check for duplicates quickly: go-toml would compare keys more than %d times "+
					"(large tables side by side, or many [[...]] entries after a large table, each of which rescans it) (manifest.Limits.MaxKeyComparisons)",
					lim.MaxKeyComparisons))
			}
		}
	}
	if ix.over != nil {
		return ix, nil
	}
	return ix, p.Error()
}

// maxPathBytes caps the total length of the paths the index records, for
// a source of n bytes. Each path repeats its ancestors' keys, so a deep
// table under long keys with many keys in it would make paths add up to
// many times the file (10 levels of 1 KB keys over 1,000,000 small keys
// is 10 GB from 17 MB); real manifests stay under 4 times their size.
func maxPathBytes(n int) int {
	return 16*n + 1<<20
}

// exceed notes the first limit exceeded.
func (ix *index) exceed(at span, key, where, msg string) {
	if ix.over == nil {
		ix.over = &limitErr{at: at, key: key, where: where, msg: msg}
	}
}

// addKey records e at path, a key of the table at parent, counting it
// against the limits when it is new.
func (ix *index) addKey(parent, path string, e entry) {
	if _, ok := ix.entries[path]; !ok && ix.over == nil {
		ix.keys[parent]++
		if n := ix.keys[parent]; n > ix.lim.MaxKeysPerTable {
			what := "table " + parent
			if parent == "" {
				what = "the top level"
			}
			ix.exceed(e.key, path, path, fmt.Sprintf("%s has more than %d keys: go-toml checks each new key against those before it, "+
				"so loading slows with the square of their number (manifest.Limits.MaxKeysPerTable)", what, ix.lim.MaxKeysPerTable))
			return
		}
	}
	ix.add(path, e)
}

// addElem records e at path, element n (0-based) of the array at
// parent, counting it against the limits.
func (ix *index) addElem(parent string, n int, path string, e entry) {
	if ix.over == nil {
		max, what := ix.lim.MaxArrayLen, fmt.Sprintf("array %s has more than %%d elements (manifest.Limits.MaxArrayLen)", parent)
		switch parent {
		case "tools":
			max, what = ix.lim.MaxTools, "more than %d tools (manifest.Limits.MaxTools)"
		case "servers":
			max, what = ix.lim.MaxServers, "more than %d servers (manifest.Limits.MaxServers)"
		}
		if n >= max {
			at := e.key
			if e.header.len > 0 {
				at = e.header
			}
			ix.exceed(at, path, path, fmt.Sprintf(what, max))
			return
		}
	}
	ix.add(path, e)
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
		parent := path
		path = joinKey(path, string(part.Data))
		last := i == len(parts)-1
		switch {
		case last && array:
			ix.addKey(parent, path, entry{key: rangeSpan(part.Raw), implicit: true})
			if deeper(part.Raw) {
				return ""
			}
			n := ix.arrays[path]
			ix.arrays[path] = n + 1
			elem := joinIndex(path, n)
			ix.addElem(path, n, elem, entry{key: rangeSpan(part.Raw), value: whole, header: whole})
			path = elem
			ix.depths[path] = depth
		case last:
			ix.depths[path] = depth
			ix.addKey(parent, path, entry{key: rangeSpan(part.Raw), value: whole, header: whole})
		default:
			ix.addKey(parent, path, entry{key: rangeSpan(part.Raw), implicit: true})
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
	path, parent := base, base
	for i, part := range parts {
		parent = path
		path = joinKey(path, string(part.Data))
		if i < len(parts)-1 {
			ix.addKey(parent, path, entry{key: rangeSpan(part.Raw), implicit: true})
		}
	}
	last := rangeSpan(parts[len(parts)-1].Raw)
	vs := ix.valueSpan(value, ix.afterEquals(last))
	ix.addKey(parent, path, entry{key: last, value: vs})
	if ix.over == nil {
		ix.value(path, depth, value, vs)
	}
}

// value records what is inside a value at path, depth segments deep:
// the key/values of an inline table, the elements of an array.
func (ix *index) value(path string, depth int, v *unstable.Node, at span) {
	switch v.Kind {
	case unstable.InlineTable:
		it := v.Children()
		for ix.over == nil && it.Next() {
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
		for ix.over == nil && it.Next() {
			el := it.Node()
			if el.Kind == unstable.Comment {
				continue
			}
			// An array inside an array has no range of its own: use its
			// first element, or failing that the enclosing array.
			es := ix.valueSpan(el, firstSpan(el, at))
			p := joinIndex(path, i)
			ix.addElem(path, i, p, entry{key: es, value: es})
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
	if ix.over != nil {
		return
	}
	old, ok := ix.entries[path]
	if !ok {
		ix.values++
		ix.pathBytes += len(path)
		switch {
		case ix.values > ix.lim.MaxValues:
			ix.exceed(e.key, path, path, fmt.Sprintf("more than %d keys and array elements in all (manifest.Limits.MaxValues)", ix.lim.MaxValues))
			return
		case ix.pathBytes > ix.maxPath:
			ix.exceed(e.key, path, path, fmt.Sprintf("keys nested too deep under long names: the paths to the values add up to more than %d bytes (16 times the file, plus 1 MiB)", ix.maxPath))
			return
		}
	}
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
