package inspect

import (
	"fmt"
	"math"

	"github.com/gate-dev/gate/internal/wasm"
)

// The compile cost limits cap the shape of a module's functions
// (wasm.FuncCost), which predicts what wazero's optimizing compiler
// spends on them better than their size does: a function of tens of
// kilobytes can take minutes and gigabytes. Nothing interrupts the
// compile of one function, so these are checked before it starts. At the
// per-function limits the costliest shapes measured compile in about a
// second, and an honest Go probe stays far under each
// (docs/BENCHMARKS.md, "What a compile costs by the shape of its
// functions").
const (
	// maxFunctionBlocks caps a function's blocks and branches: loop
	// detection walks the dominator tree from each block.
	maxFunctionBlocks = 1 << 14
	// maxFunctionLoopBlocks caps its loops times its blocks: building the
	// loop nesting forest walks the blocks for each loop.
	maxFunctionLoopBlocks = 1 << 22
	// maxFunctionLiveSpan caps the blocks its locals live across, summed:
	// SSA construction and register allocation track each.
	maxFunctionLiveSpan = 1 << 18
	// maxFunctionWalk caps the blocks SSA construction walks back through
	// to find a local's value, for each read and each branch.
	maxFunctionWalk = 1 << 26

	// maxModuleBlocksSquared, maxModuleLiveSpan and maxModuleWalk cap the
	// same costs summed over a module's functions (blocks squared, as
	// the dominator walks cost); within them, the engine's compile timeout
	// stops a compile between two functions.
	maxModuleBlocksSquared = 1 << 31
	maxModuleLiveSpan      = 1 << 25
	maxModuleWalk          = 1 << 31
)

// CompileCost is a module's cost against each compile cost limit: the
// largest of its functions (and which it is) and its functions' total.
type CompileCost struct {
	Limits []CostLimit
}

// CostLimit is one compile cost limit and what a module has of it.
type CostLimit struct {
	// What names the cost in a message, with a %d for it; limit is the
	// cap.
	What  string
	limit uint64
	// module says the cap is on the sum over the functions; else it is on
	// each function, and function is the index of the costliest.
	module   bool
	n        uint64
	function uint64
}

// Ratio is the cost over its limit: above 1 is refused.
func (c CostLimit) Ratio() float64 { return float64(c.n) / float64(c.limit) }

// MeasureCompileCost counts m's functions against the compile cost
// limits.
func MeasureCompileCost(m *wasm.Module) CompileCost {
	limits := []CostLimit{
		{What: "%d blocks and branches", limit: maxFunctionBlocks},
		{What: "loops × blocks of %d", limit: maxFunctionLoopBlocks},
		{What: "a live span (the blocks its locals live across) of %d", limit: maxFunctionLiveSpan},
		{What: "a walk (the blocks behind its reads and branches) of %d", limit: maxFunctionWalk},
		{What: "blocks squared of %d", limit: maxModuleBlocksSquared, module: true},
		{What: "a live span of %d", limit: maxModuleLiveSpan, module: true},
		{What: "a walk of %d", limit: maxModuleWalk, module: true},
	}
	for i := range m.Code {
		c := m.FuncCost(i)
		index := uint64(m.NumImportedFuncs()) + uint64(i)
		costs := []uint64{c.Blocks, satMul(c.Loops, c.Blocks), c.LiveSpan, c.Walk, satMul(c.Blocks, c.Blocks), c.LiveSpan, c.Walk}
		for k, n := range costs {
			l := &limits[k]
			switch {
			case l.module:
				l.n = satAdd(l.n, n)
			case n > l.n:
				l.n, l.function = n, index
			}
		}
	}
	return CompileCost{Limits: limits}
}

// checkCompileCost reports every compile cost limit m is over, naming
// the function and by how much.
func checkCompileCost(m *wasm.Module, bad func(rule, format string, args ...any)) {
	for _, l := range MeasureCompileCost(m).Limits {
		switch {
		case l.n <= l.limit:
		case l.module:
			bad("limits", "its functions together have %s, over the compile cost limit of %d (%.1f× the limit; compiling them could take minutes)",
				fmt.Sprintf(l.What, l.n), l.limit, l.Ratio())
		default:
			bad("limits", "function %d has %s, over the compile cost limit of %d (%.1f× the limit; compiling it would take seconds and hundreds of MB)",
				l.function, fmt.Sprintf(l.What, l.n), l.limit, l.Ratio())
		}
	}
}

func satAdd(a, b uint64) uint64 {
	if a+b < a {
		return math.MaxUint64
	}
	return a + b
}

func satMul(a, b uint64) uint64 {
	if a != 0 && b > math.MaxUint64/a {
		return math.MaxUint64
	}
	return a * b
}
