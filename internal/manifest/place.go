package manifest

// place is where the checker is in the document: the node the index
// recorded for a key or an array element as it decoded it. The checker
// walks from a table's place to its keys' by name and from an array's to
// its elements' by index, so a key is named one way, by its node; the
// path string a message shows ("tools[1].probe.grants.env[0]") is built
// from the nodes only for a message.
type place int32

// root is the document's place: its top-level table.
const root place = 0

// key returns the place of the key name of the table at p, noting one
// the index does not know (a bug in positions.go; see misses).
func (c *checker) key(p place, name string) place {
	if p == noNode {
		return noNode
	}
	kid := c.ix.childNamed(int32(p), name)
	if kid == noNode {
		c.misses = append(c.misses, joinKey(c.path(p), name))
	}
	return place(kid)
}

// elem returns the place of element i of the array at p, noting one the
// index does not know.
func (c *checker) elem(p place, i int) place {
	if p == noNode {
		return noNode
	}
	kid := c.ix.child(int32(p), elemBit|uint32(i))
	if kid == noNode {
		c.misses = append(c.misses, joinIndex(c.path(p), i))
	}
	return place(kid)
}

// path names p as messages do; "" for the document, or for a place the
// index did not know.
func (c *checker) path(p place) string {
	if p == noNode {
		return ""
	}
	return c.ix.pathOf(int32(p), noSeg)
}

// entry returns where p is written; nothing for a place the index did
// not know, so that the problem keeps a position (the file's start).
func (c *checker) entry(p place) entry {
	if p == noNode {
		return entry{}
	}
	return c.ix.nodes[p].entry
}
