package meter

import "github.com/gate-dev/gate/internal/wasm"

// The cost model. One unit is one instruction; a few instructions weigh more.
// A checkpoint charges, in advance, for every instruction that can run before
// the next checkpoint:
//
//   - the function-entry checkpoint charges for the instructions of the body
//     that are not inside any loop: without a back-edge each runs at most once
//     per call (a call runs the callee's own entry checkpoint);
//   - a loop's checkpoint, at the loop header, runs on every iteration and
//     charges for the instructions lexically inside that loop but not inside
//     a nested loop (which has its own checkpoint).
const (
	// memoryGrowCost weighs memory.grow, which may copy the whole memory.
	memoryGrowCost = 1 << 14
	// minCost and maxCost clamp a checkpoint's charge. Keeping it at most
	// 1<<24 keeps the i32 fuel arithmetic far from overflow.
	minCost = 1
	maxCost = 1 << 24
)

// Bulk operations cost in proportion to their length operand, which is on top
// of the stack, charged inline before they run: memory.init pays one unit per
// 256 bytes (its length is bounded by a data segment, so by the module's
// size), table.fill, table.copy, table.init and table.grow one per 16
// elements. The shift is applied to the length before subtracting.
// memory.fill and memory.copy become calls to helpers that charge as they
// go, one unit per 4 bytes (see bulk.go); they are charged inline only where
// they are left as they are (invalid code).
const (
	memoryBulkShift = 8
	tableBulkShift  = 4
)

// bulkShift returns the shift for a 0xFC instruction whose cost depends on its
// length operand, and whether it is one.
func bulkShift(in wasm.Instr) (int32, bool) {
	if in.Op != wasm.OpPrefixMisc {
		return 0, false
	}
	switch in.Sub {
	case wasm.MiscMemoryInit, wasm.MiscMemoryCopy, wasm.MiscMemoryFill:
		return memoryBulkShift, true
	case wasm.MiscTableInit, wasm.MiscTableCopy, wasm.MiscTableGrow, wasm.MiscTableFill:
		return tableBulkShift, true
	}
	return 0, false
}

// instrCost is what one instruction adds to its checkpoint's charge.
func instrCost(in wasm.Instr) uint64 {
	if in.Op == wasm.OpMemoryGrow {
		return memoryGrowCost
	}
	return 1
}

func clampCost(c uint64) int32 {
	if c < minCost {
		return minCost
	}
	if c > maxCost {
		return maxCost
	}
	return int32(c)
}
