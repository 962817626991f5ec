package wasm

// Decoders for the export, element and data sections and for constant
// expressions.

func (d *decoder) exports(n uint32) {
	r := d.r
	d.m.Exports = make([]Export, 0, n)
	seen := make(map[string]bool, n)
	for i := uint32(0); i < n && r.ok(); i++ {
		r.item("export", int(i))
		nameAt := r.pos
		e := Export{Name: r.name()}
		kindAt := r.pos
		e.Kind = ExternKind(r.byte())
		if e.Kind > Global && r.ok() {
			if e.Kind == 4 {
				r.failAt(kindAt, "unsupported export kind 4 (exception handling tag)")
			} else {
				r.failAt(kindAt, "invalid export kind %#x", byte(e.Kind))
			}
		}
		ref := r.indexRef()
		e.Index, e.IndexSpan = ref.Index, ref.Span
		if seen[e.Name] && r.ok() {
			r.failAt(nameAt, "duplicate export name %q", e.Name)
		}
		seen[e.Name] = true
		d.m.Exports = append(d.m.Exports, e)
	}
}

func (d *decoder) elements(n uint32) {
	r := d.r
	d.m.Elements = make([]Element, 0, n)
	for i := uint32(0); i < n && r.ok(); i++ {
		r.item("element segment", int(i))
		flagsAt := r.pos
		e := Element{Flags: r.u32(), Type: FuncRef}
		if e.Flags > 7 && r.ok() {
			r.failAt(flagsAt, "invalid element segment flags %d", e.Flags)
			return
		}
		switch {
		case e.Flags&1 == 0:
			e.Mode = Active
			if e.Flags&2 != 0 {
				e.Table = r.u32()
			}
			off := d.constExpr()
			e.Offset = &off
		case e.Flags&2 == 0:
			e.Mode = Passive
		default:
			e.Mode = Declarative
		}
		exprs := e.Flags&4 != 0
		// Forms 0 and 4 imply funcref; the others spell out an element kind
		// (function indices) or a reference type (expressions).
		if e.Flags&3 != 0 {
			if exprs {
				e.Type = d.refType()
			} else if kind := r.byte(); kind != 0 && r.ok() {
				r.failAt(r.pos-1, "invalid element kind %#x", kind)
			}
		}
		k := r.count(1)
		if exprs {
			e.Exprs = make([]ConstExpr, 0, k)
			for j := uint32(0); j < k && r.ok(); j++ {
				e.Exprs = append(e.Exprs, d.constExpr())
			}
		} else {
			e.Funcs = make([]IndexRef, 0, k)
			for j := uint32(0); j < k && r.ok(); j++ {
				e.Funcs = append(e.Funcs, r.indexRef())
			}
		}
		d.m.Elements = append(d.m.Elements, e)
	}
}

// refType reads the reference type of an element segment.
func (d *decoder) refType() ValType {
	r := d.r
	c := r.byte()
	switch c {
	case 0x70, 0x6f:
		return ValType(c)
	case refNullPrefix, refPrefix:
		return RefType(c == refNullPrefix, d.heapType())
	}
	if r.ok() {
		r.failAt(r.pos-1, "invalid reference type %#x", c)
	}
	return 0
}

func (d *decoder) data(n uint32) {
	r := d.r
	d.m.Data = make([]Data, 0, n)
	for i := uint32(0); i < n && r.ok(); i++ {
		r.item("data segment", int(i))
		flagsAt := r.pos
		s := Data{Flags: r.u32()}
		switch s.Flags {
		case 0, 2:
			if s.Flags == 2 {
				s.Memory = r.u32()
			}
			off := d.constExpr()
			s.Offset = &off
		case 1:
			s.Mode = Passive
		default:
			if r.ok() {
				r.failAt(flagsAt, "invalid data segment flags %d", s.Flags)
			}
		}
		s.Init = r.bytes(r.u32())
		d.m.Data = append(d.m.Data, s)
	}
}

// constExpr reads a constant expression up to and including its end. It
// accepts the instructions wazero's decoder accepts without the
// extended-const feature, with the same immediates: the SIMD sub-opcode is a
// single byte (it must be v128.const), and ref.null takes an abstract heap
// type byte or a type index.
func (d *decoder) constExpr() ConstExpr {
	r := d.r
	start := r.pos
	var e ConstExpr
	for r.ok() {
		opAt := r.pos
		op := r.byte()
		switch op {
		case 0x0b: // end
			e.Offset, e.Raw = r.base+start, r.b[start:r.pos]
			return e
		case 0x41:
			r.s32()
		case 0x42:
			r.s64()
		case 0x43:
			r.bytes(4)
		case 0x44:
			r.bytes(8)
		case 0x23: // global.get
			e.GlobalRefs = append(e.GlobalRefs, r.indexRef())
		case 0xd0: // ref.null
			switch r.peek() {
			case 0x70, 0x6f, 0x69:
				r.byte()
			default:
				r.u32()
			}
		case 0xd2: // ref.func
			e.FuncRefs = append(e.FuncRefs, r.indexRef())
		case 0xfd:
			if sub := r.byte(); sub != 0x0c && r.ok() {
				r.failAt(opAt, "invalid instruction 0xfd %#x in a constant expression", sub)
			}
			r.bytes(16)
		case 0x6a, 0x6b, 0x6c, 0x7c, 0x7d, 0x7e:
			if r.ok() {
				r.failAt(opAt, "unsupported instruction %#x in a constant expression (extended-const)", op)
			}
		default:
			if r.ok() {
				r.failAt(opAt, "invalid instruction %#x in a constant expression", op)
			}
		}
	}
	return e
}
