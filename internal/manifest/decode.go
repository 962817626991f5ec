package manifest

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"

	"github.com/pelletier/go-toml/v2/unstable"
)

// The manifest's decoder: one pass over go-toml's unstable parser that
// records where every key and value is (the index, positions.go), counts
// every limit, and builds the map toml.Unmarshal builds. It refuses what
// toml.Unmarshal refuses (a key or table defined twice, a table reopened
// or extended in a way TOML forbids, a number or date out of range) with
// go-toml's message at go-toml's position, following its key tracker's
// rules, so that a manifest reads the same whichever decodes it; go-toml's
// decoder reads the values it does not (tomlerror.go). FuzzDecodeExact and
// TestDecodeExactMatchesGoTOML hold it to toml.Unmarshal. It exists
// because go-toml's duplicate-key checks cost the square of a table's
// keys (TestDecoderLinearWhereGoTOMLWasNot).
//
// A refusal ends the decoding, not the pass: a syntax error or a limit
// further on is still met, and the manifest reports it first, since
// nothing after a syntax error can be trusted and a limit bounds what
// reading costs.

// decodeState is the decoder's part of an index.
type decodeState struct {
	// expr is the expression being read, whose key go-toml's messages
	// point at; valErr is the first value in it go-toml would refuse,
	// reported when the expression ends unless its keys are refused
	// first (go-toml checks an expression's keys before its values).
	expr   *unstable.Node
	valErr *tomlError
	// refused is the document's refusal: decoding stops at the first.
	refused *tomlError
	// tableArrays are the arrays of tables, whose values are set in
	// their parents once every element is read.
	tableArrays []int32
	// doc is the decoded document, once read without a refusal.
	doc map[string]any
}

// tableKind is how a node came to be, which decides how TOML lets it be
// reopened or extended. A table is one a header made or went through, one
// dotted keys made (in a section, or in an inline table while it is read),
// an array of tables, an element of one, or the document; a value (a
// scalar, an inline table, an array, or an element of one) is neither
// reopened nor extended. The names are go-toml's, which its messages use.
type tableKind uint8

const (
	kindValue  tableKind = iota // not a table TOML lets a later key reach into
	kindTable                   // made by a [header], or on the way to one
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

// maxDepth bounds how deep a manifest may nest (path segments, array
// indices included: "tools[0].parameters" is 3): paths grow with depth,
// and a real manifest, JSON Schemas included, stays far below it.
const maxDepth = 100

// readTOML reads src in one pass over go-toml's parser: it records every
// path, counts what lim caps and stops at the first thing over a limit
// (ix.over) or nested too deep (ix.deep), and decodes the document into
// ix.doc, or notes in ix.refused why toml.Unmarshal would refuse it. It
// returns the parser's error for a document that is not TOML.
func readTOML(src []byte, lim Limits) (*index, error) {
	lim = lim.resolved()
	// Sized for about one path per 20 bytes, as real manifests have.
	guess := min(len(src)/20, lim.MaxValues) + 16
	ix := &index{
		src: src, nodes: make([]node, 1, guess), kids: map[uint64]int32{}, names: newInterner(),
		lim: lim, maxPath: maxPathBytes(len(src)),
	}
	ix.nodes[0] = node{parent: noNode, m: map[string]any{}, kind: kindTable, explicit: true}
	var p unstable.Parser
	p.Reset(src)
	table := int32(0) // the table that key/values go into
	for ix.deep.len == 0 && ix.over == nil && p.NextExpression() {
		expr := p.Expression()
		ix.expr = expr
		switch expr.Kind {
		case unstable.KeyValue:
			depth := 0
			if table != noNode {
				depth = int(ix.nodes[table].depth)
			}
			ix.keyValue(table, depth, expr)
		case unstable.Table:
			table = ix.header(expr, false)
		case unstable.ArrayTable:
			table = ix.header(expr, true)
		}
		if ix.refused == nil && ix.valErr != nil {
			ix.refused = ix.valErr
		}
	}
	if ix.over != nil {
		return ix, nil
	}
	if err := p.Error(); err != nil {
		return ix, err
	}
	if ix.decoding() {
		ix.setTableArrays()
		ix.doc = ix.nodes[0].m
	}
	return ix, nil
}

// decoding reports whether values are still being decoded: not once the
// document is refused, over a limit or too deep.
func (ix *index) decoding() bool {
	return ix.refused == nil && ix.over == nil && ix.deep.len == 0
}

// refuse stops decoding with go-toml's tracker's message about the key
// name, which go-toml points at the key of the expression being read.
func (ix *index) refuse(format string, name uint32) {
	it := ix.expr.Key()
	off, last := -1, ""
	for it.Next() {
		part := it.Node()
		if off < 0 {
			off = rangeSpan(part.Raw).off
		}
		last = string(part.Data)
	}
	if ix.refused == nil {
		ix.refused = &tomlError{off: max(off, 0), key: last, msg: fmt.Sprintf(format, ix.names.names[name])}
	}
}

// open makes id, new under the table parent, a table of kind. An array of
// tables' value is set once its elements are all read (setTableArrays).
func (ix *index) open(parent, id int32, kind tableKind, explicit bool) {
	n := &ix.nodes[id]
	n.kind, n.explicit = kind, explicit
	if kind == kindArray {
		ix.tableArrays = append(ix.tableArrays, id)
		return
	}
	n.m = map[string]any{}
	ix.nodes[parent].m[ix.names.names[n.seg]] = n.m
}

// setTableArrays puts each array of tables in its parent, its elements in
// the order their headers came.
func (ix *index) setTableArrays() {
	for _, id := range ix.tableArrays {
		n := &ix.nodes[id]
		arr := make([]any, n.arrays)
		for k := n.firstKid; k > 0; k = ix.nodes[k].nextKid {
			if seg := ix.nodes[k].seg; seg&elemBit != 0 {
				arr[seg&^elemBit] = ix.nodes[k].m
			}
		}
		ix.nodes[n.parent].m[ix.names.names[n.seg]] = arr
	}
}

// header reads a [x.y] or [[x.y]] header and returns the table it opens.
// A header goes through any table to reach its own, into the latest
// element of an array of tables.
func (ix *index) header(n *unstable.Node, array bool) int32 {
	parts := keyParts(n)
	if len(parts) == 0 {
		return 0
	}
	whole := ix.headerSpan(parts[0].Raw, parts[len(parts)-1].Raw)
	cur := int32(0)
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
			return 0
		}
		name := ix.names.id(part.Data)
		last := i == len(parts)-1
		parent, kid, decoding := cur, ix.child(cur, name), ix.decoding()
		if decoding {
			decoding = ix.mayOpen(kid, name, last, array)
		}
		switch {
		case last && array:
			cur = ix.addKey(cur, name, kid, entry{key: rangeSpan(part.Raw), implicit: true})
			if decoding && kid == noNode && cur != noNode {
				ix.open(parent, cur, kindArray, false)
			}
			if deeper(part.Raw) {
				return 0
			}
			k := 0
			if cur != noNode {
				k = int(ix.nodes[cur].arrays)
				ix.nodes[cur].arrays++
			}
			cur = ix.addElem(cur, k, entry{key: rangeSpan(part.Raw), value: whole, header: whole})
			if cur != noNode {
				ix.nodes[cur].depth = int32(depth)
				if ix.decoding() {
					ix.nodes[cur].m, ix.nodes[cur].kind, ix.nodes[cur].explicit = make(map[string]any, 4), kindTable, true
				}
			}
		case last:
			cur = ix.addKey(cur, name, kid, entry{key: rangeSpan(part.Raw), value: whole, header: whole})
			if cur != noNode {
				ix.nodes[cur].depth = int32(depth)
				if decoding && kid == noNode {
					ix.open(parent, cur, kindTable, true)
				} else if decoding {
					ix.nodes[cur].explicit = true // defined here, gone through before
				}
			}
		default:
			cur = ix.addKey(cur, name, kid, entry{key: rangeSpan(part.Raw), implicit: true})
			if decoding && kid == noNode && cur != noNode {
				ix.open(parent, cur, kindTable, false)
			}
			// A header that goes through an array of tables goes into its
			// latest element, as TOML says.
			if cur != noNode {
				if k := ix.nodes[cur].arrays; k > 0 {
					if deeper(part.Raw) {
						return 0
					}
					cur = ix.child(cur, elemBit|uint32(k-1))
				}
			}
		}
	}
	return cur
}

// mayOpen reports whether a header may go through or open kid, the node
// at name (noNode if there is none), refusing it as go-toml's tracker
// does otherwise: a table defined twice, or one that is already a value,
// a table dotted keys made, or an array of tables where a table is wanted
// (or the other way round).
func (ix *index) mayOpen(kid int32, name uint32, last, array bool) bool {
	if kid == noNode {
		return true
	}
	k := &ix.nodes[kid]
	switch {
	case k.kind == kindValue && !last:
		ix.refuse("key %s already exists as a value", name)
	case k.kind == kindValue && array:
		ix.refuse("key %s already exists as a value, but should be an array table", name)
	case k.kind == kindValue:
		ix.refuse("key %s should be a table, not a value", name)
	case !last:
	case array && k.kind != kindArray:
		ix.refuse("key %s already exists as a "+k.kind.String()+", but should be an array table", name)
	case array:
	case k.kind == kindDotted:
		ix.refuse("table %s already exists as defined by a dotted key", name)
	case k.kind == kindArray:
		ix.refuse("table %s already exists as an array of tables", name)
	case k.explicit:
		ix.refuse("table %s already exists", name)
	}
	return ix.refused == nil
}

// keyValue reads "a.b = value" into the table base, depth segments deep,
// and whatever the value contains, refusing a key as go-toml's tracker
// does: a key defined twice, or a dotted key through anything but a table
// dotted keys made.
func (ix *index) keyValue(base int32, depth int, n *unstable.Node) {
	value := n.Value()
	if !value.Valid() {
		return
	}
	it := n.Key()
	if !it.Next() {
		return
	}
	first := it.Node()
	nparts := 1
	for more := it; more.Next(); {
		nparts++
	}
	if depth += nparts; depth > maxDepth {
		ix.tooDeep(rangeSpan(first.Raw))
		return
	}
	cur := base
	it = n.Key()
	for it.Next() {
		part := it.Node()
		name := ix.names.id(part.Data)
		parent, kid, decoding := cur, ix.child(cur, name), ix.decoding()
		if it.IsLast() {
			if decoding && kid != noNode {
				ix.refuse("key %s is already defined", name)
			}
			last := rangeSpan(part.Raw)
			vs := ix.valueSpan(value, ix.afterEquals(last))
			cur = ix.addKey(cur, name, kid, entry{key: last, value: vs})
			if ix.over == nil {
				v := ix.value(cur, depth, value, vs)
				if decoding && ix.refused == nil {
					ix.nodes[parent].m[ix.names.names[name]] = v
				}
			}
			return
		}
		if decoding && kid != noNode && ix.nodes[kid].kind != kindDotted {
			ix.refuse("key %s is already defined", name)
		}
		cur = ix.addKey(cur, name, kid, entry{key: rangeSpan(part.Raw), implicit: true})
		if decoding && kid == noNode && cur != noNode {
			ix.open(parent, cur, kindDotted, false)
		}
	}
}

// value reads what is inside a value at node id, depth segments deep (the
// key/values of an inline table, the elements of an array), and returns
// it decoded while decoding.
func (ix *index) value(id int32, depth int, v *unstable.Node, at span) any {
	switch v.Kind {
	case unstable.InlineTable:
		if ix.decoding() && id != noNode {
			n := 0
			for it := v.Children(); it.Next(); {
				n++
			}
			ix.nodes[id].m = make(map[string]any, n)
		}
		it := v.Children()
		for ix.over == nil && it.Next() {
			if kv := it.Node(); kv.Kind == unstable.KeyValue {
				ix.keyValue(id, depth, kv)
			}
		}
		if id == noNode {
			return nil
		}
		return ix.nodes[id].m
	case unstable.Array:
		if depth+1 > maxDepth {
			ix.tooDeep(at)
			return nil
		}
		var out []any
		if ix.decoding() {
			n := 0
			for it := v.Children(); it.Next(); {
				if it.Node().Kind != unstable.Comment {
					n++
				}
			}
			out = make([]any, 0, n)
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
			p := ix.addElem(id, i, entry{key: es, value: es})
			if e := ix.value(p, depth+1, el, es); ix.decoding() {
				out = append(out, e)
			}
			i++
		}
		return out
	}
	if !ix.decoding() {
		return nil
	}
	return ix.scalar(v)
}

// scalar decodes a value that is neither an array nor an inline table.
func (ix *index) scalar(v *unstable.Node) any {
	switch v.Kind {
	case unstable.String:
		return string(v.Data)
	case unstable.Integer:
		if i, ok := parseInteger(v.Data); ok {
			return i
		}
	case unstable.Float:
		if f, ok := parseFloat(v.Data); ok {
			return f
		}
	case unstable.Bool:
		return v.Data[0] == 't'
	}
	// A datetime, an infinity, NaN, a number out of range: go-toml's
	// value or its error, which no valid manifest holds anyway.
	return ix.goTOMLValue(v)
}

// parseInteger reads an integer the parser has checked (digits,
// underscores between them, a sign or a 0x, 0o or 0b prefix), not ok
// where go-toml's decoder errs (out of range).
func parseInteger(b []byte) (int64, bool) {
	s, base := strings.ReplaceAll(string(b), "_", ""), 10
	if len(s) > 2 && s[0] == '0' {
		switch s[1] {
		case 'x':
			base = 16
		case 'o':
			base = 8
		case 'b':
			base = 2
		default:
			return 0, false
		}
		s = s[2:]
	}
	i, err := strconv.ParseInt(s, base, 64)
	return i, err == nil
}

// parseFloat is go-toml's parseFloat for finite floats, not ok for
// infinities and NaN (which no valid manifest holds: JSON has none) and
// where it errs.
func parseFloat(b []byte) (float64, bool) {
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
