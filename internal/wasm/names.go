package wasm

// NameSection is a decoded "name" custom section: its subsections in order,
// with the module name (subsection 0), function names (subsection 1) and
// local names (subsection 2) parsed and every other subsection kept raw.
type NameSection struct {
	Subsections []NameSubsection
}

// NameSubsection is one subsection of the name section.
type NameSubsection struct {
	ID      byte
	Content []byte // raw content (after the id and size)
	// ModuleName is the name of subsection 0.
	ModuleName string
	// Functions is the name map of subsection 1.
	Functions []NameAssoc
	// Locals is the indirect name map of subsection 2.
	Locals []IndirectNameAssoc
}

// NameAssoc names one index.
type NameAssoc struct {
	Index uint32
	Name  string
}

// IndirectNameAssoc names the locals of one function.
type IndirectNameAssoc struct {
	Index uint32
	Names []NameAssoc
}

// DecodeNameSection parses the payload of a "name" custom section (the bytes
// after the section's name), which starts at offset in the input.
//
// Subsections 0 (module name), 1 and 2 must fill their declared size
// exactly. wazero's parser reads those three by their content and ignores the
// declared size, so this strictness is what guarantees that wazero and a
// rewriter see the same subsection boundaries.
func DecodeNameSection(payload []byte, offset int) (*NameSection, error) {
	r := newReader(payload, offset, `custom "name"`)
	ns := &NameSection{}
	for r.pos < len(payload) && r.ok() {
		r.item("subsection", len(ns.Subsections))
		r.end = len(payload)
		sub := NameSubsection{ID: r.byte()}
		size := r.u32()
		content := r.bytes(size)
		if !r.ok() {
			break
		}
		sub.Content = content
		r.end = r.pos
		r.pos -= len(content)
		switch sub.ID {
		case 0:
			sub.ModuleName = r.name()
		case 1:
			sub.Functions = nameMap(r)
		case 2:
			n := r.count(2)
			sub.Locals = make([]IndirectNameAssoc, 0, n)
			for i := uint32(0); i < n && r.ok(); i++ {
				a := IndirectNameAssoc{Index: r.u32()}
				a.Names = nameMap(r)
				sub.Locals = append(sub.Locals, a)
			}
		default:
			r.pos = r.end
		}
		if r.ok() && r.pos != r.end {
			r.fail("%d bytes left over at the end of the subsection", r.end-r.pos)
		}
		ns.Subsections = append(ns.Subsections, sub)
	}
	if r.err != nil {
		return nil, r.err
	}
	return ns, nil
}

func nameMap(r *reader) []NameAssoc {
	n := r.count(2) // an index and a name length
	m := make([]NameAssoc, 0, n)
	for i := uint32(0); i < n && r.ok(); i++ {
		m = append(m, NameAssoc{Index: r.u32(), Name: r.name()})
	}
	return m
}

// AppendNameMap appends the encoding of a name map.
func AppendNameMap(dst []byte, m []NameAssoc) []byte {
	dst = AppendU32(dst, uint32(len(m)))
	for _, a := range m {
		dst = AppendU32(dst, a.Index)
		dst = AppendName(dst, a.Name)
	}
	return dst
}

// AppendIndirectNameMap appends the encoding of an indirect name map.
func AppendIndirectNameMap(dst []byte, m []IndirectNameAssoc) []byte {
	dst = AppendU32(dst, uint32(len(m)))
	for _, a := range m {
		dst = AppendU32(dst, a.Index)
		dst = AppendNameMap(dst, a.Names)
	}
	return dst
}
