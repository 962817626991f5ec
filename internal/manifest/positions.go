package manifest

import (
	"fmt"
	"strconv"

	"github.com/pelletier/go-toml/v2/unstable"
)

// The index records where every key and array element of a document is
// written, as a tree of nodes the checker walks (place.go) alongside the
// decoded map. It is built in the same pass over go-toml's unstable parser
// that decodes the values (decode.go), which also counts every limit and
// meets the syntax error, if any.

// span is a byte range of the source; len 0 means unknown.
type span struct {
	off, len int
}

// entry is where one path is.
type entry struct {
	key    span // the key that names it (a dotted key's last part), or an array's element
	value  span // the value after "=", or the element; zero when unrecorded
	header span // the "[x]" or "[[x]]" that opens it, if one does
	// implicit is set for tables that only exist because a dotted key or
	// header went through them: an explicit definition later wins.
	implicit bool
}

// index is the document as read: where every key and element is in the
// source and, for each table, its values. It is a tree of nodes, each
// found from its parent and its key's interned name, so that no path
// string is built unless a message needs one.
type index struct {
	src   []byte
	nodes []node // nodes[0] is the document's root, path ""
	// kids finds a node from its parent and its key (see childKey).
	kids  map[uint64]int32
	names *interner
	// deep is the first thing nested deeper than maxDepth, if any.
	deep span

	// What the limits count, and the first limit exceeded, if any.
	lim       Limits
	values    int // paths recorded
	pathBytes int // their total length
	maxPath   int // the cap on pathBytes
	over      *limitErr

	decodeState
}

// node is one recorded path.
type node struct {
	entry
	parent int32
	// seg is the path's last segment: an interned key name, or for an
	// array element its index with elemBit set.
	seg uint32
	// pathLen is the length of the path string the node stands for.
	pathLen int32
	// keys counts the keys of the table the node is (for
	// MaxKeysPerTable); arrays counts the elements [[x]] headers opened
	// in the array it is; depth is the depth of a table a header opened
	// (its number of path segments, indices included).
	keys, arrays, depth int32
	// firstKid and nextKid list a node's children, newest first. While it
	// has at most maxListed, a lookup walks the list; past that, kids
	// finds them. Most tables have a handful of keys, which a short list
	// finds faster than a map.
	firstKid, nextKid int32
	nkids             int32
	// What the decoder knows of it (see tableKind): the map of a table,
	// or of an inline table while it is read. (kind and explicit come
	// first, where the int32s leave room before a pointer.)
	kind     tableKind
	explicit bool // a table its own [header] made
	m        map[string]any
}

// maxListed is how many children a node may have before they are put in
// the map.
const maxListed = 8

// elemBit marks a segment that is an array index, not a name.
const elemBit = 1 << 31

// noNode is the cursor of a path that was not recorded because a limit
// was exceeded; every operation on it does nothing (the index is then
// only used for its limit error).
const noNode = -1

func childKey(parent int32, seg uint32) uint64 { return uint64(uint32(parent))<<32 | uint64(seg) }

// interner numbers the keys of a document, so that a key that repeats
// (every [[tools]] has a "name") is compared as a number and stored once.
type interner struct {
	ids   map[string]uint32
	names []string
	// quoted is len(joinKey("", name)), the length the name adds to a
	// path.
	quoted []int32
}

func newInterner() *interner { return &interner{ids: map[string]uint32{}} }

// id returns the number of name, numbering it if it is new. Looking up
// string(b) does not allocate; only a new name is copied.
func (in *interner) id(b []byte) uint32 {
	if id, ok := in.ids[string(b)]; ok {
		return id
	}
	name := string(b)
	id := uint32(len(in.names))
	in.ids[name] = id
	in.names = append(in.names, name)
	in.quoted = append(in.quoted, int32(len(joinKey("", name))))
	return id
}

// limitErr is a limit a document exceeds, at the first thing over it.
type limitErr struct {
	at         span
	key, where string
	msg        string
}

// maxPathBytes caps the total length of the paths the checker may build,
// for a source of n bytes: each path repeats its ancestors' keys, so long
// keys over many values would make the paths many times the file.
func maxPathBytes(n int) int {
	return 16*n + 1<<20
}

// exceed notes the first limit exceeded.
func (ix *index) exceed(at span, key, where, msg string) {
	if ix.over == nil {
		ix.over = &limitErr{at: at, key: key, where: where, msg: msg}
	}
}

// child returns the node at seg under parent, or noNode.
func (ix *index) child(parent int32, seg uint32) int32 {
	if parent == noNode {
		return noNode
	}
	if p := &ix.nodes[parent]; p.nkids <= maxListed {
		for id := p.firstKid; id > 0; id = ix.nodes[id].nextKid {
			if ix.nodes[id].seg == seg {
				return id
			}
		}
		return noNode
	}
	if id, ok := ix.kids[childKey(parent, seg)]; ok {
		return id
	}
	return noNode
}

// segLen is how long seg makes a path under parent.
func (ix *index) segLen(parent int32, seg uint32) int {
	if seg&elemBit != 0 {
		return 2 + decimalLen(int(seg&^elemBit))
	}
	n := int(ix.names.quoted[seg])
	if parent != 0 {
		n++ // the dot
	}
	return n
}

func decimalLen(n int) int {
	d := 1
	for ; n >= 10; n /= 10 {
		d++
	}
	return d
}

// pathOf builds the path string of seg under parent (parent's own path
// when seg is noSeg).
func (ix *index) pathOf(parent int32, seg uint32) string {
	var segs []uint32
	if seg != noSeg {
		segs = append(segs, seg)
	}
	for n := parent; n > 0; n = ix.nodes[n].parent {
		segs = append(segs, ix.nodes[n].seg)
	}
	path := ""
	for i := len(segs) - 1; i >= 0; i-- {
		if s := segs[i]; s&elemBit != 0 {
			path = joinIndex(path, int(s&^elemBit))
		} else {
			path = joinKey(path, ix.names.names[s])
		}
	}
	return path
}

// noSeg asks pathOf for the parent's path alone.
const noSeg = ^uint32(0)

// addKey records e at the key named name of the table parent, whose
// node is kid (ix.child's answer: the walk has looked it up already),
// counting it against the limits when it is new, and returns its node.
func (ix *index) addKey(parent int32, name uint32, kid int32, e entry) int32 {
	if parent == noNode {
		return noNode
	}
	if kid != noNode {
		ix.update(kid, e)
		return kid
	}
	if ix.over != nil {
		return noNode
	}
	p := &ix.nodes[parent]
	if p.keys++; int(p.keys) > ix.lim.MaxKeysPerTable {
		what := "table " + ix.pathOf(parent, noSeg)
		if parent == 0 {
			what = "the top level"
		}
		path := ix.pathOf(parent, name)
		ix.exceed(e.key, path, path, fmt.Sprintf("%s has more than %d keys: go-toml checks each new key against those before it, "+
			"so loading slows with the square of their number (manifest.Limits.MaxKeysPerTable)", what, ix.lim.MaxKeysPerTable))
		return noNode
	}
	return ix.add(parent, name, e)
}

// addElem records e at element n (0-based) of the array parent, counting
// it against the limits, and returns its node.
func (ix *index) addElem(parent int32, n int, e entry) int32 {
	if parent == noNode || ix.over != nil {
		return noNode
	}
	seg := elemBit | uint32(n)
	if n >= elemBit {
		// No array that long fits in memory; say so rather than wrap.
		ix.exceed(e.key, "", "", "an array with more than 2^31 elements")
		return noNode
	}
	max, what := ix.lim.MaxArrayLen, ""
	switch p := ix.nodes[parent]; {
	case p.parent == 0 && ix.names.names[p.seg] == "tools":
		max, what = ix.lim.MaxTools, "more than %d tools (manifest.Limits.MaxTools)"
	case p.parent == 0 && ix.names.names[p.seg] == "servers":
		max, what = ix.lim.MaxServers, "more than %d servers (manifest.Limits.MaxServers)"
	}
	if n >= max {
		at := e.key
		if e.header.len > 0 {
			at = e.header
		}
		path := ix.pathOf(parent, seg)
		if what == "" {
			what = fmt.Sprintf("array %s has more than %%d elements (manifest.Limits.MaxArrayLen)", ix.pathOf(parent, noSeg))
		}
		ix.exceed(at, path, path, fmt.Sprintf(what, max))
		return noNode
	}
	if id := ix.child(parent, seg); id != noNode {
		ix.update(id, e)
		return id
	}
	return ix.add(parent, seg, e)
}

// tooDeep notes the first place that nests deeper than maxDepth.
func (ix *index) tooDeep(at span) {
	if ix.deep.len == 0 {
		ix.deep = at
		ix.deep.len = max(at.len, 1)
	}
}

// add records e at the new path seg under parent, counting it.
func (ix *index) add(parent int32, seg uint32, e entry) int32 {
	if ix.over != nil {
		return noNode
	}
	pathLen := int(ix.nodes[parent].pathLen) + ix.segLen(parent, seg)
	ix.values++
	ix.pathBytes += pathLen
	switch {
	case ix.values > ix.lim.MaxValues:
		path := ix.pathOf(parent, seg)
		ix.exceed(e.key, path, path, fmt.Sprintf("more than %d keys and array elements in all (manifest.Limits.MaxValues)", ix.lim.MaxValues))
		return noNode
	case ix.pathBytes > ix.maxPath:
		path := ix.pathOf(parent, seg)
		ix.exceed(e.key, path, path, fmt.Sprintf("keys nested too deep under long names: the paths to the values add up to more than %d bytes (16 times the file, plus 1 MiB)", ix.maxPath))
		return noNode
	}
	id := int32(len(ix.nodes))
	p := &ix.nodes[parent]
	ix.nodes = append(ix.nodes, node{entry: e, parent: parent, seg: seg, pathLen: int32(pathLen), nextKid: p.firstKid})
	p = &ix.nodes[parent] // append may have moved it
	p.firstKid = id
	switch p.nkids++; {
	case p.nkids == maxListed+1:
		for k := id; k > 0; k = ix.nodes[k].nextKid {
			ix.kids[childKey(parent, ix.nodes[k].seg)] = k
		}
	case p.nkids > maxListed+1:
		ix.kids[childKey(parent, seg)] = id
	}
	return id
}

// update is add for a path already recorded: an explicit definition
// replaces an implicit one, so that a table is shown where it is written
// rather than where a dotted key first went through it.
func (ix *index) update(id int32, e entry) {
	if ix.over != nil {
		return
	}
	if n := &ix.nodes[id]; n.implicit && !e.implicit {
		n.entry = e
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
	src := ix.src
	i := key.off + key.len
	i = skipBlanks(src, i)
	if i < len(src) && src[i] == '=' {
		i = skipBlanks(src, i+1)
	}
	if i >= len(src) {
		return key
	}
	return span{i, 1}
}

// headerSpan widens the key of a header to the whole "[x]" or "[[x]]", so
// that a tool's position is its header.
func (ix *index) headerSpan(first, last unstable.Range) span {
	src := ix.src
	start := skipBlanksBack(src, int(first.Offset))
	if start == 0 || src[start-1] != '[' {
		return rangeSpan(first)
	}
	start--
	if start > 0 && src[start-1] == '[' {
		start--
	}
	end := skipBlanks(src, int(last.Offset+last.Length))
	for n := 0; n < 2 && end < len(src) && src[end] == ']'; n++ {
		end++
	}
	return span{start, end - start}
}

// childNamed returns the node at the key name under parent, or noNode.
func (ix *index) childNamed(parent int32, name string) int32 {
	id, ok := ix.names.ids[name]
	if !ok {
		return noNode
	}
	return ix.child(parent, id)
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
	for i := 0; i < len(k); i++ {
		if c := k[i]; !(c == '_' || c == '-' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9') {
			return false
		}
	}
	return true
}
