package manifest

import (
	"bytes"
	"slices"
	"sync"

	"github.com/pelletier/go-toml/v2/unstable"
)

// Decoding a large manifest in chunks, on every core. fastDecode is one
// pass of one parser over the whole document, half of the fast path's
// time on a 10,000-tool manifest. But the tools of such a manifest are a
// long run of [[tools]] sections, each of which only adds to the latest
// element of the top-level tools array; so the document is cut before
// some "[[tools]]" lines into chunks, the first decoded by the decoder
// itself, each other by a chunk decoder of its own, on a goroutine of its
// own that then checks the chunk's tools (see fastcheck.go), and the
// results are joined in order as if one decoder had read them all.
//
// A cut may fall where "[[tools]]" starts a line but not an expression
// (inside a multi-line string or array): the chunk before it then ends
// inside that string or array, which the parser refuses. A chunk that
// has anything but the sections of [[tools]] elements (the last may end
// in other tables, which the decoder then reads itself), or that any
// decoder declines, makes runChunked give up; fastDecode then decodes the
// document from the start in one, as always. So what comes out is what
// one decoder gives, or nothing: what the limits count is added up as one
// decoder counts it (see merge), and the positions are of the whole
// source (the chunk decoders' parsers start at their chunk: fastDecoder.base).

// defaultChunkMin is the smallest document decoded in chunks: below it,
// starting goroutines costs more than it saves.
const defaultChunkMin = 64 << 10

// toolsLine is what a chunk starts with, after a newline.
const toolsLine = "\n[[tools]]"

// chunkSplits returns where up to n-1 chunks after the first start: the
// "[[" of a "[[tools]]" that starts a line, after the first one, near
// equal shares of src.
func chunkSplits(src []byte, n int) []int {
	first := bytes.Index(src, []byte(toolsLine))
	if first < 0 {
		return nil
	}
	var splits []int
	from := first + 1
	for k := 1; k < n; k++ {
		target := max(len(src)*k/n, from)
		if target >= len(src) {
			break
		}
		j := bytes.Index(src[target:], []byte(toolsLine))
		if j < 0 {
			break
		}
		at := target + j + 1
		splits = append(splits, at)
		from = at + 1
	}
	return splits
}

// try runs f, reporting whether it returned without panicking: a decline,
// or a bug, which it records as one recovered in where (see bugs.go);
// either way, the caller gives up.
func try(where string, f func()) (ok bool) {
	defer func() {
		if r := recover(); r != nil {
			fastRecovered(where, r)
			ok = false
		}
	}()
	f()
	return true
}

// chunkDecoder is a decoder for a chunk of d's source, its root holding
// the top-level tools array of tables, as d's will hold it, without
// elements.
func (d *fastDecoder) chunkDecoder(last bool) *fastDecoder {
	c := &fastDecoder{
		src: d.src, str: d.str, names: make(map[string]nameInfo, 64),
		maxValues: d.maxValues, maxKeys: d.maxKeys, maxArray: d.maxArray, maxPath: d.maxPath,
		maxTools: d.maxTools, maxServers: d.maxServers, maxDepth: d.maxDepth,
		chunk: true, last: last, stopAt: -1,
	}
	c.root = &fnode{m: map[string]any{}, tag: tagRoot, explicit: true}
	n := c.intern([]byte("tools"))
	tools := c.newNode()
	*tools = fnode{m: map[string]any{}, pathLen: keyPathLen(0, n), kind: kindArray}
	c.root.addKid(n.s, tools)
	return c
}

// chunkStops is called by a chunk decoder for each header: the first
// must be [[tools]]; one outside [[tools]] ends the last chunk (stopAt
// is then where it starts) and any other. It declines the rest.
func (d *fastDecoder) chunkStops(e *unstable.Node, first bool) bool {
	it := e.Key()
	if !it.Next() {
		decline()
	}
	k := it.Node()
	inTools := string(k.Data) == "tools"
	switch {
	case first && (e.Kind != unstable.ArrayTable || !inTools || !it.IsLast()):
		decline()
	case inTools:
		return false
	case !d.last:
		decline()
	}
	d.stopAt = headerSpan(d.src, d.rebase(k.Raw), d.rebase(k.Raw)).off
	return true
}

// runChunked decodes d's document in up to n chunks at once (see above),
// reporting whether it could. Either way, it leaves no goroutine behind.
func (d *fastDecoder) runChunked(n int) bool {
	splits := chunkSplits(d.src, n)
	if len(splits) == 0 {
		return false
	}
	chunks := make([]*fastDecoder, len(splits))
	ok := make([]bool, len(splits))
	var wg sync.WaitGroup
	for k, lo := range splits {
		hi := len(d.src)
		if k+1 < len(splits) {
			hi = splits[k+1]
		}
		c := d.chunkDecoder(k == len(splits)-1)
		chunks[k] = c
		wg.Add(1)
		go func() {
			defer wg.Done()
			ok[k] = try("chunk decoder", func() {
				c.runRange(lo, hi)
				c.checkChunk(d.pipe)
			})
		}()
	}
	ok0 := try("first chunk", func() { d.runRange(0, splits[0]) })
	wg.Wait()
	if !ok0 {
		return false
	}
	for _, good := range ok {
		if !good {
			return false
		}
	}
	return try("merge", func() { d.merge(chunks) })
}

// checkChunk checks a chunk decoder's tools, as p's would be (all but
// the last when the chunk stopped early, since the decoder may yet add
// to it), in batches of its own.
func (c *fastDecoder) checkChunk(p *toolPipe) {
	tools := c.root.kid("tools")
	n := len(tools.arr)
	if c.stopAt >= 0 {
		n--
	}
	cp := &toolPipe{tmpl: p.tmpl, workers: 1, str: c.str}
	for lo := 0; lo < n; lo += toolBatchSize {
		hi := min(lo+toolBatchSize, n)
		cp.submit(lo, tools.arr[lo:hi:hi], c.pos.tools[lo:hi:hi])
	}
	c.batches, c.checked = cp.batches, max(n, 0)
}

// merge joins the chunks to what d decoded of the document before them,
// as if d had decoded them itself, and decodes what follows the last (if
// it stopped early).
//
// What the limits count is added up as d counts it: values and path
// bytes as the chunks counted them, the path bytes with each element's
// index as d numbers it (a chunk numbers its elements from 0).
func (d *fastDecoder) merge(chunks []*fastDecoder) {
	tools := d.root.kid("tools")
	if tools == nil || tools.kind != kindArray || !tools.rooted || len(tools.arr) == 0 {
		decline()
	}
	p := d.pipe
	if n0 := len(tools.arr); n0 > p.next {
		p.submit(p.next, tools.arr[p.next:n0:n0], d.pos.tools[p.next:n0:n0])
	}
	n := len(tools.arr)
	for _, c := range chunks {
		n += len(c.root.kid("tools").arr)
	}
	tools.arr = slices.Grow(tools.arr, n-len(tools.arr))
	d.pos.tools = slices.Grow(d.pos.tools, n-len(d.pos.tools))
	for _, c := range chunks {
		ct := c.root.kid("tools")
		g0 := len(tools.arr)
		for e, start := range c.elemVals {
			end := c.values
			if e+1 < len(c.elemVals) {
				end = c.elemVals[e+1]
			}
			d.pathBytes += (end - start) * (decimalLen(g0+e) - decimalLen(e))
		}
		d.values += c.values
		d.pathBytes += c.pathBytes
		tools.arr = append(tools.arr, ct.arr...)
		d.pos.tools = append(d.pos.tools, c.pos.tools...)
		p.batches = append(p.batches, c.batches...)
		p.next = g0 + c.checked
		tools.last = ct.last
		// The latest element is numbered as d numbers it, in d's array,
		// and its paths and those of the tables in it are as long as d
		// has them: a header in what follows may yet add to it.
		tools.last.idx = len(tools.arr) - 1
		shiftPaths(tools.last, decimalLen(len(tools.arr)-1)-decimalLen(len(ct.arr)-1))
		if d.values > d.maxValues || d.pathBytes > d.maxPath || len(tools.arr) > d.maxTools {
			decline()
		}
	}
	if last := chunks[len(chunks)-1]; last.stopAt >= 0 {
		d.runRange(last.stopAt, len(d.src))
	}
}

// shiftPaths adds delta to the path lengths of n and of the tables a
// header may yet reopen in it.
func shiftPaths(n *fnode, delta int) {
	if delta == 0 {
		return
	}
	n.pathLen += delta
	for _, k := range n.kids {
		shiftPaths(k.node, delta)
	}
	for _, k := range n.kidMap {
		shiftPaths(k, delta)
	}
	if n.kind == kindArray && n.last != nil {
		shiftPaths(n.last, delta)
	}
}
