package manifest

import "github.com/pelletier/go-toml/v2/unstable"

// keyCost estimates, in O(n log n), the work of go-toml's duplicate-key
// check, so that a manifest that would make it quadratic is refused before
// go-toml sees it.
//
// go-toml (internal/tracker/seen.go, v2.4.3) keeps every key it has seen
// in one slice, in document order, each entry pointing to its parent, and
// finds a key by scanning the slice from its parent's entry on: a miss
// visits every live entry after the parent. A [[x]] header removes the
// entries under x's previous element, visiting every live entry. Arrays
// add one anonymous entry per element that is an inline table or an
// array. keyCost replays the same operations on the same entries, but
// finds keys with a map and counts the entries a scan would visit with a
// Fenwick tree over entry order. It estimates; it does not check: a
// document go-toml refuses (a key defined twice) is simply replayed on.
type keyCost struct {
	// entries by id; the root (0) has parent -1. One slice of structs,
	// children as linked lists: an entry costs no allocation of its own.
	entries []costEntry
	fw      []int32 // Fenwick tree of live, 1-based
	nlive   int
	// byName holds the live named entries by costKey(parent, name):
	// numbers hash faster than strings, and interning the names saves
	// copying every key of the document.
	byName map[uint64]int32
	in     *interner
	table  int32 // the current table, as go-toml's currentTable
	work   int64 // entries visited so far
}

// costEntry is one entry of go-toml's tracker.
type costEntry struct {
	parent int32
	name   uint32 // interned; anonymous entries have none
	// firstKid and nextKid link the live children of an entry, newest
	// first; -1 ends a list. find scans the list while it has at most
	// maxListed entries (nkids), and asks byName past that: most tables
	// are small, and a map lookup (a cache miss in a map of every key)
	// was most of keyCost's time.
	firstKid, nextKid int32
	nkids             int32
	live, named       bool
}

func costKey(parent int32, name uint32) uint64 { return uint64(uint32(parent))<<32 | uint64(name) }

func newKeyCost() *keyCost { return newKeyCostNames(newInterner(), 0) }

// newKeyCostNames is newKeyCost numbering names with in (the index's, so
// that each key is interned once), sized for about n entries.
func newKeyCostNames(in *interner, n int) *keyCost {
	fw := 64
	for fw <= n {
		fw *= 2
	}
	k := &keyCost{byName: make(map[uint64]int32, n), entries: make([]costEntry, 0, n), fw: make([]int32, fw), in: in}
	k.create(-1, 0, false)
	return k
}

// expression replays one top-level expression of the document.
func (k *keyCost) expression(n *unstable.Node) {
	switch n.Kind {
	case unstable.Table, unstable.ArrayTable:
		parent := int32(0)
		it := n.Key()
		for it.Next() {
			name := k.in.id(it.Node().Data)
			i := k.find(parent, name)
			if it.IsLast() {
				if i < 0 {
					i = k.create(parent, name, true)
				} else if n.Kind == unstable.ArrayTable {
					k.clear(i)
				}
				k.table = i
				return
			}
			if i < 0 {
				i = k.create(parent, name, true)
			}
			parent = i
		}
	case unstable.KeyValue:
		k.keyValue(k.table, n)
	}
}

func (k *keyCost) keyValue(parent int32, n *unstable.Node) {
	it := n.Key()
	for it.Next() {
		name := k.in.id(it.Node().Data)
		i := k.find(parent, name)
		if i < 0 {
			i = k.create(parent, name, true)
		}
		if it.IsLast() {
			k.value(i, n.Value())
			return
		}
		parent = i
	}
}

func (k *keyCost) value(id int32, v *unstable.Node) {
	if !v.Valid() {
		return
	}
	switch v.Kind {
	case unstable.InlineTable:
		it := v.Children()
		for it.Next() {
			if kv := it.Node(); kv.Kind == unstable.KeyValue {
				k.keyValue(id, kv)
			}
		}
	case unstable.Array:
		it := v.Children()
		for it.Next() {
			if el := it.Node(); el.Kind == unstable.InlineTable || el.Kind == unstable.Array {
				k.value(k.create(id, 0, false), el)
			}
		}
	}
}

// find returns the live entry named name under parent, or -1, counting
// the entries go-toml's scan visits.
func (k *keyCost) find(parent int32, name uint32) int32 {
	from := k.rank(parent)
	if i := k.lookup(parent, name); i >= 0 {
		k.work += int64(k.rank(i) - from)
		return i
	}
	k.work += int64(k.nlive - from)
	return -1
}

// lookup returns the live entry named name under parent, or -1.
func (k *keyCost) lookup(parent int32, name uint32) int32 {
	if k.entries[parent].nkids <= maxListed {
		for c := k.entries[parent].firstKid; c >= 0; c = k.entries[c].nextKid {
			if e := &k.entries[c]; e.named && e.name == name {
				return c
			}
		}
		return -1
	}
	if i, ok := k.byName[costKey(parent, name)]; ok {
		return i
	}
	return -1
}

func (k *keyCost) create(parent int32, name uint32, named bool) int32 {
	id := int32(len(k.entries))
	k.entries = append(k.entries, costEntry{parent: parent, name: name, firstKid: -1, nextKid: -1, live: true, named: named})
	if int(id)+1 >= len(k.fw) {
		k.grow()
	}
	k.addAt(id, 1)
	k.nlive++
	if parent >= 0 {
		p := &k.entries[parent]
		k.entries[id].nextKid = p.firstKid
		p.firstKid = id
		switch p.nkids++; {
		case p.nkids == maxListed+1:
			for c := id; c >= 0; c = k.entries[c].nextKid {
				if e := &k.entries[c]; e.named {
					k.byName[costKey(parent, e.name)] = c
				}
			}
		case p.nkids > maxListed+1 && named:
			k.byName[costKey(parent, name)] = id
		}
	}
	return id
}

// unlist empties the list of e's children (all being removed), and
// removes them from byName if they are there.
func (k *keyCost) unlist(id int32) {
	e := &k.entries[id]
	if e.nkids > maxListed {
		for c := e.firstKid; c >= 0; c = k.entries[c].nextKid {
			if kid := &k.entries[c]; kid.named {
				if key := costKey(id, kid.name); k.byName[key] == c {
					delete(k.byName, key)
				}
			}
		}
	}
	e.firstKid, e.nkids = -1, 0
}

// clear removes the entries under id, as a [[x]] header does in go-toml,
// whose pass visits every live entry.
func (k *keyCost) clear(id int32) {
	k.work += int64(k.nlive)
	var stack []int32
	for c := k.entries[id].firstKid; c >= 0; c = k.entries[c].nextKid {
		stack = append(stack, c)
	}
	k.unlist(id)
	for len(stack) > 0 {
		c := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		e := &k.entries[c]
		for g := e.firstKid; g >= 0; g = k.entries[g].nextKid {
			stack = append(stack, g)
		}
		k.unlist(c)
		e.live = false
		k.addAt(c, -1)
		k.nlive--
	}
}

// rank is the number of live entries up to and including id.
func (k *keyCost) rank(id int32) int {
	s := 0
	for i := int(id) + 1; i > 0; i -= i & -i {
		s += int(k.fw[i])
	}
	return s
}

func (k *keyCost) addAt(id int32, d int32) {
	for i := int(id) + 1; i < len(k.fw); i += i & -i {
		k.fw[i] += d
	}
}

// grow doubles the Fenwick tree, rebuilding it from live in linear time.
func (k *keyCost) grow() {
	k.fw = make([]int32, 2*len(k.fw))
	for i, e := range k.entries {
		if e.live {
			k.fw[i+1]++
		}
	}
	for i := 1; i < len(k.fw); i++ {
		if j := i + i&-i; j < len(k.fw) {
			k.fw[j] += k.fw[i]
		}
	}
}
