package wasm

import (
	"fmt"
	"strings"
)

// ValType is a value type. The number, vector and abbreviated reference types
// are their one-byte binary code, so I32 == 0x7f. Reference types written with
// the (ref null ht) / (ref ht) prefixes 0x63 / 0x64, which wazero's decoder
// accepts, carry their heap type in the upper bits; see RefType.
type ValType uint64

// The value types of core 2.0, plus exnref which wazero's decoder accepts.
const (
	I32       ValType = 0x7f
	I64       ValType = 0x7e
	F32       ValType = 0x7d
	F64       ValType = 0x7c
	V128      ValType = 0x7b
	FuncRef   ValType = 0x70
	ExternRef ValType = 0x6f
	ExnRef    ValType = 0x69
)

// Prefixes of reference types with an explicit heap type.
const (
	refNullPrefix = 0x63
	refPrefix     = 0x64
)

// Abstract heap types, as the s33 values they are encoded as.
const (
	HeapFunc   int64 = -0x10 // 0x70
	HeapExtern int64 = -0x11 // 0x6f
	HeapExn    int64 = -0x17 // 0x69
)

const heapMask = 1<<33 - 1

// RefType returns the reference type (ref null heap) or (ref heap): heap is
// one of the Heap* constants or a type index.
func RefType(nullable bool, heap int64) ValType {
	prefix := ValType(refPrefix)
	if nullable {
		prefix = refNullPrefix
	}
	return prefix | ValType(uint64(heap)&heapMask)<<8
}

// Code is the type's first (for most types only) byte in the binary format.
func (v ValType) Code() byte { return byte(v) }

// Heap returns the heap type of a reference type written with a 0x63 or 0x64
// prefix, and whether v is one.
func (v ValType) Heap() (heap int64, nullable, ok bool) {
	if c := v.Code(); c != refNullPrefix && c != refPrefix {
		return 0, false, false
	}
	h := int64(v>>8) & heapMask
	if h&(1<<32) != 0 {
		h -= 1 << 33
	}
	return h, v.Code() == refNullPrefix, true
}

// String returns the text-format name: "i32", "funcref", "(ref null 3)".
func (v ValType) String() string {
	switch v {
	case I32:
		return "i32"
	case I64:
		return "i64"
	case F32:
		return "f32"
	case F64:
		return "f64"
	case V128:
		return "v128"
	case FuncRef:
		return "funcref"
	case ExternRef:
		return "externref"
	case ExnRef:
		return "exnref"
	}
	if heap, nullable, ok := v.Heap(); ok {
		var ht string
		switch heap {
		case HeapFunc:
			ht = "func"
		case HeapExtern:
			ht = "extern"
		case HeapExn:
			ht = "exn"
		default:
			ht = fmt.Sprint(heap)
		}
		if nullable {
			return "(ref null " + ht + ")"
		}
		return "(ref " + ht + ")"
	}
	return fmt.Sprintf("valtype(%#x)", v.Code())
}

// FuncType is a function signature.
type FuncType struct {
	Params, Results []ValType
	// InRecGroup is set for a type declared inside a rec group (the GC
	// proposal's 0x4e form, which wazero's decoder accepts). wazero does not
	// treat such a type as equal to an identical standalone one, so a rewriter
	// must not reuse it where a standalone type is expected.
	InRecGroup bool
}

// String formats the signature as "(i32, i32) -> i32" or "() -> ()".
func (f FuncType) String() string {
	list := func(ts []ValType) string {
		s := make([]string, len(ts))
		for i, t := range ts {
			s[i] = t.String()
		}
		return strings.Join(s, ", ")
	}
	res := list(f.Results)
	if len(f.Results) != 1 {
		res = "(" + res + ")"
	}
	return "(" + list(f.Params) + ") -> " + res
}

// Equal reports whether f and g have the same parameters and results (rec
// group membership is ignored).
func (f FuncType) Equal(g FuncType) bool {
	if len(f.Params) != len(g.Params) || len(f.Results) != len(g.Results) {
		return false
	}
	for i := range f.Params {
		if f.Params[i] != g.Params[i] {
			return false
		}
	}
	for i := range f.Results {
		if f.Results[i] != g.Results[i] {
			return false
		}
	}
	return true
}

// ExternKind is the kind of an import or export.
type ExternKind byte

// The extern kinds of core 2.0.
const (
	Func   ExternKind = 0
	Table  ExternKind = 1
	Memory ExternKind = 2
	Global ExternKind = 3
)

// String returns "func", "table", "memory" or "global".
func (k ExternKind) String() string {
	switch k {
	case Func:
		return "func"
	case Table:
		return "table"
	case Memory:
		return "memory"
	case Global:
		return "global"
	}
	return fmt.Sprintf("externkind(%#x)", byte(k))
}

// Limits are the size limits of a memory (in 64 KiB pages) or a table (in
// elements).
type Limits struct {
	Min    uint32
	Max    uint32 // meaningful only if HasMax
	HasMax bool
	Shared bool // threads proposal; wazero refuses it unless threads are enabled
}

// GlobalType is the type of a global.
type GlobalType struct {
	Type    ValType
	Mutable bool
}

// TableType is the type of a table.
type TableType struct {
	Elem   ValType
	Limits Limits
	// LimitsSpan is where the limits are encoded, so a rewriter can replace
	// them.
	LimitsSpan Span
	// Init is the table's initialiser, from the function-references form
	// 0x40 0x00 tabletype expr that wazero's decoder accepts; nil otherwise.
	Init *ConstExpr
}

// SectionID identifies a section.
type SectionID byte

// The section ids of core 2.0.
const (
	SectionCustom    SectionID = 0
	SectionType      SectionID = 1
	SectionImport    SectionID = 2
	SectionFunction  SectionID = 3
	SectionTable     SectionID = 4
	SectionMemory    SectionID = 5
	SectionGlobal    SectionID = 6
	SectionExport    SectionID = 7
	SectionStart     SectionID = 8
	SectionElement   SectionID = 9
	SectionCode      SectionID = 10
	SectionData      SectionID = 11
	SectionDataCount SectionID = 12
)

var sectionNames = [...]string{"custom", "type", "import", "function", "table", "memory",
	"global", "export", "start", "element", "code", "data", "data count"}

// String returns the section's name as used in error messages ("type", "data count").
func (id SectionID) String() string {
	if int(id) < len(sectionNames) {
		return sectionNames[id]
	}
	return fmt.Sprintf("section(%d)", byte(id))
}

// Rank is the position of a non-custom section in the order the binary format
// requires (data count sits between element and code); 0 for custom sections
// and unknown ids.
func (id SectionID) Rank() int {
	switch id {
	case SectionCustom:
		return 0
	case SectionDataCount:
		return int(SectionElement) + 1
	case SectionCode, SectionData:
		return int(id) + 1
	}
	if id < SectionDataCount {
		return int(id)
	}
	return 0
}
