package wasm

// Span locates bytes in the decoded input: [Offset, Offset+Size).
type Span struct {
	Offset, Size int
}

// End is the offset just past the span.
func (s Span) End() int { return s.Offset + s.Size }

// IndexRef is an index immediate (a LEB128 u32) together with where it is
// encoded, so that a rewriter can renumber it in place.
type IndexRef struct {
	Index uint32
	Span
}

// Section is one section as it appears in the input.
type Section struct {
	ID SectionID
	// Name is the name of a custom section.
	Name string
	// Offset is where the section starts (its id byte) and End where it ends.
	Offset, End int
	// Content is the section's content after its size; for a custom section,
	// the payload after its name. ContentOffset is where Content starts.
	Content       []byte
	ContentOffset int
	// Count is the item count of a section that is a vector (all but custom,
	// start and data count sections), and CountSize the length of its
	// encoding at the start of Content.
	Count     uint32
	CountSize int
}

// Module is a decoded module. Indices (function, global, ...) count imports
// first, as in the binary format.
type Module struct {
	// Sections lists every section in input order.
	Sections []Section

	Types     []FuncType // flattened: a rec group contributes all its types
	Imports   []Import
	Functions []uint32 // type index of each defined function
	Tables    []TableType
	Memories  []MemoryDef
	Globals   []GlobalDef
	Exports   []Export
	Start     *IndexRef // the start function, if any
	Elements  []Element
	DataCount *uint32
	Code      []Code
	Data      []Data

	numImports [4]uint32 // per ExternKind
	// importAt holds, per ExternKind, the index in Imports of each import
	// of that kind, so that looking one up by its index in the kind's
	// index space does not scan the imports.
	importAt [4][]uint32
	// widths holds, per type, the stack widths (Slots) of its params and
	// results, for StackWalker.
	widths [][2][]uint8
}

// Import is an entry of the import section.
type Import struct {
	Module, Name string
	Kind         ExternKind
	Type         uint32     // Func: the function's type index
	Table        TableType  // Table
	Memory       Limits     // Memory
	Global       GlobalType // Global
}

// Export is an entry of the export section.
type Export struct {
	Name  string
	Kind  ExternKind
	Index uint32
	// IndexSpan is where Index is encoded.
	IndexSpan Span
}

// MemoryDef is a memory defined in the memory section.
type MemoryDef struct {
	Limits
	// LimitsSpan is where the limits are encoded, so a rewriter can replace them.
	LimitsSpan Span
}

// GlobalDef is a global defined in the global section.
type GlobalDef struct {
	Type GlobalType
	Init ConstExpr
}

// ConstExpr is a constant expression (global initialiser, segment offset,
// element item), kept as its raw encoding including the final end.
type ConstExpr struct {
	Offset int
	Raw    []byte
	// FuncRefs are the immediates of its ref.func instructions, GlobalRefs
	// those of its global.get instructions.
	FuncRefs   []IndexRef
	GlobalRefs []IndexRef
}

// ElemMode is the mode of an element or data segment.
type ElemMode byte

// Segment modes.
const (
	Active ElemMode = iota
	Passive
	Declarative
)

// Element is an element segment in any of its eight encodings.
type Element struct {
	// Flags is the segment's leading u32 (0-7): bit 0 passive/declarative,
	// bit 1 explicit table index or declarative, bit 2 expressions instead of
	// function indices.
	Flags  uint32
	Mode   ElemMode
	Table  uint32     // Active only
	Offset *ConstExpr // Active only
	Type   ValType    // FuncRef for the forms without an explicit type
	// Funcs holds the function indices of forms 0-3; Exprs the item
	// expressions of forms 4-7.
	Funcs []IndexRef
	Exprs []ConstExpr
}

// Data is a data segment.
type Data struct {
	Flags  uint32
	Mode   ElemMode // Active or Passive
	Memory uint32
	Offset *ConstExpr // Active only
	Init   []byte
}

// LocalDecl declares Count locals of one type.
type LocalDecl struct {
	Count uint32
	Type  ValType
}

// Code is one function body.
type Code struct {
	// Span is the whole entry: size prefix, locals and instructions.
	Span Span
	// Locals are the local declarations, LocalsRaw their encoding (count
	// included) and NumLocals the total they declare (parameters excluded).
	Locals    []LocalDecl
	LocalsRaw []byte
	NumLocals uint64
	// Body is the instruction sequence, ending with the function's end, and
	// BodyOffset where it starts in the input. Walk it with NewInstrReader.
	Body       []byte
	BodyOffset int

	// cost is the body's FuncCost, which Decode counts as it walks the
	// body (costed).
	cost   FuncCost
	costed bool
}

// NumImported returns how many imports of kind k the module has.
func (m *Module) NumImported(k ExternKind) uint32 {
	if int(k) < len(m.numImports) {
		return m.numImports[k]
	}
	return 0
}

// NumImportedFuncs returns the number of imported functions, which is also
// the index of the first defined function.
func (m *Module) NumImportedFuncs() uint32 { return m.numImports[Func] }

// NumImportedGlobals returns the number of imported globals, which is also
// the index of the first defined global.
func (m *Module) NumImportedGlobals() uint32 { return m.numImports[Global] }

// FuncTypeIndex returns the type index of a function (imported or defined).
func (m *Module) FuncTypeIndex(funcIndex uint32) (uint32, bool) {
	if funcIndex < m.numImports[Func] {
		return m.Imports[m.importAt[Func][funcIndex]].Type, true
	}
	i := uint64(funcIndex) - uint64(m.numImports[Func])
	if i >= uint64(len(m.Functions)) {
		return 0, false
	}
	return m.Functions[i], true
}

// FuncType returns the signature of a function (imported or defined); false
// if the index or its type index is out of range.
func (m *Module) FuncType(funcIndex uint32) (FuncType, bool) {
	ti, ok := m.FuncTypeIndex(funcIndex)
	if !ok || uint64(ti) >= uint64(len(m.Types)) {
		return FuncType{}, false
	}
	return m.Types[ti], true
}

// GlobalType returns the type of a global (imported or defined); false if
// there is no such global.
func (m *Module) GlobalType(index uint32) (GlobalType, bool) {
	if index < m.numImports[Global] {
		return m.Imports[m.importAt[Global][index]].Global, true
	}
	i := uint64(index) - uint64(m.numImports[Global])
	if i >= uint64(len(m.Globals)) {
		return GlobalType{}, false
	}
	return m.Globals[i].Type, true
}

// ExportedFunc returns the signature of the function exported as name.
func (m *Module) ExportedFunc(name string) (FuncType, bool) {
	for _, e := range m.Exports {
		if e.Kind == Func && e.Name == name {
			return m.FuncType(e.Index)
		}
	}
	return FuncType{}, false
}

// Memory returns the limits of memory 0, whether the module has a memory at
// all, and whether memory 0 is imported (imports come first in the index
// space).
func (m *Module) Memory() (lim Limits, ok, imported bool) {
	for _, imp := range m.Imports {
		if imp.Kind == Memory {
			return imp.Memory, true, true
		}
	}
	if len(m.Memories) > 0 {
		return m.Memories[0].Limits, true, false
	}
	return Limits{}, false, false
}

// ExportedMemory reports whether memory 0 is exported as name.
func (m *Module) ExportedMemory(name string) bool {
	for _, e := range m.Exports {
		if e.Kind == Memory && e.Name == name && e.Index == 0 {
			return true
		}
	}
	return false
}
