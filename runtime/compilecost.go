package runtime

import (
	"fmt"
	"math"
	"time"

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
	// the dominator walks cost); within them, defaultCompileTimeout stops
	// a compile between two functions.
	maxModuleBlocksSquared = 1 << 31
	maxModuleLiveSpan      = 1 << 25
	maxModuleWalk          = 1 << 31
)

// defaultCompileTimeout is how long wazero may spend compiling one
// module. wazero checks it between two functions (one function's compile
// is bounded by the compile cost limits instead), so a module whose
// functions are each within the limits but too many together is
// stopped, and its compile slot freed for the next. A Go probe near
// defaultMaxModuleSize compiles in seconds even on a loaded machine, far
// within it (docs/BENCHMARKS.md, "What a compile costs").
const defaultCompileTimeout = 60 * time.Second

// WithCompileTimeout sets how long compiling one module may take (see
// defaultCompileTimeout); a module whose compile takes longer is
// refused.
func (c EngineConfig) WithCompileTimeout(d time.Duration) EngineConfig {
	c.compileTimeout = d
	return c
}

// compileCost is a module's cost against each compile cost limit: the
// largest of its functions (and which it is) and its functions' total.
type compileCost struct {
	limits []costLimit
}

// costLimit is one compile cost limit and what a module has of it.
type costLimit struct {
	// what names the cost in a message, with a %d for it; limit is the
	// cap.
	what  string
	limit uint64
	// module says the cap is on the sum over the functions; else it is on
	// each function, and function is the index of the costliest.
	module   bool
	n        uint64
	function uint64
}

// Ratio is the cost over its limit: above 1 is refused.
func (c costLimit) Ratio() float64 { return float64(c.n) / float64(c.limit) }

// measureCompileCost counts m's functions against the compile cost
// limits.
func measureCompileCost(m *wasm.Module) compileCost {
	limits := []costLimit{
		{what: "%d blocks and branches", limit: maxFunctionBlocks},
		{what: "loops × blocks of %d", limit: maxFunctionLoopBlocks},
		{what: "a live span (the blocks its locals live across) of %d", limit: maxFunctionLiveSpan},
		{what: "a walk (the blocks behind its reads and branches) of %d", limit: maxFunctionWalk},
		{what: "blocks squared of %d", limit: maxModuleBlocksSquared, module: true},
		{what: "a live span of %d", limit: maxModuleLiveSpan, module: true},
		{what: "a walk of %d", limit: maxModuleWalk, module: true},
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
	return compileCost{limits: limits}
}

// checkCompileCost reports every compile cost limit m is over, naming
// the function and by how much.
func checkCompileCost(m *wasm.Module, bad func(rule, format string, args ...any)) {
	for _, l := range measureCompileCost(m).limits {
		switch {
		case l.n <= l.limit:
		case l.module:
			bad("limits", "its functions together have %s, over the compile cost limit of %d (%.1f× the limit; compiling them could take minutes)",
				fmt.Sprintf(l.what, l.n), l.limit, l.Ratio())
		default:
			bad("limits", "function %d has %s, over the compile cost limit of %d (%.1f× the limit; compiling it would take seconds and hundreds of MB)",
				l.function, fmt.Sprintf(l.what, l.n), l.limit, l.Ratio())
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
