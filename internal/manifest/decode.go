package manifest

import (
	"bytes"
	"strconv"
	"strings"

	"github.com/pelletier/go-toml/v2/unstable"
)

// The manifest's decoder: one pass over go-toml's unstable parser that
// builds the map toml.Unmarshal builds, and refuses what toml.Unmarshal
// refuses (a key or table defined twice, a table reopened or extended in
// a way TOML forbids, a number or date out of range) with go-toml's
// message at go-toml's position, following its key tracker's rules, so
// that a manifest reads the same whichever decodes it; go-toml's decoder
// reads the values it does not (tomlerror.go). FuzzDecodeExact and
// TestDecodeExactMatchesGoTOML hold it to toml.Unmarshal.
//
// It runs after the position index (positions.go), which has read the
// whole document and counted every limit, so it has no limits of its
// own. It exists because go-toml's duplicate-key checks cost the square
// of a table's keys (TestDecoderLinearWhereGoTOMLWasNot).

// decoder is the state of one decodeExact.
type decoder struct {
	src []byte
	p   unstable.Parser
	// root is the document; sec is the table key/values go into.
	root, sec *table
	names     map[string]string // interned keys: every [[tools]] has a "name"
	nodes     []table           // where tables are allocated from, a slab at a time
	// rootArrays are the arrays of tables at the top (tools, servers),
	// whose values in the document are set at the end.
	rootArrays []*table
	toolsHint  int // how many [[tools]] the input has, for the array's capacity
	// expr is the expression being decoded, whose key go-toml's messages
	// point at; valErr is the first value in it go-toml would refuse,
	// reported when the expression ends unless its keys are refused
	// first (go-toml checks an expression's keys before its values).
	expr   *unstable.Node
	valErr *tomlError
	// err is the document's refusal: decoding stops at the first.
	err *tomlError
}

// table is a table the decoder may be asked to reopen or extend: one a
// header made or went through, one dotted keys made (in a section, or in
// an inline table while it is read), an array of tables, an element of
// one, or the document. Its kind, as go-toml's key tracker records it,
// decides which later headers and dotted keys may reach into it; keys that
// hold anything else (a value, an inline table, an array) are only in m.
type table struct {
	m map[string]any
	// kids are the tables under it, listed while few, then in kidMap.
	kids   []namedKid
	kidMap map[string]*table
	// For an array of tables: its elements and the latest.
	arr  []any
	last *table
	// name is its key, for a top-level array of tables (rooted says it
	// is in rootArrays).
	name     string
	rooted   bool
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

// namedKid is a table under a table, and its key.
type namedKid struct {
	name string
	node *table
}

func (t *table) kid(name string) *table {
	if t.kidMap != nil {
		return t.kidMap[name]
	}
	for _, k := range t.kids {
		if k.name == name {
			return k.node
		}
	}
	return nil
}

func (t *table) addKid(name string, k *table) {
	if t.kidMap != nil {
		t.kidMap[name] = k
		return
	}
	t.kids = append(t.kids, namedKid{name, k})
	if len(t.kids) > maxListed {
		t.kidMap = make(map[string]*table, 2*len(t.kids))
		for _, k := range t.kids {
			t.kidMap[k.name] = k.node
		}
		t.kids = nil
	}
}

// holds reports whether name is a key in t's map; for a name that is not
// one of t's tables (kid), that is a value: a scalar, an inline table or
// an array.
func (t *table) holds(name string) bool {
	_, ok := t.m[name]
	return ok
}

// decodeExact decodes src as toml.Unmarshal would into a map[string]any,
// or returns the error toml.Unmarshal would: a key or table defined
// twice, a table reopened in a way TOML forbids, a number or date out of
// range. src must be a document the position index has read whole (so
// its syntax is good and it is within every limit).
func decodeExact(src []byte) (map[string]any, *tomlError) {
	d := &decoder{
		src:       src,
		names:     make(map[string]string, 64),
		toolsHint: bytes.Count(src, []byte("[[tools]]")),
	}
	d.root = &table{m: map[string]any{}, explicit: true}
	d.run()
	if d.err != nil {
		return nil, d.err
	}
	for _, a := range d.rootArrays {
		d.root.m[a.name] = a.arr
	}
	return d.root.m, nil
}

// run decodes the document, stopping at its first refusal.
func (d *decoder) run() {
	d.p.Reset(d.src)
	d.sec = d.root
	for d.err == nil && d.p.NextExpression() {
		e := d.p.Expression()
		d.expr = e
		switch e.Kind {
		case unstable.KeyValue:
			d.keyValue(d.sec, e)
		case unstable.Table, unstable.ArrayTable:
			d.sec = d.header(e, e.Kind == unstable.ArrayTable)
		}
		if d.err == nil && d.valErr != nil {
			d.err = d.valErr
		}
	}
	if err := d.p.Error(); err != nil && d.err == nil {
		// The index read the same bytes without one: not expected, but
		// reported rather than trusted.
		d.err = &tomlError{msg: err.Error()}
	}
}

// fail stops decoding with e, unless it has stopped already.
func (d *decoder) fail(e *tomlError) {
	if d.err == nil {
		d.err = e
	}
}

// intern returns b as a string, allocated once per distinct key.
func (d *decoder) intern(b []byte) string {
	if s, ok := d.names[string(b)]; ok {
		return s
	}
	s := string(b)
	d.names[s] = s
	return s
}

// newNode returns a new table, from a slab: there is one per tool, all
// garbage once decoding is done.
func (d *decoder) newNode() *table {
	if len(d.nodes) == 0 {
		d.nodes = make([]table, 64)
	}
	t := &d.nodes[0]
	d.nodes = d.nodes[1:]
	return t
}

// keyValue decodes "a.b.c = v" into the table t, refusing a key as
// go-toml's tracker does: a key defined twice, or a dotted key through
// anything but a table dotted keys made.
func (d *decoder) keyValue(t *table, kv *unstable.Node) {
	v := kv.Value()
	it := kv.Key()
	cur := t
	for it.Next() {
		name := d.intern(it.Node().Data)
		next := cur.kid(name)
		if it.IsLast() {
			if next != nil || cur.holds(name) {
				d.refuse("key %s is already defined", name)
				return
			}
			cur.m[name] = d.value(v)
			return
		}
		switch {
		case next == nil && cur.holds(name), next != nil && next.kind != kindDotted:
			d.refuse("key %s is already defined", name)
			return
		case next == nil:
			next = d.newTable(cur, name, kindDotted, false)
		}
		cur = next
	}
}

// value decodes a value.
func (d *decoder) value(v *unstable.Node) any {
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
	case unstable.Array:
		return d.array(v)
	case unstable.InlineTable:
		return d.inline(v)
	}
	// A datetime, an infinity, NaN, a number out of range: go-toml's
	// value or its error, which no valid manifest holds anyway.
	return d.goTOMLValue(v)
}

// inline decodes an inline table.
func (d *decoder) inline(v *unstable.Node) map[string]any {
	n := 0
	for it := v.Children(); it.Next(); {
		n++
	}
	t := table{m: make(map[string]any, n)}
	for it := v.Children(); it.Next() && d.err == nil; {
		if kv := it.Node(); kv.Kind == unstable.KeyValue {
			d.keyValue(&t, kv)
		}
	}
	return t.m
}

// array decodes an array.
func (d *decoder) array(v *unstable.Node) []any {
	n := 0
	for it := v.Children(); it.Next(); {
		if it.Node().Kind != unstable.Comment {
			n++
		}
	}
	out := make([]any, 0, n)
	for it := v.Children(); it.Next() && d.err == nil; {
		if el := it.Node(); el.Kind != unstable.Comment {
			out = append(out, d.value(el))
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
func (d *decoder) header(e *unstable.Node, array bool) *table {
	it := e.Key()
	cur := d.root
	for it.Next() {
		name := d.intern(it.Node().Data)
		last := it.IsLast()
		kid := cur.kid(name)
		if kid == nil && cur.holds(name) {
			switch {
			case !last:
				d.refuse("key %s already exists as a value", name)
			case array:
				d.refuse("key %s already exists as a value, but should be an array table", name)
			default:
				d.refuse("key %s should be a table, not a value", name)
			}
			return cur
		}
		if !last {
			if kid == nil {
				kid = d.newTable(cur, name, kindTable, false)
			}
			if kid.kind == kindArray {
				// Into the latest element, as TOML says.
				kid = kid.last
			}
			cur = kid
			continue
		}
		if !array {
			switch {
			case kid == nil:
				kid = d.newTable(cur, name, kindTable, true)
			case kid.kind == kindDotted:
				d.refuse("table %s already exists as defined by a dotted key", name)
			case kid.kind == kindArray:
				d.refuse("table %s already exists as an array of tables", name)
			case kid.explicit:
				d.refuse("table %s already exists", name)
			default:
				kid.explicit = true
			}
			return kid
		}
		switch {
		case kid == nil:
			kid = d.newTable(cur, name, kindArray, false)
			if cur == d.root && name == "tools" {
				kid.arr = make([]any, 0, d.toolsHint)
			}
		case kid.kind != kindArray:
			d.refuse("key %s already exists as a "+kid.kind.String()+", but should be an array table", name)
			return kid
		}
		elem := d.newNode()
		*elem = table{m: make(map[string]any, 4), explicit: true}
		kid.arr = append(kid.arr, elem.m)
		if cur == d.root {
			// Set at the end, not boxed again for every element.
			if !kid.rooted {
				kid.name, kid.rooted = name, true
				d.rootArrays = append(d.rootArrays, kid)
			}
		} else {
			cur.m[name] = kid.arr
		}
		kid.last = elem
		return elem
	}
	return cur
}

// newTable puts a new, empty table of kind under name in cur.
func (d *decoder) newTable(cur *table, name string, kind tableKind, explicit bool) *table {
	// An array of tables' value is set when its first element is, or
	// for a top-level one at the end (decodeExact).
	m := map[string]any{}
	cur.m[name] = m
	kid := d.newNode()
	*kid = table{m: m, kind: kind, explicit: explicit}
	cur.addKid(name, kid)
	return kid
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
