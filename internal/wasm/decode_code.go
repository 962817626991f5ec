package wasm

// code decodes the code section: for each body its locals, and a walk over its
// instructions so that undecodable code is reported here, at load time.
func (d *decoder) code(n uint32) {
	r := d.r
	d.m.Code = make([]Code, 0, n)
	sectionEnd := r.end
	for i := uint32(0); i < n && r.ok(); i++ {
		funcIndex := uint64(d.m.numImports[Func]) + uint64(i)
		r.item("function", int(funcIndex))
		start := r.pos
		size := r.u32()
		if !r.ok() {
			return
		}
		if uint64(size) > uint64(r.remaining()) {
			r.failAt(start, "body size %d exceeds the %d bytes left in the section", size, r.remaining())
			return
		}
		r.end = r.pos + int(size)
		c := Code{Span: Span{r.base + start, r.end - start}}

		localsAt := r.pos
		k := r.count(2) // each declaration is a count and a type
		c.Locals = make([]LocalDecl, 0, k)
		for j := uint32(0); j < k && r.ok(); j++ {
			decl := LocalDecl{Count: r.u32()}
			decl.Type = d.valType()
			c.NumLocals += uint64(decl.Count)
			c.Locals = append(c.Locals, decl)
		}
		if c.NumLocals > 1<<32-1 && r.ok() {
			r.failAt(localsAt, "too many locals: %d", c.NumLocals)
		}
		c.LocalsRaw = r.b[localsAt:r.pos]
		c.BodyOffset = r.base + r.pos
		c.Body = r.b[r.pos:r.end]
		if !r.ok() {
			return
		}
		ir := NewInstrReader(c.Body, c.BodyOffset)
		ir.r.section, ir.r.what, ir.r.index = r.section, r.what, r.index
		var err error
		if c.cost, err = countCost(ir, d.m.numParams(int(i)), c.NumLocals, len(c.Body)); err != nil {
			r.err = err.(*FormatError)
			return
		}
		c.costed = true
		r.pos, r.end = r.end, sectionEnd
		d.m.Code = append(d.m.Code, c)
	}
}
