package meter

import "github.com/gate-dev/gate/internal/wasm"

// SlotBytes is the size of the unit Options.MaxStackSlots counts in: one
// value (a v128 counts two), as wazero's compiler lays them out in a
// native frame.
const SlotBytes = 8

// FrameOverhead is what each activation counts besides its values. The
// weight of a defined function, added to the count on every entry, is
//
//	FrameOverhead + its params + its declared locals (and the scratch local
//	the rewrite may add) + the highest its operand stack gets
//
// in slots (wasm.Slots), the last found by wasm's MaxStackHeight. Those are
// all the values a frame can hold at once, and the values wazero's
// compiler keeps in the frame are among them. FrameOverhead covers the
// rest of a native frame (return address and frame pointer, callee-saved
// registers, which are saved in 16-byte slots, alignment) and the three
// values the rewrite's own checks push on top of the function's.
//
// Measured with wazero 1.12's compiler on amd64: a tiny recursive frame
// takes 56 bytes (7 slots); one with 2,000 values live across the call
// 7.97 bytes a value; frames of 12-40 float values, which put some in
// callee-saved registers, up to 4 slots more than they hold. 16 leaves
// room for the checks' three values and for all 13 callee-saved registers
// in use (2 slots saved for each value counted once). The weight is an
// estimate, not a bound: wazero gives every value it spills a slot of its
// own, so a long function whose values are redefined across many calls or
// branches takes more than its weight (see docs/RATIONALE.md).
const FrameOverhead = 16

// frameWeight returns the weight of a defined function of type ft, body c
// and operand stack h (see FrameOverhead), capped at the limit+1: any
// larger weight traps all the same, and the cap keeps the guest's count
// from wrapping (see stackEnter).
func (rw *rewriter) frameWeight(ft wasm.FuncType, c wasm.Code, scratch bool, h wasm.StackHeight) uint32 {
	w := uint64(FrameOverhead) + wasm.SlotsOf(ft.Params) + h.Max
	for _, l := range c.Locals {
		w += uint64(l.Count) * wasm.Slots(l.Type)
	}
	if scratch {
		w++
	}
	return uint32(min(w, uint64(rw.stackLimit)+1))
}
