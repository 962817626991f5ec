package meter

import (
	"fmt"
	"math"

	"github.com/gate-dev/gate/internal/wasm"
)

// codeSection writes the code section with every body instrumented.
func (rw *rewriter) codeSection(out []byte, s wasm.Section) ([]byte, error) {
	content := wasm.AppendU32(nil, uint32(len(rw.m.Code)))
	var body []byte
	for i, c := range rw.m.Code {
		var err error
		body, err = rw.body(body[:0], uint32(i), c)
		if err != nil {
			return nil, err
		}
		content = wasm.AppendU32(content, uint32(len(body)))
		content = append(content, body...)
	}
	return wasm.AppendSection(out, s.ID, content), nil
}

// body appends the instrumented version of defined function i to dst: its
// locals (plus a scratch i32 if a bulk operation needs one), a checkpoint at
// entry, a checkpoint after each loop header, a length charge before each
// bulk operation, and calls and ref.funcs renumbered.
func (rw *rewriter) body(dst []byte, i uint32, c wasm.Code) ([]byte, error) {
	funcIndex := rw.importedFuncs + i
	costs, needScratch, err := scopeCosts(c)
	if err != nil {
		return nil, err
	}

	var scratch uint32
	if !needScratch {
		dst = append(dst, c.LocalsRaw...)
	} else {
		ft, ok := rw.m.FuncType(funcIndex)
		if !ok {
			return nil, &refusal{ErrInvalid, fmt.Sprintf("function %d: type index out of range", funcIndex)}
		}
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
	loops := 0
	ir := wasm.NewInstrReader(c.Body, c.BodyOffset)
	for !ir.Done() {
		in, err := ir.Next()
		if err != nil {
			return nil, err
		}
		switch {
		case (in.Op == wasm.OpGlobalGet || in.Op == wasm.OpGlobalSet) && in.Index >= rw.fuelGlobal:
			return nil, rw.noSuchGlobal(in.Offset, in.Index)
		case needScratch && in.Op >= wasm.OpLocalGet && in.Op <= wasm.OpLocalTee && in.Index >= scratch:
			return nil, &refusal{ErrInvalid, fmt.Sprintf("at offset %#x: function %d: local %d does not exist", in.Offset, funcIndex, in.Index)}
		case in.Op == wasm.OpCall || in.Op == wasm.OpRefFunc:
			if to := rw.shift(in.Index); to != in.Index {
				dst = append(dst, in.Op)
				dst = wasm.AppendU32(dst, to)
				continue
			}
		case in.Op == wasm.OpLoop:
			loops++
			dst = append(dst, in.Raw...)
			dst = rw.checkpoint(dst, costs[loops])
			continue
		}
		if shift, ok := bulkShift(in); ok {
			dst = rw.bulkCharge(dst, scratch, shift)
		}
		dst = append(dst, in.Raw...)
	}
	return dst, nil
}

// scopeCosts computes the charge of every checkpoint of a body: index 0 for
// function entry, then one per loop in the order the loops start. It also
// reports whether the body has a bulk operation (and so needs the scratch
// local).
func scopeCosts(c wasm.Code) (costs []int32, bulk bool, err error) {
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
		if _, ok := bulkShift(in); ok {
			bulk = true
		}
	}
	costs = make([]int32, len(sums))
	for i, s := range sums {
		costs[i] = clampCost(s)
	}
	return costs, bulk, nil
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
