package manifest

import (
	"bytes"
	"math"
	"strconv"
	"strings"

	"github.com/pelletier/go-toml/v2/unstable"
)

// The manifest's decoder: one pass over go-toml's unstable parser that
// builds exactly the map toml.Unmarshal builds, and refuses exactly what
// toml.Unmarshal refuses (a key or table defined twice, a table reopened
// or extended in a way TOML forbids) with go-toml's message at go-toml's
// position, following its key tracker's rules (header, keyValue); the
// values it does not read itself (datetimes, infinities, NaN, numbers out
// of range) it has go-toml's decoder read (tomlerror.go). FuzzDecodeExact
// and TestDecodeExactMatchesGoTOML hold it to toml.Unmarshal.
//
// Parse runs it twice at most. First as the fast path (fastDecode): the
// limits counted as it goes (declining at the first doubt, see below),
// only the positions a valid Manifest keeps recorded (a tool's, a
// probe's, [skills]'s), and the checks run on its map. That is the whole
// parse of a valid manifest. On anything to report, Parse reads the
// document again to report it: the byte scan and the position index
// (positions.go: every limit exactly, the syntax error, every position),
// then this decoder with no limits of its own (decodeExact), then the
// same checks with every position at hand, so every message, position
// and caret comes from one serial pass in file order. A position a valid
// Manifest keeps that is not among the few recorded here (an upstream
// server's tool rules and their probes) makes the checks build the
// position index then, once (checker.lazyIndex).
// FuzzFastPathMatchesFullPath checks that the two passes agree on any
// input; TestFastPathTaken that clean manifests take the fast one.
//
// With more than one core, the fast path also uses them all: a large
// document is decoded in chunks at once (fastchunk.go), and its tools are
// checked while the rest decodes (fastcheck.go). Its strings share one
// copy of the source (fastString; detach.go gives the Manifest's own
// homes), and its tables' nodes come a slab at a time (newNode).

// fastPathEnabled switches the fast path; off, Parse is the reporting
// pass alone (the full path).
const fastPathEnabled = true

// declined is what fastDecode panics with to give up: deep in a value,
// unwinding is simpler than threading an error through every call, and
// declining is the rare case. It and a *tomlError (a document go-toml
// refuses) are the only panics the decoder means: its recovers record
// any other as a bug (see bugs.go).
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

// fnode is a table the decoder may be asked to reopen or extend: one a
// header made or went through, one dotted keys made (in a section, or in
// an inline table while it is read), an array of tables, an element of
// one, or the document. Its kind, as go-toml's key tracker records it,
// decides which later headers and dotted keys may reach into it; keys that
// hold anything else (a value, an inline table, an array) are only in m.
type fnode struct {
	m map[string]any
	// kids are the tables under it, listed while few, then in kidMap.
	kids   []namedKid
	kidMap map[string]*fnode
	// For an array of tables: its elements and the latest.
	arr     []any
	last    *fnode
	pathLen int
	// name is its key, for a top-level array of tables (rooted says it
	// is in rootArrays).
	name     string
	rooted   bool
	depth    int
	idx      int
	tag      fastTag
	kind     tableKind
	explicit bool // a table its own [header] made
}

// tableKind is how a table came to be, which decides how TOML lets it be
// reopened or extended; the names are go-toml's, which its messages use.
type tableKind uint8

const (
	kindTable  tableKind = iota // made by a [header], or on the way to one
	kindDotted                  // made by a dotted key: only dotted keys extend it
	kindArray                   // an array of tables, made by [[header]]
)

func (k tableKind) String() string {
	switch k {
	case kindDotted:
		return "kv-table"
	case kindArray:
		return "array-table"
	}
	return "table"
}

// namedKid is a table under an fnode, and its key.
type namedKid struct {
	name string
	node *fnode
}

func (n *fnode) kid(name string) *fnode {
	if n.kidMap != nil {
		return n.kidMap[name]
	}
	for _, k := range n.kids {
		if k.name == name {
			return k.node
		}
	}
	return nil
}

func (n *fnode) addKid(name string, k *fnode) {
	if n.kidMap != nil {
		n.kidMap[name] = k
		return
	}
	n.kids = append(n.kids, namedKid{name, k})
	if len(n.kids) > maxListed {
		n.kidMap = make(map[string]*fnode, 2*len(n.kids))
		for _, k := range n.kids {
			n.kidMap[k.name] = k.node
		}
		n.kids = nil
	}
}

// holds reports whether name is a key in n's map; for a name that is not
// one of n's tables (kid), that is a value: a scalar, an inline table or
// an array. (A top-level array of tables is a kid before it is in the map:
// see setRootArrays.)
func (n *fnode) holds(name string) bool {
	_, ok := n.m[name]
	return ok
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
	// sec is the table key/values go into.
	sec *fnode
	// expr is the expression being decoded, whose key go-toml's messages
	// point at; valErr is the first value in it go-toml would refuse,
	// reported when the expression ends unless its keys are refused
	// first (go-toml checks an expression's keys before its values).
	expr   *unstable.Node
	valErr *tomlError

	// What the limits count, as the index counts it, and the limits.
	// Values and path bytes are counted exactly as the index counts them
	// (FuzzFastPathMatchesFullPath and TestFastPathAtLimits hold them
	// equal), so they are capped at the limits themselves: a manifest of
	// 50,000 tools is 850,000 values, and a decline at half of MaxValues
	// sent it down the full path after the fast one. Keys per table,
	// array lengths and depth are estimated, so the fast path declines at
	// half of those. An exact decoder (decodeExact) has no limits: the
	// index has counted them all.
	values, pathBytes  int
	maxValues, maxKeys int
	maxArray, maxPath  int
	maxTools           int
	maxServers         int
	maxDepth           int

	// The state of a chunk decoder (see fastchunk.go): chunk is set for
	// one, last for the last chunk; stopAt is where it stopped, at a
	// header outside [[tools]] (-1: at its end); elemVals is d.values
	// when each element began; batches are its tools, checked, and
	// checked how many of them.
	chunk, last bool
	stopAt      int
	// exact is set for decodeExact's decoder.
	exact    bool
	elemVals []int
	batches  []*toolBatch
	checked  int
}

// fastDecode decodes src as toml.Unmarshal would into a map[string]any,
// with the positions a valid Manifest holds, or declines (ok false): a
// document over a limit, or near one it estimates, one that is not TOML,
// and one go-toml refuses, all of which the reporting pass then reports.
// lim must be resolved.
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

// decodeExact decodes src as toml.Unmarshal would into a map[string]any,
// or returns the error toml.Unmarshal would: a key or table defined
// twice, a table reopened in a way TOML forbids, a number or date out of
// range. It is the fast decoder without its limits, for a document the
// position index has read whole (so its syntax is good and it is within
// every limit); its strings are its own.
func decodeExact(src []byte) (doc map[string]any, terr *tomlError) {
	defer func() {
		if r := recover(); r != nil {
			e, ok := r.(*tomlError)
			if !ok {
				// A decline (the index has checked all the decoder
				// declines) or a bug: the caller's to record.
				panic(r)
			}
			doc, terr = nil, e
		}
	}()
	d := newFastDecoder(src, "", Limits{}.resolved(), nil)
	d.exact = true
	d.maxValues, d.maxKeys, d.maxArray, d.maxPath = math.MaxInt, math.MaxInt, math.MaxInt, math.MaxInt
	d.maxTools, d.maxServers, d.maxDepth = math.MaxInt-1, math.MaxInt-1, math.MaxInt
	d.run()
	d.setRootArrays()
	return d.root.m, nil
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
		maxDepth:   maxDepth / 2,
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
// escapes), else (or for an exact decoder) a copy.
func (d *fastDecoder) fastString(b []byte) string {
	if d.exact {
		return string(b)
	}
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
		switch {
		case d.chunk:
			fault("chunk")
		case d.exact:
			fault("exact")
		default:
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
	d.sec = d.root
	for first := true; d.p.NextExpression(); first = false {
		e := d.p.Expression()
		d.expr = e
		switch e.Kind {
		case unstable.KeyValue:
			if d.chunk && first {
				decline()
			}
			d.keyValue(d.sec, d.sec.depth, d.sec.tag, d.sec.idx, e)
		case unstable.Table, unstable.ArrayTable:
			if d.chunk && d.chunkStops(e, first) {
				return
			}
			d.sec = d.header(e, e.Kind == unstable.ArrayTable)
		default:
			decline()
		}
		if d.valErr != nil {
			panic(d.valErr)
		}
	}
	if d.p.Error() != nil {
		decline()
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
	if depth > d.maxDepth {
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
// tagged tag (idx for an element), refusing a key as go-toml's tracker
// does: a key defined twice, or a dotted key through anything but a table
// dotted keys made.
func (d *fastDecoder) keyValue(t *fnode, depth int, tag fastTag, idx int, kv *unstable.Node) {
	v := kv.Value()
	if !v.Valid() {
		decline()
	}
	it := kv.Key()
	cur := t
	first := true
	for it.Next() {
		part := it.Node()
		depth++
		d.deep(depth)
		n := d.intern(part.Data)
		next := cur.kid(n.s)
		if it.IsLast() {
			if next != nil || cur.holds(n.s) {
				d.refuse("key %s is already defined", n.s)
			}
			pl := keyPathLen(cur.pathLen, n)
			d.count(pl)
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
		switch {
		case next == nil && cur.holds(n.s), next != nil && next.kind != kindDotted:
			d.refuse("key %s is already defined", n.s)
		case next == nil:
			next = d.newTable(cur, n, kindDotted, false)
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
		if i, ok := fastInteger(v.Data); ok {
			return i
		}
	case unstable.Float:
		if f, ok := fastFloat(v.Data); ok {
			return f
		}
	case unstable.Bool:
		return v.Data[0] == 't'
	case unstable.Array:
		return d.array(v, depth, pathLen, tagNone, span{})
	case unstable.InlineTable:
		return d.inline(v, depth, pathLen, tagNone, 0)
	}
	// A datetime, an infinity, NaN, a number out of range: go-toml's
	// value or its error, which no valid manifest holds anyway.
	return d.goTOMLValue(v)
}

// inline decodes an inline table, tagged tag (idx for an element).
func (d *fastDecoder) inline(v *unstable.Node, depth, pathLen int, tag fastTag, idx int) map[string]any {
	n := 0
	for it := v.Children(); it.Next(); {
		n++
	}
	t := fnode{m: make(map[string]any, n), pathLen: pathLen}
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
// opens, refusing one as go-toml's tracker does: a table defined twice,
// or one that is already a value, a table dotted keys made, or an array
// of tables where a table is wanted (or the other way round). A header
// goes through any table to reach its own, into the latest element of an
// array of tables.
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
		depth++
		d.deep(depth)
		n := d.intern(part.Data)
		kid := cur.kid(n.s)
		if kid == nil && cur.holds(n.s) {
			switch {
			case !last:
				d.refuse("key %s already exists as a value", n.s)
			case array:
				d.refuse("key %s already exists as a value, but should be an array table", n.s)
			default:
				d.refuse("key %s should be a table, not a value", n.s)
			}
		}
		if !last {
			if kid == nil {
				kid = d.newTable(cur, n, kindTable, false)
				d.note(cur.tag, cur.idx, n.s, entry{key: d.rng(part.Raw), implicit: true})
			}
			if kid.kind == kindArray {
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
				kid = d.newTable(cur, n, kindTable, true)
			case kid.kind == kindDotted:
				d.refuse("table %s already exists as defined by a dotted key", n.s)
			case kid.kind == kindArray:
				d.refuse("table %s already exists as an array of tables", n.s)
			case kid.explicit:
				d.refuse("table %s already exists", n.s)
			default:
				kid.explicit = true
			}
			d.note(cur.tag, cur.idx, n.s, entry{key: d.rng(part.Raw), value: whole, header: whole})
			kid.depth = depth
			return kid
		}
		switch {
		case kid == nil:
			kid = d.newTable(cur, n, kindArray, false)
			if cur == d.root && n.s == "tools" {
				kid.arr = make([]any, 0, d.toolsHint)
			}
			d.note(cur.tag, cur.idx, n.s, entry{key: d.rng(part.Raw), implicit: true})
		case kid.kind != kindArray:
			d.refuse("key %s already exists as a "+kid.kind.String()+", but should be an array table", n.s)
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
		*elem = fnode{m: make(map[string]any, 4), explicit: true, pathLen: kid.pathLen + 2 + decimalLen(i), depth: depth, tag: tag, idx: i}
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

// newTable puts a new, empty table of kind under n.s in cur, declining if
// cur would pass the keys-per-table limit, and counts it as the limits
// do.
func (d *fastDecoder) newTable(cur *fnode, n nameInfo, kind tableKind, explicit bool) *fnode {
	// An array of tables' value is set when its first element is, or
	// for a top-level one at the end (setRootArrays).
	m := map[string]any{}
	cur.m[n.s] = m
	if len(cur.m) > d.maxKeys {
		decline()
	}
	pl := keyPathLen(cur.pathLen, n)
	d.count(pl)
	kid := d.newNode()
	*kid = fnode{m: m, pathLen: pl, kind: kind, explicit: explicit}
	cur.addKid(n.s, kid)
	return kid
}

// fastInteger is go-toml's parseInteger (the parser has checked the
// digits and underscores), not ok where it errs.
func fastInteger(b []byte) (int64, bool) {
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
			return 0, false
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
				return 0, false
			}
			if v > math.MaxInt64>>shift {
				return 0, false
			}
			v = v<<shift | uint64(digit)
		}
		return int64(v), true
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
			return 0, false
		}
		if v = v*10 + uint64(c-'0'); v > limit {
			return 0, false
		}
	}
	if neg {
		return -int64(v), true
	}
	return int64(v), true
}

// fastFloat is go-toml's parseFloat for finite floats, not ok for
// infinities and NaN (which no valid manifest holds: JSON has none) and
// where it errs.
func fastFloat(b []byte) (float64, bool) {
	if bytes.IndexByte(b, 'i') >= 0 || bytes.IndexByte(b, 'n') >= 0 {
		return 0, false
	}
	s := string(b)
	if strings.IndexByte(s, '_') >= 0 {
		s = strings.ReplaceAll(s, "_", "")
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return 0, false
	}
	return f, true
}
