package wasm

import "sort"

// Slots is how many slots of the operand stack a value of type t takes: 2
// for v128, 1 for everything else (numbers and references). A slot is 8
// bytes, the size of a value in wazero's compiled frames.
func Slots(t ValType) uint64 {
	if t == V128 {
		return 2
	}
	return 1
}

// SlotsOf is the total of Slots over ts.
func SlotsOf(ts []ValType) uint64 {
	n := uint64(0)
	for _, t := range ts {
		n += Slots(t)
	}
	return n
}

// StackHeight is what MaxStackHeight found out about a function body.
type StackHeight struct {
	// Max bounds the height of the operand stack, in slots (see Slots), at
	// every point of every run of the body: it never under-estimates, for
	// any body wazero accepts.
	Max uint64
	// Exact reports that the walk kept a typed account of the stack that
	// agreed with the block structure everywhere the code is reachable
	// (every block ended with exactly its results, no instruction took
	// values that were not there, every instruction was one it knows). Max
	// is then the true maximum of the code that can run: what follows an
	// unconditional branch up to the end of its block never does, and does
	// not count.
	//
	// A body for which it is false is one wazero refuses, or one that uses
	// an instruction whose effect the walk gets wrong; either way Max falls
	// back to a bound that does not trust the walk: every instruction
	// counted as leaving its largest possible result on the stack, plus the
	// parameters and results of every block.
	Exact bool
}

// MaxStackHeight walks the body of defined function i (an index into
// m.Code, counting from the first defined function, which must exist) with
// a StackWalker. Errors are the decoder's *FormatError for a body that does
// not decode (Decode has already reported any, so a decoded module has
// none).
func (m *Module) MaxStackHeight(i int) (StackHeight, error) {
	w := m.NewStackWalker(i)
	c := m.Code[i]
	ir := NewInstrReader(c.Body, c.BodyOffset)
	for !ir.Done() {
		in, err := ir.Next()
		if err != nil {
			return StackHeight{}, err
		}
		w.Step(in)
	}
	return w.Height(), nil
}

// NewStackWalker returns a walker for the body of defined function i (an
// index into m.Code); it panics if there is no such body.
func (m *Module) NewStackWalker(i int) *StackWalker {
	c := m.Code[i] // the panic
	w := &StackWalker{m: m, exact: true}
	funcIndex := uint64(m.NumImportedFuncs()) + uint64(i)
	if funcIndex <= 1<<32-1 {
		if ti, ok := m.FuncTypeIndex(uint32(funcIndex)); ok && uint64(ti) < uint64(len(m.widths)) {
			w.params = m.Types[ti].Params
			w.frames = append(w.frames, stackFrame{results: m.widths[ti][1], reachable: true})
		}
	}
	if w.frames == nil {
		w.exact = false
		w.frames = append(w.frames, stackFrame{reachable: true})
	}
	w.locals(c)
	return w
}

// Height returns what the walk found, once it has seen the whole body.
func (w *StackWalker) Height() StackHeight {
	if w.exact && len(w.frames) == 0 {
		return StackHeight{Max: w.max, Exact: true}
	}
	return StackHeight{Max: w.crude}
}

// stackFrame is a block, loop, if or the function itself, as the walk sees
// it.
type stackFrame struct {
	op byte // OpBlock, OpLoop, OpIf (OpElse once past its else), or 0 for the function
	// start is the number of values on the stack below the frame, and
	// base their height.
	start int
	base  uint64
	// params and results are the widths of the block type's values.
	params, results []uint8
	// reachable: the frame's first instruction can run; unreachable: the
	// current position cannot (it follows an unconditional branch).
	reachable, unreachable bool
}

// labelWidths are the values a branch to the frame takes: a loop's params,
// any other block's results.
func (f *stackFrame) labelWidths() []uint8 {
	if f.op == OpLoop {
		return f.params
	}
	return f.results
}

// StackWalker bounds the height of the operand stack of one function
// body, fed its instructions in order (so that a rewriter can walk the
// body once for all it needs). Each instruction's effect comes from a
// table (effectOf) or, for calls and blocks, from the types it names;
// after an unconditional branch (br, br_table, return, unreachable) the
// stack is polymorphic, and instructions that take values from below the
// current block take nothing.
//
// A body that names a type, function, global or local that does not exist
// is not an error: the walk counts the unknown value as 2 slots and the
// result is not Exact.
type StackWalker struct {
	m      *Module
	params []ValType
	// localDecls are the body's local declarations, with ends[j] the index
	// one past the last local of declaration j (parameters first).
	localDecls []LocalDecl
	ends       []uint64
	// stack holds the width of each value on the operand stack, height
	// their sum.
	stack  []uint8
	height uint64
	frames []stackFrame
	max    uint64
	exact  bool
	// crude is the bound that does not trust the walk (see StackHeight).
	crude uint64
}

func (w *StackWalker) locals(c Code) {
	w.localDecls = c.Locals
	n := uint64(len(w.params))
	w.ends = make([]uint64, len(c.Locals))
	for j, d := range c.Locals {
		n += uint64(d.Count)
		w.ends[j] = n
	}
}

// localWidth is the width of local x, 2 if there is no such local.
func (w *StackWalker) localWidth(x uint32) uint8 {
	if uint64(x) < uint64(len(w.params)) {
		return uint8(Slots(w.params[x]))
	}
	j := sort.Search(len(w.ends), func(j int) bool { return w.ends[j] > uint64(x) })
	if j == len(w.ends) {
		w.exact = false
		return 2
	}
	return uint8(Slots(w.localDecls[j].Type))
}

// globalWidth is the width of global x, 2 if there is no such global.
func (w *StackWalker) globalWidth(x uint32) uint8 {
	if g, ok := w.m.GlobalType(x); ok {
		return uint8(Slots(g.Type))
	}
	w.exact = false
	return 2
}

// Block types of one value.
var (
	oneScalar = []uint8{sw}
	oneV128   = []uint8{vw}
)

func widthsOf(ts []ValType) []uint8 {
	ws := make([]uint8, len(ts))
	for i, t := range ts {
		ws[i] = uint8(Slots(t))
	}
	return ws
}

func sumWidths(ws []uint8) uint64 {
	n := uint64(0)
	for _, x := range ws {
		n += uint64(x)
	}
	return n
}

// blockType returns the widths of a block type's params and results.
func (w *StackWalker) blockType(bt int64) (params, results []uint8) {
	switch {
	case bt == -0x40:
		return nil, nil
	case bt == -0x05: // v128
		return nil, oneV128
	case bt < 0:
		return nil, oneScalar
	case bt < int64(len(w.m.widths)):
		return w.m.widths[bt][0], w.m.widths[bt][1]
	}
	w.exact = false
	return nil, nil
}

func (w *StackWalker) top() *stackFrame { return &w.frames[len(w.frames)-1] }

// pop takes one value of width want (0: any) and returns its width. Below
// the current frame's values it takes nothing: the stack is polymorphic
// there after an unconditional branch, and the code is invalid otherwise.
func (w *StackWalker) pop(want uint8) uint8 {
	f := w.top()
	if len(w.stack) <= f.start {
		if !f.unreachable {
			w.exact = false
		}
		if want == 0 {
			return 2
		}
		return want
	}
	got := w.stack[len(w.stack)-1]
	w.stack = w.stack[:len(w.stack)-1]
	w.height -= uint64(got)
	if want != 0 && got != want {
		w.exact = false
	}
	return got
}

func (w *StackWalker) popAll(ws []uint8) {
	for i := len(ws) - 1; i >= 0; i-- {
		w.pop(ws[i])
	}
}

func (w *StackWalker) push(width uint8) {
	w.stack = append(w.stack, width)
	w.height += uint64(width)
	if !w.top().unreachable && w.height > w.max {
		w.max = w.height
	}
}

func (w *StackWalker) pushAll(ws []uint8) {
	for _, x := range ws {
		w.push(x)
	}
}

// checkTop checks, in reachable code, that the values of the current frame
// end with ws (exactly ws, if all).
func (w *StackWalker) checkTop(ws []uint8, all bool) {
	f := w.top()
	if f.unreachable {
		return
	}
	have := w.stack[f.start:]
	if len(have) < len(ws) || (all && len(have) != len(ws)) {
		w.exact = false
		return
	}
	for i, x := range ws {
		if have[len(have)-len(ws)+i] != x {
			w.exact = false
		}
	}
}

// branch makes the rest of the current frame unreachable.
func (w *StackWalker) branch() {
	f := w.top()
	w.stack = w.stack[:f.start]
	w.height = f.base
	f.unreachable = true
}

// label returns the frame a branch to label l targets, nil if there is none.
func (w *StackWalker) label(l uint32) *stackFrame {
	if uint64(l) >= uint64(len(w.frames)) {
		w.exact = false
		return nil
	}
	return &w.frames[len(w.frames)-1-int(l)]
}

func (w *StackWalker) enter(op byte, bt int64) {
	params, results := w.blockType(bt)
	w.crude += sumWidths(params) + sumWidths(results)
	if op == OpIf {
		w.pop(1)
	}
	w.popAll(params)
	w.frames = append(w.frames, stackFrame{op: op, start: len(w.stack), base: w.height, params: params,
		results: results, reachable: !w.top().unreachable, unreachable: w.top().unreachable})
	w.pushAll(params)
}

// leave closes the current frame at an end (or else, with reopen).
func (w *StackWalker) leave(reopen bool) {
	f := w.top()
	w.checkTop(f.results, true)
	w.stack = w.stack[:f.start]
	w.height = f.base
	if reopen {
		if f.op != OpIf {
			w.exact = false
		}
		f.op = OpElse
		f.unreachable = !f.reachable
		w.pushAll(f.params)
		return
	}
	if f.op == OpIf && !equalWidths(f.params, f.results) {
		// An if without else passes its params through as results.
		w.exact = false
	}
	results := f.results
	w.frames = w.frames[:len(w.frames)-1]
	if len(w.frames) > 0 { // else the function's end, which returns them
		w.pushAll(results)
	}
}

func equalWidths(a, b []uint8) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// call pops the params of type ti and pushes its results.
func (w *StackWalker) call(ti uint32, ok bool) {
	if !ok || uint64(ti) >= uint64(len(w.m.widths)) {
		w.exact = false
		w.crude += 2
		return
	}
	ws := w.m.widths[ti]
	w.crude += sumWidths(ws[1])
	w.popAll(ws[0])
	w.pushAll(ws[1])
}

// Step accounts for the next instruction of the body.
func (w *StackWalker) Step(in Instr) {
	if len(w.frames) == 0 {
		w.exact = false // past the function's end; the reader prevents it
		return
	}
	switch in.Op {
	case OpBlock, OpLoop, OpIf:
		w.enter(in.Op, in.BlockType)
		return
	case OpElse:
		w.leave(true)
		return
	case OpEnd:
		w.leave(false)
		return
	case OpBr:
		if f := w.label(in.Index); f != nil {
			w.checkTop(f.labelWidths(), false)
		}
		w.branch()
		return
	case OpBrIf:
		w.pop(1)
		if f := w.label(in.Index); f != nil {
			w.checkTop(f.labelWidths(), false)
		}
		return
	case OpBrTable:
		w.pop(1)
		w.branch()
		return
	case OpReturn, OpUnreachable:
		w.branch()
		return
	case OpCall:
		w.call(w.m.FuncTypeIndex(in.Index))
		return
	case OpCallIndirect:
		w.pop(1)
		w.call(in.Index, true)
		return
	case 0x1a: // drop
		w.pop(0)
		return
	case OpSelect:
		w.pop(1)
		x := w.pop(0)
		w.pop(x)
		w.push(x)
		w.crude += 2
		return
	case 0x1c: // select t
		x := uint8(1)
		if len(in.Raw) == 3 && in.Raw[2] == byte(V128) {
			x = 2
		}
		w.pop(1)
		w.pop(x)
		w.pop(x)
		w.push(x)
		w.crude += 2
		return
	case OpLocalGet:
		w.push(w.localWidth(in.Index))
		w.crude += 2
		return
	case OpLocalSet:
		w.pop(w.localWidth(in.Index))
		return
	case OpLocalTee:
		x := w.localWidth(in.Index)
		w.pop(x)
		w.push(x)
		w.crude += 2
		return
	case OpGlobalGet:
		w.push(w.globalWidth(in.Index))
		w.crude += 2
		return
	case OpGlobalSet:
		w.pop(w.globalWidth(in.Index))
		return
	}
	e, ok := effectOf(in)
	if !ok {
		w.exact = false
		w.crude += 2
		return
	}
	w.popAll(e.pops)
	if e.push != 0 {
		w.push(e.push)
		w.crude += uint64(e.push)
	}
}

// effect is what an instruction with a fixed signature does to the stack:
// it pops values of the widths pops (listed bottom to top) and pushes one of
// width push, or none if push is 0.
type effect struct {
	pops []uint8
	push uint8
}

// The widths of the values the effect tables list: a scalar (a number or a
// reference) or a v128.
const (
	sw uint8 = 1
	vw uint8 = 2
)

var (
	nop    = effect{}
	const1 = effect{push: sw}
	unary  = effect{pops: []uint8{sw}, push: sw}
	binary = effect{pops: []uint8{sw, sw}, push: sw}
	store  = effect{pops: []uint8{sw, sw}}
	three  = effect{pops: []uint8{sw, sw, sw}}

	vLoad     = effect{pops: []uint8{sw}, push: vw}
	vStore    = effect{pops: []uint8{sw, vw}}
	vConst    = effect{push: vw}
	vUnary    = effect{pops: []uint8{vw}, push: vw}
	vBinary   = effect{pops: []uint8{vw, vw}, push: vw}
	vTernary  = effect{pops: []uint8{vw, vw, vw}, push: vw}
	vTest     = effect{pops: []uint8{vw}, push: sw} // extract_lane, any_true, all_true, bitmask
	vReplace  = effect{pops: []uint8{vw, sw}, push: vw}
	vShift    = effect{pops: []uint8{vw, sw}, push: vw}
	vLoadLane = effect{pops: []uint8{sw, vw}, push: vw}
	vSplat    = effect{pops: []uint8{sw}, push: vw}
)

// simpleEffects are the effects of the one-byte opcodes with a fixed
// signature; ok is false for the others (handled in step, or unknown).
var simpleEffects = func() (t [256]struct {
	e  effect
	ok bool
}) {
	set := func(e effect, from, to int) {
		for op := from; op <= to; op++ {
			t[op].e, t[op].ok = e, true
		}
	}
	set(nop, 0x01, 0x01)
	set(unary, 0x25, 0x25)  // table.get
	set(store, 0x26, 0x26)  // table.set
	set(unary, 0x28, 0x35)  // loads
	set(store, 0x36, 0x3e)  // stores
	set(const1, 0x3f, 0x3f) // memory.size
	set(unary, 0x40, 0x40)  // memory.grow
	set(const1, 0x41, 0x44) // constants
	set(unary, 0x45, 0x45)  // i32.eqz
	set(binary, 0x46, 0x4f) // i32 comparisons
	set(unary, 0x50, 0x50)  // i64.eqz
	set(binary, 0x51, 0x66) // i64, f32, f64 comparisons
	set(unary, 0x67, 0x69)  // i32.clz, ctz, popcnt
	set(binary, 0x6a, 0x78) // i32 arithmetic
	set(unary, 0x79, 0x7b)  // i64.clz, ctz, popcnt
	set(binary, 0x7c, 0x8a) // i64 arithmetic
	set(unary, 0x8b, 0x91)  // f32 unary
	set(binary, 0x92, 0x98) // f32 binary
	set(unary, 0x99, 0x9f)  // f64 unary
	set(binary, 0xa0, 0xa6) // f64 binary
	set(unary, 0xa7, 0xc4)  // conversions, reinterpretations, sign extension
	set(const1, 0xd0, 0xd0) // ref.null
	set(unary, 0xd1, 0xd1)  // ref.is_null
	set(const1, 0xd2, 0xd2) // ref.func
	return t
}()

// miscEffects are the effects of the 0xFC instructions, by sub-opcode.
var miscEffects = [...]effect{
	0: unary, 1: unary, 2: unary, 3: unary, 4: unary, 5: unary, 6: unary, 7: unary, // trunc_sat
	MiscMemoryInit: three,
	9:              nop, // data.drop
	MiscMemoryCopy: three,
	MiscMemoryFill: three,
	MiscTableInit:  three,
	13:             nop, // elem.drop
	MiscTableCopy:  three,
	MiscTableGrow:  {pops: []uint8{sw, sw}, push: sw},
	16:             const1, // table.size
	MiscTableFill:  three,
}

// simdEffects are the effects of the 0xFD instructions, by the one-byte
// sub-opcode wazero reads (see InstrReader); a zero effect with ok false
// marks the reserved ones.
var simdEffects = func() (t [256]struct {
	e  effect
	ok bool
}) {
	set := func(e effect, ops ...int) {
		for _, op := range ops {
			t[op].e, t[op].ok = e, true
		}
	}
	span := func(e effect, from, to int) {
		for op := from; op <= to; op++ {
			set(e, op)
		}
	}
	span(vLoad, 0x00, 0x0a) // v128.load, load8x8_s ... load64_splat
	set(vStore, 0x0b)
	set(vConst, 0x0c)
	set(vBinary, 0x0d, 0x0e) // i8x16.shuffle, swizzle
	span(vSplat, 0x0f, 0x14)
	set(vTest, 0x15, 0x16, 0x18, 0x19, 0x1b, 0x1d, 0x1f, 0x21)   // extract_lane
	set(vReplace, 0x17, 0x1a, 0x1c, 0x1e, 0x20, 0x22)            // replace_lane
	span(vBinary, 0x23, 0x4c)                                    // comparisons
	set(vUnary, 0x4d)                                            // v128.not
	span(vBinary, 0x4e, 0x51)                                    // and, andnot, or, xor
	set(vTernary, 0x52)                                          // bitselect
	set(vTest, 0x53)                                             // any_true
	span(vLoadLane, 0x54, 0x57)                                  // load*_lane
	span(vStore, 0x58, 0x5b)                                     // store*_lane
	set(vLoad, 0x5c, 0x5d)                                       // load32_zero, load64_zero
	set(vUnary, 0x5e, 0x5f)                                      // demote, promote
	set(vUnary, 0x60, 0x61, 0x62)                                // i8x16.abs, neg, popcnt
	set(vTest, 0x63, 0x64)                                       // i8x16.all_true, bitmask
	set(vBinary, 0x65, 0x66)                                     // i8x16.narrow_i16x8
	span(vUnary, 0x67, 0x6a)                                     // f32x4.ceil, floor, trunc, nearest
	span(vShift, 0x6b, 0x6d)                                     // i8x16 shifts
	span(vBinary, 0x6e, 0x73)                                    // i8x16 add, sub (sat)
	set(vUnary, 0x74, 0x75)                                      // f64x2.ceil, floor
	span(vBinary, 0x76, 0x79)                                    // i8x16 min, max
	set(vUnary, 0x7a)                                            // f64x2.trunc
	set(vBinary, 0x7b)                                           // i8x16.avgr_u
	span(vUnary, 0x7c, 0x7f)                                     // extadd_pairwise
	set(vUnary, 0x80, 0x81)                                      // i16x8.abs, neg
	set(vBinary, 0x82)                                           // i16x8.q15mulr_sat_s
	set(vTest, 0x83, 0x84)                                       // i16x8.all_true, bitmask
	set(vBinary, 0x85, 0x86)                                     // i16x8.narrow_i32x4
	span(vUnary, 0x87, 0x8a)                                     // i16x8.extend
	span(vShift, 0x8b, 0x8d)                                     // i16x8 shifts
	span(vBinary, 0x8e, 0x93)                                    // i16x8 add, sub (sat)
	set(vUnary, 0x94)                                            // f64x2.nearest
	span(vBinary, 0x95, 0x99)                                    // i16x8.mul, min, max
	span(vBinary, 0x9b, 0x9f)                                    // i16x8.avgr_u, extmul
	set(vUnary, 0xa0, 0xa1)                                      // i32x4.abs, neg
	set(vTest, 0xa3, 0xa4)                                       // i32x4.all_true, bitmask
	span(vUnary, 0xa7, 0xaa)                                     // i32x4.extend
	span(vShift, 0xab, 0xad)                                     // i32x4 shifts
	set(vBinary, 0xae, 0xb1, 0xb5, 0xb6, 0xb7, 0xb8, 0xb9, 0xba) // i32x4 add, sub, mul, min, max, dot
	span(vBinary, 0xbc, 0xbf)                                    // i32x4.extmul
	set(vUnary, 0xc0, 0xc1)                                      // i64x2.abs, neg
	set(vTest, 0xc3, 0xc4)                                       // i64x2.all_true, bitmask
	span(vUnary, 0xc7, 0xca)                                     // i64x2.extend
	span(vShift, 0xcb, 0xcd)                                     // i64x2 shifts
	set(vBinary, 0xce, 0xd1, 0xd5)                               // i64x2 add, sub, mul
	span(vBinary, 0xd6, 0xdf)                                    // i64x2 comparisons, extmul
	set(vUnary, 0xe0, 0xe1, 0xe3)                                // f32x4.abs, neg, sqrt
	span(vBinary, 0xe4, 0xeb)                                    // f32x4 arithmetic
	set(vUnary, 0xec, 0xed, 0xef)                                // f64x2.abs, neg, sqrt
	span(vBinary, 0xf0, 0xf7)                                    // f64x2 arithmetic
	span(vUnary, 0xf8, 0xff)                                     // conversions
	return t
}()

// effectOf returns the effect of an instruction with a fixed signature;
// false for the instructions step handles itself and for unknown ones.
func effectOf(in Instr) (effect, bool) {
	switch in.Op {
	case OpPrefixMisc:
		if uint64(in.Sub) < uint64(len(miscEffects)) {
			return miscEffects[in.Sub], true
		}
		return effect{}, false
	case OpPrefixSIMD:
		if in.Sub < 256 {
			e := simdEffects[in.Sub]
			return e.e, e.ok
		}
		return effect{}, false
	}
	e := simpleEffects[in.Op]
	return e.e, e.ok
}
