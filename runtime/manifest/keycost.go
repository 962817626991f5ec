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
	parent []int32   // by entry id; the root (0) has -1
	names  []string  // by entry id; "" for anonymous ones
	kids   [][]int32 // live children of each entry, for clearing
	live   []bool
	fw     []int32 // Fenwick tree of live, 1-based
	nlive  int
	byName map[costKey]int32 // live named entries
	table  int32             // the current table, as go-toml's currentTable
	work   int64             // entries visited so far
}

type costKey struct {
	parent int32
	name   string
}

func newKeyCost() *keyCost {
	k := &keyCost{byName: map[costKey]int32{}, fw: make([]int32, 64)}
	k.create(-1, "", false)
	return k
}

// expression replays one top-level expression of the document.
func (k *keyCost) expression(n *unstable.Node) {
	switch n.Kind {
	case unstable.Table, unstable.ArrayTable:
		parent := int32(0)
		it := n.Key()
		for it.Next() {
			name := string(it.Node().Data)
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
		name := string(it.Node().Data)
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
				k.value(k.create(id, "", false), el)
			}
		}
	}
}

// find returns the live entry named name under parent, or -1, counting
// the entries go-toml's scan visits.
func (k *keyCost) find(parent int32, name string) int32 {
	from := k.rank(parent)
	if i, ok := k.byName[costKey{parent, name}]; ok {
		k.work += int64(k.rank(i) - from)
		return i
	}
	k.work += int64(k.nlive - from)
	return -1
}

func (k *keyCost) create(parent int32, name string, named bool) int32 {
	id := int32(len(k.parent))
	k.parent = append(k.parent, parent)
	k.names = append(k.names, name)
	k.kids = append(k.kids, nil)
	k.live = append(k.live, true)
	if int(id)+1 >= len(k.fw) {
		k.grow()
	}
	k.addAt(id, 1)
	k.nlive++
	if parent >= 0 {
		k.kids[parent] = append(k.kids[parent], id)
		if named {
			k.byName[costKey{parent, name}] = id
		}
	}
	return id
}

// clear removes the entries under id, as a [[x]] header does in go-toml,
// whose pass visits every live entry.
func (k *keyCost) clear(id int32) {
	k.work += int64(k.nlive)
	stack := append([]int32(nil), k.kids[id]...)
	k.kids[id] = nil
	for len(stack) > 0 {
		c := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		stack = append(stack, k.kids[c]...)
		k.kids[c] = nil
		k.live[c] = false
		k.addAt(c, -1)
		k.nlive--
		if key := (costKey{k.parent[c], k.names[c]}); k.byName[key] == c {
			delete(k.byName, key)
		}
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
	for i, l := range k.live {
		if l {
			k.fw[i+1]++
		}
	}
	for i := 1; i < len(k.fw); i++ {
		if j := i + i&-i; j < len(k.fw) {
			k.fw[j] += k.fw[i]
		}
	}
}
