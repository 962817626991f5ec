package wasm

import "fmt"

// Opcodes a rewriter needs to recognise. The decoder knows them all; only
// these have names here.
const (
	OpUnreachable   byte = 0x00
	OpNop           byte = 0x01
	OpBlock         byte = 0x02
	OpLoop          byte = 0x03
	OpIf            byte = 0x04
	OpElse          byte = 0x05
	OpEnd           byte = 0x0b
	OpBr            byte = 0x0c
	OpBrIf          byte = 0x0d
	OpBrTable       byte = 0x0e
	OpReturn        byte = 0x0f
	OpCall          byte = 0x10
	OpCallIndirect  byte = 0x11
	OpSelect        byte = 0x1b
	OpLocalGet      byte = 0x20
	OpLocalSet      byte = 0x21
	OpLocalTee      byte = 0x22
	OpGlobalGet     byte = 0x23
	OpGlobalSet     byte = 0x24
	OpMemorySize    byte = 0x3f
	OpMemoryGrow    byte = 0x40
	OpI32Const      byte = 0x41
	OpI64Const      byte = 0x42
	OpI32LtS        byte = 0x48
	OpI32GtU        byte = 0x4b
	OpI32LeU        byte = 0x4d
	OpI64GtU        byte = 0x56
	OpI32Add        byte = 0x6a
	OpI32Sub        byte = 0x6b
	OpI32ShrU       byte = 0x76
	OpI64Add        byte = 0x7c
	OpI64Shl        byte = 0x86
	OpI64ExtendI32U byte = 0xad
	OpRefFunc       byte = 0xd2
	OpPrefixMisc    byte = 0xfc // bulk memory, reference types tables, saturating truncation
	OpPrefixSIMD    byte = 0xfd
)

// Sub-opcodes after OpPrefixMisc whose cost depends on an operand.
const (
	MiscMemoryInit uint32 = 8
	MiscMemoryCopy uint32 = 10
	MiscMemoryFill uint32 = 11
	MiscTableInit  uint32 = 12
	MiscTableCopy  uint32 = 14
	MiscTableGrow  uint32 = 15
	MiscTableFill  uint32 = 17
)

// BlockEmpty is the block type of a block without parameters or results.
const BlockEmpty byte = 0x40

// Instr is one decoded instruction.
type Instr struct {
	Op  byte
	Sub uint32 // the sub-opcode after a 0xFC or 0xFD prefix
	// Offset is where the instruction starts in the input, and Raw its whole
	// encoding: opcode and immediates.
	Offset int
	Raw    []byte
	// Index is the first index immediate, if the instruction has one: the
	// function of call and ref.func, the type of call_indirect, the label of
	// br and br_if, the local, global, table, data or element segment of the
	// instructions that name one.
	Index uint32
	// BlockType is the block type of block, loop and if, as the s33 it is
	// encoded as: BlockEmpty as -0x40, a value type as its negative code
	// (so -0x01 is i32), a reference type with a heap type as its prefix
	// (-0x1d or -0x1c), or a non-negative type index.
	BlockType int64
}

// InstrReader walks the instructions of one function body, checking that
// blocks nest and that the function's final end is its last byte.
//
// Immediates are read the way wazero reads them where that differs from the
// specification: a SIMD sub-opcode is a single byte (so the spec encoding of
// sub-opcodes >= 0x80, such as 0x80 0x01, reads as that instruction followed
// by a nop, exactly as wazero compiles it); typed select must list exactly one
// single-byte type (wazero's compiler skips two bytes whatever the
// validator read); ref.null takes an abstract heap type byte.
type InstrReader struct {
	r      *reader
	frames []byte // open blocks: 'b' block or loop, 'i' if, 'e' if after its else
	done   bool
}

// NewInstrReader returns a reader over body, which starts at offset in the
// input (used in error offsets and Instr.Offset).
func NewInstrReader(body []byte, offset int) *InstrReader {
	return &InstrReader{r: newReader(body, offset, "code"), frames: []byte{'f'}}
}

// Done reports whether the function's final end has been read.
func (ir *InstrReader) Done() bool { return ir.done || ir.r.err != nil }

// Next decodes the next instruction. Every error is a *FormatError; after an
// error, Done reports true.
func (ir *InstrReader) Next() (Instr, error) {
	r := ir.r
	if ir.done {
		r.fail("read past the end of the function")
	}
	if r.err != nil {
		return Instr{}, r.err
	}
	start := r.pos
	op := r.byte()
	in := Instr{Op: op, Offset: r.base + start}
	ir.immediates(&in, start)
	if r.err != nil {
		return Instr{}, r.err
	}
	in.Raw = r.b[start:r.pos]
	return in, nil
}

// Kinds of immediates, by opcode (see immKinds).
const (
	immUnknown      byte = iota // not an opcode wazero accepts by default
	immNone                     // no immediates
	immBlock                    // block, loop, if: a block type
	immElse                     //
	immEnd                      //
	immIndex                    // one u32 index, reported as Instr.Index
	immBrTable                  // vec(labelidx) labelidx
	immCallIndirect             // typeidx tableidx
	immSelectT                  // vec(valtype), restricted to one single-byte type
	immMemArg                   // memarg
	immMemIndex                 // memory.size, memory.grow: memidx
	immI32                      // s32
	immI64                      // s64
	immF32                      // 4 bytes
	immF64                      // 8 bytes
	immRefNull                  // heap type
	immMisc                     // 0xFC prefix
	immSIMD                     // 0xFD prefix
)

// immKinds maps every one-byte opcode to the immediates that follow it.
var immKinds = func() (k [256]byte) {
	set := func(kind byte, ops ...byte) {
		for _, op := range ops {
			k[op] = kind
		}
	}
	span := func(kind byte, from, to byte) {
		for op := int(from); op <= int(to); op++ {
			k[op] = kind
		}
	}
	set(immNone, OpUnreachable, OpNop, OpReturn, 0x1a /* drop */, 0x1b /* select */, 0xd1 /* ref.is_null */)
	set(immBlock, OpBlock, OpLoop, OpIf)
	set(immElse, OpElse)
	set(immEnd, OpEnd)
	set(immIndex, OpBr, OpBrIf, OpCall, OpRefFunc, 0x25 /* table.get */, 0x26 /* table.set */)
	span(immIndex, OpLocalGet, OpGlobalSet)
	set(immBrTable, OpBrTable)
	set(immCallIndirect, OpCallIndirect)
	set(immSelectT, 0x1c)
	span(immMemArg, 0x28, 0x3e) // loads and stores
	set(immMemIndex, 0x3f, OpMemoryGrow)
	set(immI32, OpI32Const)
	set(immI64, 0x42)
	set(immF32, 0x43)
	set(immF64, 0x44)
	span(immNone, 0x45, 0xc4) // numeric, including sign extension
	set(immRefNull, 0xd0)
	set(immMisc, OpPrefixMisc)
	set(immSIMD, OpPrefixSIMD)
	return k
}()

// immediates reads the immediates of in.Op, which started at start, into
// in's Sub, Index and BlockType.
func (ir *InstrReader) immediates(in *Instr, start int) {
	r := ir.r
	op := in.Op
	switch immKinds[op] {
	case immNone:
	case immBlock:
		in.BlockType = ir.blockType()
		if op == OpIf {
			ir.frames = append(ir.frames, 'i')
		} else {
			ir.frames = append(ir.frames, 'b')
		}
	case immElse:
		if top := len(ir.frames) - 1; ir.frames[top] == 'i' {
			ir.frames[top] = 'e'
		} else {
			r.failAt(start, "else outside an if")
		}
	case immEnd:
		ir.frames = ir.frames[:len(ir.frames)-1]
		if len(ir.frames) == 0 {
			ir.done = true
			if r.pos != r.end {
				r.fail("%d bytes after the end of the function", r.end-r.pos)
			}
		}
	case immIndex:
		in.Index = r.u32()
	case immBrTable:
		n := r.count(1)
		for i := uint32(0); i <= n && r.ok(); i++ { // n labels and the default
			r.u32()
		}
	case immCallIndirect:
		in.Index = r.u32() // type
		r.u32()            // table
	case immSelectT:
		if n := r.byte(); n != 1 && r.ok() {
			r.failAt(start, "unsupported instruction: select with %d types", n)
		}
		switch t := r.byte(); t {
		case 0x7f, 0x7e, 0x7d, 0x7c, 0x7b, 0x70, 0x6f:
		default:
			if r.ok() {
				r.failAt(start, "unsupported instruction: select with type %#x", t)
			}
		}
	case immMemArg:
		ir.memArg()
	case immMemIndex:
		r.u32()
	case immI32:
		r.s32()
	case immI64:
		r.s64()
	case immF32:
		r.bytes(4)
	case immF64:
		r.bytes(8)
	case immRefNull:
		switch t := r.byte(); t {
		case 0x70, 0x6f, 0x69:
		default:
			if r.ok() {
				r.failAt(start, "unsupported instruction: ref.null %#x (typed function references)", t)
			}
		}
	case immMisc:
		in.Sub, in.Index = ir.misc(start)
	case immSIMD:
		in.Sub = ir.simd()
	default:
		ir.unsupported(op, start)
	}
}

// unsupported reports an opcode wazero does not accept by default, naming
// the proposal it comes from when it is a known one.
func (ir *InstrReader) unsupported(op byte, start int) {
	r := ir.r
	if !r.ok() {
		return
	}
	var proposal string
	switch op {
	case 0x06, 0x07, 0x08, 0x09, 0x0a, 0x18, 0x19, 0x1f:
		proposal = "exception handling"
	case 0x12, 0x13:
		proposal = "tail calls"
	case 0x14, 0x15, 0xd4, 0xd5, 0xd6:
		proposal = "typed function references"
	case 0xd3, 0xfb:
		proposal = "garbage collection"
	case 0xfe:
		proposal = "threads"
	}
	name := fmt.Sprintf("%#x", op)
	if op >= 0xfb {
		if sub, _, err := decodeU32(r.b[r.pos:r.end]); err == nil {
			name = fmt.Sprintf("%#x %#x", op, sub)
		}
	}
	if proposal == "" {
		r.failAt(start, "unknown opcode %s", name)
	} else {
		r.failAt(start, "unsupported instruction %s (%s)", name, proposal)
	}
}

// blockType reads a block type as wazero's DecodeBlockType does: an s33 that
// is 0x40 (empty), a value type code, 0x63/0x64 followed by a heap type, or a
// non-negative type index. It returns the s33 (see Instr.BlockType).
func (ir *InstrReader) blockType() int64 {
	r := ir.r
	at := r.pos
	v := r.s33()
	switch v {
	case -0x40, -0x01, -0x02, -0x03, -0x04, -0x05, -0x10, -0x11, -0x17:
		// empty, i32, i64, f32, f64, v128, funcref, externref, exnref
	case -0x1d, -0x1c: // 0x63, 0x64: (ref null ht), (ref ht)
		h := r.s33()
		if h < 0 && h != HeapFunc && h != HeapExtern && h != HeapExn && r.ok() {
			r.failAt(at, "invalid block type: unsupported heap type %d", h)
		}
	default:
		if v < 0 && r.ok() {
			r.failAt(at, "invalid block type %d", v)
		}
	}
	return v
}

// memArg reads align and offset, with a memory index between them when bit 6
// of align is set (multi-memory).
func (ir *InstrReader) memArg() {
	r := ir.r
	if align := r.u32(); align&0x40 != 0 {
		r.u32()
	}
	r.u32()
}

func (ir *InstrReader) misc(start int) (sub, index uint32) {
	r := ir.r
	sub = r.u32()
	switch sub {
	case 0, 1, 2, 3, 4, 5, 6, 7: // trunc_sat
	case MiscMemoryInit:
		index = r.u32() // data segment
		r.u32()         // memory
	case 9: // data.drop
		index = r.u32()
	case MiscMemoryCopy:
		r.u32()
		r.u32()
	case MiscMemoryFill:
		r.u32()
	case MiscTableInit:
		index = r.u32() // element segment
		r.u32()         // table
	case 13: // elem.drop
		index = r.u32()
	case MiscTableCopy:
		index = r.u32()
		r.u32()
	case MiscTableGrow, 16, MiscTableFill: // table.grow, table.size, table.fill
		index = r.u32()
	default:
		if r.ok() {
			r.failAt(start, "unknown opcode 0xfc %#x", sub)
		}
	}
	return sub, index
}

// simd reads a SIMD instruction. The sub-opcode is one byte, as wazero
// reads it (see InstrReader).
func (ir *InstrReader) simd() uint32 {
	r := ir.r
	sub := r.byte()
	switch {
	case sub <= 0x0b || sub == 0x5c || sub == 0x5d: // loads, stores, load_zero
		ir.memArg()
	case sub == 0x0c || sub == 0x0d: // v128.const, i8x16.shuffle
		r.bytes(16)
	case sub >= 0x15 && sub <= 0x22: // extract_lane, replace_lane
		r.byte()
	case sub >= 0x54 && sub <= 0x5b: // load_lane, store_lane
		ir.memArg()
		r.byte()
	}
	return uint32(sub)
}
