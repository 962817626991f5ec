package wasm

// Decoders for the type, import, function, table, memory and global sections
// and the type encodings they share.

func (d *decoder) types(n uint32) {
	r := d.r
	for i := uint32(0); i < n && r.ok(); i++ {
		r.item("type", len(d.m.Types))
		switch r.peek() {
		case 0x4e: // rec group (GC proposal encoding, decoded by wazero)
			r.byte()
			k := r.count(1)
			for j := uint32(0); j < k && r.ok(); j++ {
				r.item("type", len(d.m.Types))
				ft := d.funcType()
				ft.InRecGroup = true
				d.m.Types = append(d.m.Types, ft)
			}
		default:
			d.m.Types = append(d.m.Types, d.funcType())
		}
	}
}

func (d *decoder) funcType() FuncType {
	r := d.r
	if form := r.byte(); form != 0x60 && r.ok() {
		r.failAt(r.pos-1, "unsupported type form %#x (want 0x60, a function type)", form)
		return FuncType{}
	}
	var ft FuncType
	ft.Params = d.valTypes()
	ft.Results = d.valTypes()
	return ft
}

func (d *decoder) valTypes() []ValType {
	n := d.r.count(1)
	if n == 0 {
		return nil
	}
	ts := make([]ValType, 0, n)
	for i := uint32(0); i < n && d.r.ok(); i++ {
		ts = append(ts, d.valType())
	}
	return ts
}

// valType reads a value type the way wazero does: the core 2.0 codes, exnref,
// or a 0x63/0x64-prefixed reference type.
func (d *decoder) valType() ValType {
	r := d.r
	c := r.byte()
	switch c {
	case 0x7f, 0x7e, 0x7d, 0x7c, 0x7b, 0x70, 0x6f, 0x69:
		return ValType(c)
	case refNullPrefix, refPrefix:
		return RefType(c == refNullPrefix, d.heapType())
	}
	if r.ok() {
		r.failAt(r.pos-1, "invalid value type %#x", c)
	}
	return 0
}

// heapType reads the s33 heap type after a 0x63/0x64 prefix: func, extern,
// exn or a type index (the abstract types wazero knows).
func (d *decoder) heapType() int64 {
	r := d.r
	start := r.pos
	h := r.s33()
	if h < 0 && h != HeapFunc && h != HeapExtern && h != HeapExn && r.ok() {
		r.failAt(start, "unsupported heap type %d", h)
	}
	return h
}

func (d *decoder) limits() Limits {
	r := d.r
	flag := r.byte()
	if flag > 3 && r.ok() {
		r.failAt(r.pos-1, "invalid limits flag %#x (memory64 and custom page sizes are not supported)", flag)
		return Limits{}
	}
	l := Limits{Min: r.u32(), HasMax: flag&1 != 0, Shared: flag&2 != 0}
	if l.HasMax {
		l.Max = r.u32()
	}
	return l
}

// tableType reads a table type, including wazero's function-references form
// with an initialiser: 0x40 0x00 reftype limits expr.
func (d *decoder) tableType() TableType {
	r := d.r
	var t TableType
	c := r.byte()
	hasInit := c == 0x40
	if hasInit {
		if z := r.byte(); z != 0 && r.ok() {
			r.failAt(r.pos-1, "expected 0x00 after 0x40 in a table type, got %#x", z)
			return t
		}
		c = r.byte()
	}
	if c == refNullPrefix || c == refPrefix {
		t.Elem = RefType(c == refNullPrefix, d.heapType())
	} else {
		// wazero takes any byte here and leaves it to validation.
		t.Elem = ValType(c)
	}
	limitsAt := r.pos
	t.Limits = d.limits()
	t.LimitsSpan = Span{r.base + limitsAt, r.pos - limitsAt}
	if hasInit {
		e := d.constExpr()
		t.Init = &e
	}
	return t
}

func (d *decoder) globalType() GlobalType {
	r := d.r
	g := GlobalType{Type: d.valType()}
	switch m := r.byte(); m {
	case 0:
	case 1:
		g.Mutable = true
	default:
		if r.ok() {
			r.failAt(r.pos-1, "invalid global mutability %#x", m)
		}
	}
	return g
}

func (d *decoder) imports(n uint32) {
	r := d.r
	d.m.Imports = make([]Import, 0, n)
	for i := uint32(0); i < n && r.ok(); i++ {
		r.item("import", int(i))
		imp := Import{Module: r.name(), Name: r.name()}
		kindAt := r.pos
		imp.Kind = ExternKind(r.byte())
		switch imp.Kind {
		case Func:
			imp.Type = r.u32()
		case Table:
			imp.Table = d.tableType()
		case Memory:
			imp.Memory = d.limits()
		case Global:
			imp.Global = d.globalType()
		case 4:
			r.failAt(kindAt, "unsupported import kind 4 (exception handling tag)")
		default:
			r.failAt(kindAt, "invalid import kind %#x", byte(imp.Kind))
		}
		if r.ok() {
			d.m.numImports[imp.Kind]++
			d.m.importAt[imp.Kind] = append(d.m.importAt[imp.Kind], uint32(len(d.m.Imports)))
			d.m.Imports = append(d.m.Imports, imp)
		}
	}
}

func (d *decoder) functions(n uint32) {
	r := d.r
	d.m.Functions = make([]uint32, 0, n)
	for i := uint32(0); i < n && r.ok(); i++ {
		r.item("function", int(i))
		d.m.Functions = append(d.m.Functions, r.u32())
	}
}

func (d *decoder) tables(n uint32) {
	r := d.r
	d.m.Tables = make([]TableType, 0, n)
	for i := uint32(0); i < n && r.ok(); i++ {
		r.item("table", int(i))
		d.m.Tables = append(d.m.Tables, d.tableType())
	}
}

func (d *decoder) memories(n uint32) {
	r := d.r
	d.m.Memories = make([]MemoryDef, 0, n)
	for i := uint32(0); i < n && r.ok(); i++ {
		r.item("memory", int(i))
		start := r.pos
		l := d.limits()
		d.m.Memories = append(d.m.Memories, MemoryDef{Limits: l, LimitsSpan: Span{r.base + start, r.pos - start}})
	}
}

func (d *decoder) globals(n uint32) {
	r := d.r
	d.m.Globals = make([]GlobalDef, 0, n)
	for i := uint32(0); i < n && r.ok(); i++ {
		r.item("global", int(i))
		g := GlobalDef{Type: d.globalType()}
		g.Init = d.constExpr()
		d.m.Globals = append(d.m.Globals, g)
	}
}
