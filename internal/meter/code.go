package meter

import (
	"fmt"
	"math"

	"github.com/gate-dev/gate/internal/wasm"
)

// codeContent renders the content of the output code section: every body
// instrumented, then the helpers they use.
func (rw *rewriter) codeContent() ([]byte, error) {
	if len(rw.m.Code) == 0 {
		return nil, nil
	}
	var bodies, body []byte
	for i, c := range rw.m.Code {
		var err error
		body, err = rw.body(body[:0], uint32(i), c)
		if err != nil {
			return nil, err
		}
		bodies = wasm.AppendU32(bodies, uint32(len(body)))
		bodies = append(bodies, body...)
	}
	for _, h := range rw.helpers {
		body = rw.helperBody(body[:0], h.kind)
		bodies = wasm.AppendU32(bodies, uint32(len(body)))
		bodies = append(bodies, body...)
	}
	content := wasm.AppendU32(make([]byte, 0, len(bodies)+5), uint32(len(rw.m.Code)+len(rw.helpers)))
	return append(content, bodies...), nil
}

// body appends the instrumented version of defined function i to dst: its
// locals (plus a scratch i32 if a bulk operation is charged inline), a
// checkpoint at entry, a checkpoint after each loop header, a length charge
// before each bulk operation charged inline, memory.fill and memory.copy
// replaced by calls to the helpers, calls and ref.funcs renumbered, and with
// MaxStackSlots the stack count around the body.
func (rw *rewriter) body(dst []byte, i uint32, c wasm.Code) ([]byte, error) {
	funcIndex := rw.importedFuncs + i
	stack := rw.stackLimit > 0
	var walker *wasm.StackWalker
	if stack {
		walker = rw.m.NewStackWalker(int(i))
	}
	costs, needScratch, err := scopeCosts(c, rw.chargedInline, walker)
	if err != nil {
		return nil, err
	}
	var ft wasm.FuncType
	if needScratch || stack {
		var ok bool
		if ft, ok = rw.m.FuncType(funcIndex); !ok {
			return nil, &refusal{ErrInvalid, fmt.Sprintf("function %d: type index out of range", funcIndex)}
		}
	}

	var scratch uint32
	if !needScratch {
		dst = append(dst, c.LocalsRaw...)
	} else {
		n := uint64(len(ft.Params)) + c.NumLocals
		if n >= math.MaxUint32 {
			return nil, &refusal{ErrInvalid, fmt.Sprintf("function %d: too many locals", funcIndex)}
		}
		scratch = uint32(n) // appended last, so no existing local moves
		dst = wasm.AppendU32(dst, uint32(len(c.Locals)+1))
		for _, l := range c.Locals {
			dst = wasm.AppendU32(dst, l.Count)
			dst = wasm.AppendValType(dst, l.Type)
		}
		dst = wasm.AppendU32(dst, 1)
		dst = wasm.AppendValType(dst, wasm.I32)
	}

	dst = rw.checkpoint(dst, costs[0])
	var weight uint32
	if stack {
		weight = rw.frameWeight(ft, c, needScratch, walker.Height())
		dst = rw.stackEnter(dst, weight)
		dst = append(dst, wasm.OpBlock)
		dst = append(dst, rw.wrapperBlockType(funcIndex, ft)...)
	}
	// open counts the blocks, loops and ifs open around the current
	// instruction, not counting the function itself (nor the wrapper).
	open := uint32(0)
	loops := 0
	ir := wasm.NewInstrReader(c.Body, c.BodyOffset)
	for !ir.Done() {
		in, err := ir.Next()
		if err != nil {
			return nil, err
		}
		switch in.Op {
		case wasm.OpBlock, wasm.OpIf:
			open++
		case wasm.OpLoop:
			open++
			loops++
			dst = append(dst, in.Raw...)
			dst = rw.checkpoint(dst, costs[loops])
			continue
		case wasm.OpEnd:
			if open > 0 {
				open--
				break
			}
			// The function's own end. With the stack count, the input's
			// end closes the wrapper block, then the count goes down.
			if stack {
				dst = append(dst, wasm.OpEnd)
				dst = rw.stackExit(dst, weight)
			}
		case wasm.OpReturn:
			if stack {
				// Leave through the wrapper block instead, so that
				// stackExit runs: it is label `open` from here.
				dst = append(dst, wasm.OpBr)
				dst = wasm.AppendU32(dst, open)
				continue
			}
		case wasm.OpGlobalGet, wasm.OpGlobalSet:
			if in.Index >= rw.fuelGlobal {
				return nil, rw.noSuchGlobal(in.Offset, in.Index)
			}
		case wasm.OpLocalGet, wasm.OpLocalSet, wasm.OpLocalTee:
			if needScratch && in.Index >= scratch {
				return nil, &refusal{ErrInvalid, fmt.Sprintf("at offset %#x: function %d: local %d does not exist", in.Offset, funcIndex, in.Index)}
			}
		case wasm.OpCall, wasm.OpRefFunc:
			if in.Index >= rw.numFuncs {
				return nil, rw.noSuchFunc(in.Offset, in.Index)
			}
			if to := rw.shift(in.Index); to != in.Index {
				dst = append(dst, in.Op)
				dst = wasm.AppendU32(dst, to)
				continue
			}
		case wasm.OpPrefixMisc:
			if kind, ok := rw.replaced(in); ok {
				dst = append(dst, wasm.OpCall)
				dst = wasm.AppendU32(dst, rw.helperFunc(kind))
				continue
			}
			if shift, ok := rw.chargedInline(in); ok {
				dst = rw.bulkCharge(dst, scratch, shift)
			}
		}
		dst = append(dst, in.Raw...)
	}
	return dst, nil
}

// scopeCosts computes the charge of every checkpoint of a body: index 0 for
// function entry, then one per loop in the order the loops start. It also
// reports whether the body has an instruction that inline says is charged
// inline (and so needs the scratch local), and feeds every instruction to
// walker, if not nil, so that the body is decoded once for both.
func scopeCosts(c wasm.Code, inline func(wasm.Instr) (int32, bool), walker *wasm.StackWalker) (costs []int32, scratch bool, err error) {
	sums := []uint64{0}
	// scopes has one entry per open block: the index in sums of the
	// checkpoint that pays for instructions directly inside it. Blocks and
	// ifs inherit their parent's; a loop opens its own.
	scopes := []int{0}
	ir := wasm.NewInstrReader(c.Body, c.BodyOffset)
	for !ir.Done() {
		in, err := ir.Next()
		if err != nil {
			return nil, false, err
		}
		cur := scopes[len(scopes)-1]
		sums[cur] += instrCost(in) // a loop opcode itself belongs to the enclosing scope
		switch in.Op {
		case wasm.OpBlock, wasm.OpIf:
			scopes = append(scopes, cur)
		case wasm.OpLoop:
			scopes = append(scopes, len(sums))
			sums = append(sums, 0)
		case wasm.OpEnd:
			scopes = scopes[:len(scopes)-1]
		}
		if _, ok := inline(in); ok {
			scratch = true
		}
		if walker != nil {
			walker.Step(in)
		}
	}
	costs = make([]int32, len(sums))
	for i, s := range sums {
		costs[i] = clampCost(s)
	}
	return costs, scratch, nil
}

// checkpoint appends
//
//	global.get $fuel; i32.const cost; i32.sub; global.set $fuel
//	<fuel test>
func (rw *rewriter) checkpoint(dst []byte, cost int32) []byte {
	dst = append(dst, wasm.OpGlobalGet)
	dst = wasm.AppendU32(dst, rw.fuelGlobal)
	dst = append(dst, wasm.OpI32Const)
	dst = wasm.AppendS32(dst, cost)
	dst = append(dst, wasm.OpI32Sub, wasm.OpGlobalSet)
	dst = wasm.AppendU32(dst, rw.fuelGlobal)
	return rw.fuelTest(dst)
}

// bulkCharge appends, before a bulk operation whose length is on top of the
// stack,
//
//	local.tee $scratch; global.get $fuel; local.get $scratch;
//	i32.const shift; i32.shr_u; i32.sub; global.set $fuel
//	<fuel test>
//
// The length stays on the stack for the operation itself.
func (rw *rewriter) bulkCharge(dst []byte, scratch uint32, shift int32) []byte {
	dst = append(dst, wasm.OpLocalTee)
	dst = wasm.AppendU32(dst, scratch)
	dst = append(dst, wasm.OpGlobalGet)
	dst = wasm.AppendU32(dst, rw.fuelGlobal)
	dst = append(dst, wasm.OpLocalGet)
	dst = wasm.AppendU32(dst, scratch)
	dst = append(dst, wasm.OpI32Const)
	dst = wasm.AppendS32(dst, shift)
	dst = append(dst, wasm.OpI32ShrU, wasm.OpI32Sub, wasm.OpGlobalSet)
	dst = wasm.AppendU32(dst, rw.fuelGlobal)
	return rw.fuelTest(dst)
}

// fuelTest appends
//
//	global.get $fuel; i32.const 0; i32.lt_s
//	if; call $refuel; global.set $fuel; end
func (rw *rewriter) fuelTest(dst []byte) []byte {
	dst = append(dst, wasm.OpGlobalGet)
	dst = wasm.AppendU32(dst, rw.fuelGlobal)
	dst = append(dst, wasm.OpI32Const, 0, wasm.OpI32LtS, wasm.OpIf, wasm.BlockEmpty, wasm.OpCall)
	dst = wasm.AppendU32(dst, rw.refuelFunc)
	dst = append(dst, wasm.OpGlobalSet)
	dst = wasm.AppendU32(dst, rw.fuelGlobal)
	return append(dst, wasm.OpEnd)
}

// stackEnter appends, at function entry after the checkpoint,
//
//	global.get $stack; i32.const weight; i32.add; global.set $stack
//	global.get $stack; i32.const limit; i32.gt_u
//	if; i32.const TrapCallStack; call $trap; unreachable; end
//
// The comparison is unsigned. Before the add the count is at most the limit
// (a larger total traps), the limit is below 1<<31 and the weight at most
// the limit+1 (see frameWeight), so the sum cannot wrap.
func (rw *rewriter) stackEnter(dst []byte, weight uint32) []byte {
	dst = append(dst, wasm.OpGlobalGet)
	dst = wasm.AppendU32(dst, rw.stackGlobal)
	dst = append(dst, wasm.OpI32Const)
	dst = wasm.AppendS32(dst, int32(weight))
	dst = append(dst, wasm.OpI32Add, wasm.OpGlobalSet)
	dst = wasm.AppendU32(dst, rw.stackGlobal)
	dst = append(dst, wasm.OpGlobalGet)
	dst = wasm.AppendU32(dst, rw.stackGlobal)
	dst = append(dst, wasm.OpI32Const)
	dst = wasm.AppendS32(dst, int32(rw.stackLimit))
	dst = append(dst, wasm.OpI32GtU, wasm.OpIf, wasm.BlockEmpty, wasm.OpI32Const)
	dst = wasm.AppendS32(dst, TrapCallStack)
	dst = append(dst, wasm.OpCall)
	dst = wasm.AppendU32(dst, rw.trapFunc)
	return append(dst, wasm.OpUnreachable, wasm.OpEnd)
}

// stackExit appends, after the wrapper block,
//
//	global.get $stack; i32.const weight; i32.sub; global.set $stack
func (rw *rewriter) stackExit(dst []byte, weight uint32) []byte {
	dst = append(dst, wasm.OpGlobalGet)
	dst = wasm.AppendU32(dst, rw.stackGlobal)
	dst = append(dst, wasm.OpI32Const)
	dst = wasm.AppendS32(dst, int32(weight))
	dst = append(dst, wasm.OpI32Sub, wasm.OpGlobalSet)
	return wasm.AppendU32(dst, rw.stackGlobal)
}

// wrapperBlockType returns the encoded block type of the block that wraps a
// body for the stack count: () -> (the function's results). Several results
// need a type index: an existing standalone () -> results type, or a new one.
func (rw *rewriter) wrapperBlockType(funcIndex uint32, ft wasm.FuncType) []byte {
	switch len(ft.Results) {
	case 0:
		return []byte{wasm.BlockEmpty}
	case 1:
		return wasm.AppendValType(nil, ft.Results[0])
	}
	ti, _ := rw.m.FuncTypeIndex(funcIndex) // the caller got ft from it
	if bt, ok := rw.blockTypes[ti]; ok {
		return bt
	}
	bt := wasm.AppendS64(nil, int64(rw.typeIndex(wasm.FuncType{Results: ft.Results})))
	if rw.blockTypes == nil {
		rw.blockTypes = map[uint32][]byte{}
	}
	rw.blockTypes[ti] = bt
	return bt
}
