package manifest

import (
	"bytes"
	"math"
	"strconv"
	"strings"

	"github.com/pelletier/go-toml/v2/unstable"
)

// The fast path. Parse's full path reads a document three times: a byte
// scan and the position index (one pass over go-toml's unstable parser,
// with every limit counted), then go-toml's decoder, which parses it all
// again to build the map the checks walk. A valid manifest needs none of
// the index's positions but a tool's, a probe's and [skills]'s, and the
// decoder's map is built by one pass over the same parser. So fastDecode
// makes that one pass, building exactly the map toml.Unmarshal builds and
// recording those few positions, and declines whatever it is not certain
// to decode exactly as go-toml does: a datetime, a key or table defined
// twice, a table extended in a way TOML forbids or that go-toml's rules
// might read differently, a syntax error, anything over a limit or
// within a factor of two of one it only estimates. Parse then runs the checks on its map, and returns the
// result only when they find nothing wrong; on a decline or on any
// problem it runs the full path from the start, so every message,
// position and caret is the full path's, and the full path's pre-scans
// still refuse hostile documents before go-toml's decoder sees them.
// A position a valid Manifest keeps that is not among the few recorded
// here (an upstream server's tool rules and their probes) makes the
// checks build the position index then, once (checker.lazyIndex).
// FuzzFastPathMatchesFullPath checks that the two paths agree on any
// input; TestFastPathTaken that clean manifests take the fast one.
//
// With more than one core, the fast path also uses them all: a large
// document is decoded in chunks at once (fastchunk.go), and its tools are
// checked while the rest decodes (fastcheck.go). Its strings share one
// copy of the source (fastString; detach.go gives the Manifest's own
// homes) and are boxed a slab at a time (box.go).

// fastPathEnabled switches the fast path; off, Parse is the full path
// alone.
const fastPathEnabled = true

// declined is what fastDecode panics with to give up: deep in a value,
// unwinding is simpler than threading an error through every call, and
// declining is the rare case. It is the only panic the fast path means:
// its recovers record any other as a bug (see bugs.go).
type declined struct{}

// fastTag says which tables fastDecode records positions in.
type fastTag uint8

const (
	tagNone    fastTag = iota
	tagRoot            // the document: where [skills] is
	tagTools           // an element of the top-level tools array
	tagServers         // an element of the top-level servers array
)

// elemPos is where a tool or server is, and its probe key.
type elemPos struct {
	table, probe entry
	hasProbe     bool
}

// fastPositions are the positions a valid Manifest holds (Tool.Pos,
// Server.Pos, Probe.Pos, Skills.Pos), as the index would record them.
type fastPositions struct {
	skills         entry
	hasSkills      bool
	tools, servers []elemPos
	// toolsFrom is the index of tools[0]: a toolPipe's batch sees its
	// own tools' positions alone.
	toolsFrom int
}

// set records e as the index does: the first definition, replaced by an
// explicit one if it was implicit (see index.update).
func setEntry(dst *entry, has *bool, e entry) {
	if !*has {
		*dst, *has = e, true
	} else if dst.implicit && !e.implicit {
		*dst = e
	}
}

// lookup answers checker.entry for the paths a valid manifest asks for.
func (f *fastPositions) lookup(path string) (entry, bool) {
	if path == "skills" {
		return f.skills, f.hasSkills
	}
	var list []elemPos
	var rest string
	base := 0
	switch {
	case strings.HasPrefix(path, "tools["):
		list, rest, base = f.tools, path[len("tools["):], f.toolsFrom
	case strings.HasPrefix(path, "servers["):
		list, rest = f.servers, path[len("servers["):]
	default:
		return entry{}, false
	}
	end := strings.IndexByte(rest, ']')
	if end <= 0 {
		return entry{}, false
	}
	n, err := strconv.Atoi(rest[:end])
	n -= base
	if err != nil || n < 0 || n >= len(list) {
		return entry{}, false
	}
	switch rest[end+1:] {
	case "":
		return list[n].table, true
	case ".probe":
		return list[n].probe, list[n].hasProbe
	}
	return entry{}, false
}

// fnode is a table a header made (or the document, or an element of an
// array of tables), or an array of tables. Only these can be reopened by
// a later header; fastDecode finds them here, not in the maps, so that it
// knows how each was made.
type fnode struct {
	m      map[string]any
	parent *fnode
	// kids are the header-made children, listed while few, then also in
	// kidMap.
	kidNames []string
	kids     []*fnode
	kidMap   map[string]*fnode
	// For an array of tables: its elements and the latest.
	arr  []any
	last *fnode
	// live counts go-toml's tracker entries under an array of tables
	// (see fastDecoder.nlive).
	live    int
	pathLen int
	// name is its key, for a top-level array of tables (rooted says it
	// is in rootArrays).
	name          string
	rooted        bool
	depth         int
	idx           int
	tag           fastTag
	aot, explicit bool
}

func (n *fnode) kid(name string) *fnode {
	if n.kidMap != nil {
		return n.kidMap[name]
	}
	for i, k := range n.kidNames {
		if k == name {
			return n.kids[i]
		}
	}
	return nil
}

func (n *fnode) addKid(name string, k *fnode) {
	if n.kidMap != nil {
		n.kidMap[name] = k
		return
	}
	n.kidNames = append(n.kidNames, name)
	n.kids = append(n.kids, k)
	if len(n.kids) > maxListed {
		n.kidMap = make(map[string]*fnode, 2*len(n.kids))
		for i, name := range n.kidNames {
			n.kidMap[name] = n.kids[i]
		}
	}
}

// dnode is a table dotted keys made in the current section or inline
// table, the only place TOML lets further dotted keys extend it.
type dnode struct {
	m       map[string]any
	names   []string
	kids    []*dnode
	pathLen int
}

func (n *dnode) kid(name string) *dnode {
	for i, k := range n.names {
		if k == name {
			return n.kids[i]
		}
	}
	return nil
}

// nameInfo is an interned key and the length it adds to a path.
type nameInfo struct {
	s string
	q int
}

// fastDecoder is the state of one fastDecode.
type fastDecoder struct {
	src []byte
	// base is where in src the parser's input starts (see fastchunk.go).
	base int
	// str is src as a string, made once: the strings of the document that
	// the parser did not unescape into a buffer of its own are substrings
	// of it (see fastString), so that a 10,000-tool manifest's strings
	// cost one allocation, not 60,000. The Manifest must not keep them:
	// fastParse copies those it keeps (see detach).
	str string
	// nodes is where fnodes are allocated from, a slab at a time.
	nodes []fnode
	// toolsHint is about how many [[tools]] the input has, for the
	// capacity of what grows by one per tool.
	toolsHint int
	// rootArrays are the arrays of tables at the top (tools, servers),
	// whose values in the document are set at the end (see setRootArrays).
	rootArrays []*fnode
	p          unstable.Parser
	root       *fnode
	names      map[string]nameInfo
	pos        fastPositions
	// pipe, if set, is handed each run of complete [[tools]] elements.
	pipe *toolPipe
	// sec is the table key/values go into; dot its dotted-key tables.
	sec *fnode
	dot dnode

	// What the limits count, as the index counts it, and the limits.
	// Values and path bytes are counted exactly as the index counts them
	// (FuzzFastPathMatchesFullPath and TestFastPathAtLimits hold them
	// equal), so they are capped at the limits themselves: a manifest of
	// 50,000 tools is 850,000 values, and a decline at half of MaxValues
	// sent it down the full path after the fast one. Keys per table,
	// array lengths and key comparisons are estimated, so the fast path
	// declines at half of those.
	values, pathBytes  int
	maxValues, maxKeys int
	maxArray, maxPath  int
	maxTools           int
	maxServers         int
	// nlive bounds the entries of go-toml's duplicate-key tracker that
	// are live, and work the entries its scans visit (see keyCost): each
	// lookup visits at most nlive, as does each [[x]] that clears x.
	// created counts the entries made in the current section, added to
	// the live counts of the arrays of tables around it when it ends.
	nlive, created int
	work, maxWork  int64
	// events counts the additions to work (see fastchunk.go).
	events int64

	// The state of a chunk decoder (see fastchunk.go): chunk is set for
	// one, last for the last chunk; stopAt is where it stopped, at a
	// header outside [[tools]] (-1: at its end); elemVals is d.values
	// when each element began; batches are its tools, checked, and
	// checked how many of them.
	chunk, last bool
	stopAt      int
	elemVals    []int
	batches     []*toolBatch
	checked     int
}

// fastDecode decodes src as toml.Unmarshal would into a map[string]any,
// with the positions a valid Manifest holds, or declines (ok false). lim
// must be resolved.
//
// pipe, if not nil, is handed runs of [[tools]] elements as soon as they
// are complete, to be checked while the rest decodes (see fastcheck.go);
// the caller must stop it whatever fastDecode returns.
func fastDecode(src []byte, lim Limits, pipe *toolPipe) (doc map[string]any, pos *fastPositions, ok bool) {
	defer func() {
		// A decline, or a bug (recorded: see bugs.go): either way the
		// full path decides.
		if r := recover(); r != nil {
			fastRecovered("fastDecode", r)
			doc, pos, ok = nil, nil, false
		}
	}()
	// The full path's byte scan refuses a document with more commas in
	// arrays and inline tables than MaxValues; there are fewer commas in
	// the whole file in any real manifest.
	if bytes.Count(src, []byte{','}) > lim.MaxValues && rawScan(src, lim.MaxValues) >= 0 {
		return nil, nil, false
	}
	d := newFastDecoder(src, string(src), lim, pipe)
	if pipe != nil && pipe.chunks > 1 && len(src) >= pipe.chunkMin {
		if d.runChunked(pipe.chunks) {
			d.setRootArrays()
			return d.root.m, &d.pos, true
		}
		// Not a document the chunks could decode: from the start, in one.
		pipe.reset()
		d = newFastDecoder(src, d.str, lim, pipe)
	}
	d.run()
	d.setRootArrays()
	return d.root.m, &d.pos, true
}

// newFastDecoder is a decoder of src (str is src as a string) within
// lim, handing complete tools to pipe if not nil.
func newFastDecoder(src []byte, str string, lim Limits, pipe *toolPipe) *fastDecoder {
	d := &fastDecoder{
		src:        src,
		str:        str,
		names:      make(map[string]nameInfo, 64),
		maxValues:  lim.MaxValues,
		maxKeys:    lim.MaxKeysPerTable / 2,
		maxArray:   lim.MaxArrayLen / 2,
		maxPath:    maxPathBytes(len(src)),
		maxTools:   lim.MaxTools,
		maxServers: lim.MaxServers,
		maxWork:    lim.MaxKeyComparisons / 2,
		nlive:      1, // the tracker's root
		pipe:       pipe,
		stopAt:     -1,
	}
	if pipe != nil {
		pipe.str = str
	}
	d.root = &fnode{m: map[string]any{}, tag: tagRoot, explicit: true}
	return d
}

func decline() { panic(declined{}) }

// toolsHint counts the "[[tools]]" in b (some may be in strings), at
// most maxTools+1 (and 16,384 without a cap): growing the tools and
// their positions by doubling was a tenth of what a 10,000-tool manifest
// allocated.
func toolsHint(b []byte, maxTools int) int {
	if maxTools < 0 {
		maxTools = 1 << 14
	}
	return min(bytes.Count(b, []byte("[[tools]]")), maxTools+1)
}

// rebase turns a range of the parser's input into one of src: the
// parser reads src from base (see fastchunk.go).
func (d *fastDecoder) rebase(r unstable.Range) unstable.Range {
	r.Offset += uint32(d.base)
	return r
}

// rng is rangeSpan for a range of the parser's input.
func (d *fastDecoder) rng(r unstable.Range) span { return rangeSpan(d.rebase(r)) }

// valueSpanOf is valueSpanOf for a node of the parser's.
func (d *fastDecoder) valueSpanOf(v *unstable.Node, start span) span {
	if s := d.rng(v.Raw); s.len > 0 {
		return s
	}
	if start.len > 0 {
		return span{start.off, 1}
	}
	return start
}

// firstSpan is firstSpan for a node of the parser's.
func (d *fastDecoder) firstSpan(n *unstable.Node, def span) span {
	if s := d.rng(n.Raw); s.len > 0 {
		return s
	}
	it := n.Children()
	for it.Next() {
		if s := d.firstSpan(it.Node(), span{}); s.len > 0 {
			return s
		}
	}
	return def
}

// fastString is b, a string value's bytes from the parser, as a string:
// a substring of d.str when b is a part of the source (a string without
// escapes), else a copy.
func (d *fastDecoder) fastString(b []byte) string {
	off := cap(d.src) - cap(b)
	if len(b) > 0 && off >= 0 && off+len(b) <= len(d.src) && &d.src[off] == &b[0] {
		return d.str[off : off+len(b)]
	}
	return string(b)
}

// newNode returns a new fnode, from a slab: a 10,000-tool manifest has
// 10,000 of them, all garbage once decoding is done.
func (d *fastDecoder) newNode() *fnode {
	if len(d.nodes) == 0 {
		d.nodes = make([]fnode, 64)
	}
	n := &d.nodes[0]
	d.nodes = d.nodes[1:]
	return n
}

// setRootArrays sets the values of the top-level arrays of tables in the
// document, which header leaves unset while it appends to them: boxing
// the growing slice for every element was an allocation per tool.
// Nothing reads those values before (the tool checks get the elements
// from the decoder).
func (d *fastDecoder) setRootArrays() {
	for _, a := range d.rootArrays {
		d.root.m[a.name] = a.arr
	}
}

func (d *fastDecoder) run() { d.runRange(0, len(d.src)) }

// runRange decodes src[from:to], which starts where an expression may.
func (d *fastDecoder) runRange(from, to int) {
	if fault != nil {
		if d.chunk {
			fault("chunk")
		} else {
			fault("decode")
		}
	}
	d.base = from
	d.toolsHint = toolsHint(d.src[from:to], d.maxTools)
	if d.chunk {
		if t := d.root.kid("tools"); t.arr == nil {
			t.arr = make([]any, 0, d.toolsHint)
		}
	}
	d.p.Reset(d.src[from:to])
	d.section(d.root)
	for first := true; d.p.NextExpression(); first = false {
		e := d.p.Expression()
		switch e.Kind {
		case unstable.KeyValue:
			if d.chunk && first {
				decline()
			}
			d.keyValue(&d.dot, d.sec.depth, d.sec.tag, d.sec.idx, e)
		case unstable.Table, unstable.ArrayTable:
			if d.chunk && d.chunkStops(e, first) {
				return
			}
			d.endSection()
			d.section(d.header(e, e.Kind == unstable.ArrayTable))
		default:
			decline()
		}
		if d.work > d.maxWork {
			decline()
		}
	}
	if d.p.Error() != nil {
		decline()
	}
}

// section starts the key/values of t.
func (d *fastDecoder) section(t *fnode) {
	d.sec = t
	d.dot = dnode{m: t.m, names: d.dot.names[:0], kids: d.dot.kids[:0], pathLen: t.pathLen}
}

// endSection adds the tracker entries made in the section to the arrays
// of tables it is in, so that a [[x]] that clears them knows how many.
func (d *fastDecoder) endSection() {
	if d.created > 0 {
		for a := d.sec; a != nil; a = a.parent {
			if a.aot {
				a.live += d.created
			}
		}
		d.created = 0
	}
}

// intern returns name as a string, allocated once per distinct key.
func (d *fastDecoder) intern(b []byte) nameInfo {
	if n, ok := d.names[string(b)]; ok {
		return n
	}
	s := string(b)
	n := nameInfo{s, len(joinKey("", s))}
	d.names[s] = n
	return n
}

// count counts a new key or element whose path is pathLen long.
func (d *fastDecoder) count(pathLen int) {
	d.values++
	d.pathBytes += pathLen
	if d.values > d.maxValues || d.pathBytes > d.maxPath {
		decline()
	}
}

func keyPathLen(parent int, n nameInfo) int {
	if parent > 0 {
		return parent + 1 + n.q
	}
	return n.q
}

func (d *fastDecoder) deep(depth int) {
	if depth > maxDepth/2 {
		decline()
	}
}

// note records the position of name in a table tagged tag, if it is one
// a valid Manifest holds.
func (d *fastDecoder) note(tag fastTag, idx int, name string, e entry) {
	switch tag {
	case tagRoot:
		if name == "skills" {
			setEntry(&d.pos.skills, &d.pos.hasSkills, e)
		}
	case tagTools, tagServers:
		if name == "probe" {
			p := &d.pos.tools
			if tag == tagServers {
				p = &d.pos.servers
			}
			ep := &(*p)[idx]
			setEntry(&ep.probe, &ep.hasProbe, e)
		}
	}
}

// keyValue decodes "a.b.c = v" into the table t, depth segments deep,
// tagged tag (idx for an element).
func (d *fastDecoder) keyValue(t *dnode, depth int, tag fastTag, idx int, kv *unstable.Node) {
	v := kv.Value()
	if !v.Valid() {
		decline()
	}
	it := kv.Key()
	cur := t
	first := true
	for it.Next() {
		part := it.Node()
		d.work += int64(d.nlive)
		d.events++
		depth++
		d.deep(depth)
		n := d.intern(part.Data)
		if it.IsLast() {
			if _, dup := cur.m[n.s]; dup {
				decline()
			}
			pl := keyPathLen(cur.pathLen, n)
			d.count(pl)
			d.nlive++
			d.created++
			ks := d.rng(part.Raw)
			var val any
			if first && tag == tagRoot && v.Kind == unstable.Array && (n.s == "tools" || n.s == "servers") {
				et := tagTools
				if n.s == "servers" {
					et = tagServers
				}
				val = d.array(v, depth, pl, et, d.valueSpanOf(v, afterEquals(d.src, ks)))
			} else {
				val = d.value(v, depth, pl)
			}
			cur.m[n.s] = val
			if len(cur.m) > d.maxKeys {
				decline()
			}
			if first && tag != tagNone {
				e := entry{key: ks}
				if tag == tagRoot {
					e.value = d.valueSpanOf(v, afterEquals(d.src, ks))
				}
				d.note(tag, idx, n.s, e)
			}
			return
		}
		next := cur.kid(n.s)
		if next == nil {
			// A key that is taken here is not a table dotted keys made
			// here: TOML forbids extending it with dotted keys.
			m, pl := d.addTable(cur.m, cur.pathLen, n)
			d.created++
			next = &dnode{m: m, pathLen: pl}
			cur.names = append(cur.names, n.s)
			cur.kids = append(cur.kids, next)
			if first && tag != tagNone {
				d.note(tag, idx, n.s, entry{key: d.rng(part.Raw), implicit: true})
			}
		}
		cur = next
		first = false
	}
	decline() // a key/value without a key
}

// value decodes a value depth segments deep whose path is pathLen long.
func (d *fastDecoder) value(v *unstable.Node, depth, pathLen int) any {
	switch v.Kind {
	case unstable.String:
		return any(d.fastString(v.Data))
	case unstable.Integer:
		return fastInteger(v.Data)
	case unstable.Float:
		return fastFloat(v.Data)
	case unstable.Bool:
		return v.Data[0] == 't'
	case unstable.Array:
		return d.array(v, depth, pathLen, tagNone, span{})
	case unstable.InlineTable:
		return d.inline(v, depth, pathLen, tagNone, 0)
	}
	// Datetimes: go-toml's types, which no valid manifest holds anyway.
	decline()
	return nil
}

// inline decodes an inline table, tagged tag (idx for an element).
func (d *fastDecoder) inline(v *unstable.Node, depth, pathLen int, tag fastTag, idx int) map[string]any {
	n := 0
	for it := v.Children(); it.Next(); {
		n++
	}
	t := dnode{m: make(map[string]any, n), pathLen: pathLen}
	for it := v.Children(); it.Next(); {
		kv := it.Node()
		switch kv.Kind {
		case unstable.KeyValue:
			d.keyValue(&t, depth, tag, idx, kv)
		case unstable.Comment:
		default:
			decline()
		}
	}
	return t.m
}

// array decodes an array. elemTag, when set, says it is the top-level
// tools or servers array, whose elements' positions are recorded; at is
// the array's span.
func (d *fastDecoder) array(v *unstable.Node, depth, pathLen int, elemTag fastTag, at span) []any {
	depth++
	d.deep(depth)
	n := 0
	for it := v.Children(); it.Next(); {
		if it.Node().Kind != unstable.Comment {
			n++
		}
	}
	switch {
	case elemTag == tagTools && n > d.maxTools, elemTag == tagServers && n > d.maxServers,
		elemTag == tagNone && n > d.maxArray:
		decline()
	}
	out := make([]any, 0, n)
	for it := v.Children(); it.Next(); {
		el := it.Node()
		if el.Kind == unstable.Comment {
			continue
		}
		i := len(out)
		pl := pathLen + 2 + decimalLen(i)
		d.count(pl)
		if el.Kind == unstable.InlineTable || el.Kind == unstable.Array {
			d.nlive++ // the tracker's anonymous entry
			d.created++
		}
		if elemTag == tagNone {
			out = append(out, d.value(el, depth, pl))
			continue
		}
		es := d.valueSpanOf(el, d.firstSpan(el, at))
		p := &d.pos.tools
		if elemTag == tagServers {
			p = &d.pos.servers
		}
		*p = append(*p, elemPos{table: entry{key: es, value: es}})
		if el.Kind == unstable.InlineTable {
			out = append(out, d.inline(el, depth, pl, elemTag, i))
		} else {
			out = append(out, d.value(el, depth, pl))
		}
	}
	return out
}

// header decodes a [x.y] or [[x.y]] header and returns the table it
// opens, declining anything TOML or go-toml might refuse or read
// differently: only tables headers made are reopened or gone through.
func (d *fastDecoder) header(e *unstable.Node, array bool) *fnode {
	it := e.Key()
	if !it.Next() {
		decline()
	}
	first := it.Node()
	cur := d.root
	depth := 0
	for {
		part := it.Node()
		last := it.IsLast()
		d.work += int64(d.nlive)
		d.events++
		depth++
		d.deep(depth)
		n := d.intern(part.Data)
		kid := cur.kid(n.s)
		if !last {
			if kid == nil {
				kid = d.newTable(cur, n, false)
				d.note(cur.tag, cur.idx, n.s, entry{key: d.rng(part.Raw), implicit: true})
			}
			if kid.aot {
				// Into the latest element, as TOML says.
				depth++
				d.deep(depth)
				kid = kid.last
			}
			cur = kid
			it.Next()
			continue
		}
		whole := headerSpan(d.src, d.rebase(first.Raw), d.rebase(part.Raw))
		if !array {
			switch {
			case kid == nil:
				kid = d.newTable(cur, n, true)
			case kid.aot || kid.explicit:
				decline()
			default:
				kid.explicit = true
			}
			d.note(cur.tag, cur.idx, n.s, entry{key: d.rng(part.Raw), value: whole, header: whole})
			kid.depth = depth
			return kid
		}
		if kid == nil {
			kid = d.newTable(cur, n, false)
			kid.aot = true
			if cur == d.root && n.s == "tools" {
				kid.arr = make([]any, 0, d.toolsHint)
			}
			d.note(cur.tag, cur.idx, n.s, entry{key: d.rng(part.Raw), implicit: true})
		} else if !kid.aot {
			decline()
		} else {
			// go-toml forgets the keys of the previous element, visiting
			// every live entry.
			d.work += int64(d.nlive)
			d.events++
			d.nlive -= kid.live
			for a := kid.parent; a != nil; a = a.parent {
				if a.aot {
					a.live -= kid.live
				}
			}
			kid.live = 0
		}
		depth++
		d.deep(depth)
		i := len(kid.arr)
		tag := tagNone
		if cur == d.root {
			switch n.s {
			case "tools":
				tag = tagTools
			case "servers":
				tag = tagServers
			}
		}
		switch {
		case tag == tagTools && i+1 > d.maxTools, tag == tagServers && i+1 > d.maxServers,
			tag == tagNone && i+1 > d.maxArray:
			decline()
		}
		if tag == tagTools && d.pipe != nil && i-d.pipe.next >= toolBatchSize {
			// Elements before i are complete: nothing can reopen them.
			lo := d.pipe.next
			d.pipe.submit(lo, kid.arr[lo:i:i], d.pos.tools[lo:i:i])
		}
		elem := d.newNode()
		*elem = fnode{m: make(map[string]any, 4), parent: kid, explicit: true, pathLen: kid.pathLen + 2 + decimalLen(i), depth: depth, tag: tag, idx: i}
		if d.chunk && tag == tagTools {
			d.elemVals = append(d.elemVals, d.values)
		}
		d.count(elem.pathLen)
		switch tag {
		case tagTools:
			if d.pos.tools == nil {
				d.pos.tools = make([]elemPos, 0, d.toolsHint)
			}
			d.pos.tools = append(d.pos.tools, elemPos{table: entry{key: d.rng(part.Raw), value: whole, header: whole}})
		case tagServers:
			d.pos.servers = append(d.pos.servers, elemPos{table: entry{key: d.rng(part.Raw), value: whole, header: whole}})
		}
		kid.arr = append(kid.arr, elem.m)
		if cur == d.root {
			if !kid.rooted {
				kid.name, kid.rooted = n.s, true
				d.rootArrays = append(d.rootArrays, kid)
			}
		} else {
			cur.m[n.s] = kid.arr
		}
		kid.last = elem
		return elem
	}
}

// addTable puts a new, empty table under n.s in parent, declining if the
// key is taken or the table would pass the keys-per-table limit, and
// counts it as the limits and go-toml's key tracker do; it returns the
// table and its path's length.
func (d *fastDecoder) addTable(parent map[string]any, parentLen int, n nameInfo) (map[string]any, int) {
	if _, exists := parent[n.s]; exists {
		decline()
	}
	m := map[string]any{}
	parent[n.s] = m
	if len(parent) > d.maxKeys {
		decline()
	}
	pl := keyPathLen(parentLen, n)
	d.count(pl)
	d.nlive++
	return m, pl
}

// newTable makes the table (or array of tables) name in cur for a header.
func (d *fastDecoder) newTable(cur *fnode, n nameInfo, explicit bool) *fnode {
	// A key that is taken is a value, an inline table or array, or a
	// table dotted keys made: not for a header to reopen.
	m, pl := d.addTable(cur.m, cur.pathLen, n)
	for a := cur; a != nil; a = a.parent {
		if a.aot {
			a.live++
		}
	}
	kid := d.newNode()
	*kid = fnode{m: m, parent: cur, pathLen: pl, explicit: explicit}
	cur.addKid(n.s, kid)
	return kid
}

// fastInteger is go-toml's parseInteger (the parser has checked the
// digits and underscores), declining where it errs.
func fastInteger(b []byte) int64 {
	if len(b) > 2 && b[0] == '0' {
		var shift uint
		switch b[1] {
		case 'x':
			shift = 4
		case 'o':
			shift = 3
		case 'b':
			shift = 1
		default:
			decline()
		}
		var v uint64
		for _, c := range b[2:] {
			var digit byte
			switch {
			case c == '_':
				continue
			case '0' <= c && c <= '9':
				digit = c - '0'
			case 'a' <= c && c <= 'f':
				digit = c - 'a' + 10
			case 'A' <= c && c <= 'F':
				digit = c - 'A' + 10
			default:
				decline()
			}
			if v > math.MaxInt64>>shift {
				decline()
			}
			v = v<<shift | uint64(digit)
		}
		return int64(v)
	}
	i, neg := 0, false
	switch b[0] {
	case '-':
		neg = true
		i++
	case '+':
		i++
	}
	var limit uint64 = math.MaxInt64
	if neg {
		limit = math.MaxInt64 + 1
	}
	var v uint64
	for ; i < len(b); i++ {
		c := b[i]
		if c == '_' {
			continue
		}
		if c < '0' || c > '9' || v > limit/10 {
			decline()
		}
		if v = v*10 + uint64(c-'0'); v > limit {
			decline()
		}
	}
	if neg {
		return -int64(v)
	}
	return int64(v)
}

// fastFloat is go-toml's parseFloat for finite floats; infinities and
// NaN, which no valid manifest holds (JSON has none), are declined.
func fastFloat(b []byte) float64 {
	if bytes.IndexByte(b, 'i') >= 0 || bytes.IndexByte(b, 'n') >= 0 {
		decline()
	}
	s := string(b)
	if strings.IndexByte(s, '_') >= 0 {
		s = strings.ReplaceAll(s, "_", "")
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		decline()
	}
	return f
}
