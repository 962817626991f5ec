package inspect

import "github.com/gate-dev/gate/internal/wasm"

// What loading a module may cost beyond its size and its functions'
// bodies, which the engine's configuration sets (Limits).
const (
	// MaxFunctions caps how many functions a module defines: compiling
	// costs time and memory per function however small, on top of what its
	// body costs, so at this cap the worst module of small functions costs
	// no more time than an honest Go probe of the same bytes, which defines
	// fewer (a Go program fills the 16 MiB module limit with about 10,000):
	// docs/BENCHMARKS.md, "What a compile costs".
	MaxFunctions = 1 << 15

	// MaxInstantiationWork caps the work every new instance repeats,
	// counted at load: element segment entries, data segments, globals,
	// imports and exports, each set up anew per instance. A command probe
	// pays it inside every run's budget, so the cap keeps it to a small
	// part of a budget (docs/BENCHMARKS.md, "What the sandbox's bounds were
	// measured against"). That Go probe has 100,000 data segments and 8,613
	// element entries.
	MaxInstantiationWork = 1 << 18

	// MaxTables caps how many tables a module has: each may hold up to
	// maxTableElements references, allocated per instance. Real toolchains
	// emit one.
	MaxTables = 4
)

// What loading a module may cost. Compiling and instantiating are wazero's
// work, which no deadline interrupts within a function or a segment, so
// their inputs are bounded before either starts (and the shape of the
// functions too: see compilecost.go); a module over a limit is refused
// with a message that names the limit.
const (
	// DefaultMaxModuleSize caps a probe module's size. wazero's compile
	// time grows with the code, and a Go probe linking net/http,
	// encoding/json and text/template is over 13 MB, so 16 MiB bounds a
	// load at a few seconds and lets that probe load (docs/BENCHMARKS.md,
	// "What a compile costs").
	DefaultMaxModuleSize = 16 << 20

	// DefaultMaxFunctionSize caps one function body. A compile's memory
	// grows with the body, about a hundred bytes per byte; the largest
	// function of that Go probe is a tenth of this cap, so it bounds one
	// function's compile at tens of megabytes.
	DefaultMaxFunctionSize = 512 << 10
)

// DefaultMemoryLimit caps each probe instance's linear memory. A C or WAT
// probe needs one 64 KiB page; a Go probe a few MiB once its runtime has
// started. 32 MiB leaves room for real work and keeps a thousand bombs at
// once from taking the host down.
const DefaultMemoryLimit = 32 << 20

// Limits are the engine's configured bounds a module is checked against;
// a zero field is the default.
type Limits struct {
	MaxModule   int    // bytes of the module
	MaxFunction int    // bytes of one function body
	MemoryLimit uint64 // bytes of linear memory an instance may have
}

func (l Limits) withDefaults() Limits {
	if l.MaxModule == 0 {
		l.MaxModule = DefaultMaxModuleSize
	}
	if l.MaxFunction == 0 {
		l.MaxFunction = DefaultMaxFunctionSize
	}
	if l.MemoryLimit == 0 {
		l.MemoryLimit = DefaultMemoryLimit
	}
	return l
}

// checkLoadLimits reports, through bad, every way m would cost more to
// compile or instantiate than the limits allow.
func checkLoadLimits(m *wasm.Module, lim Limits, bad func(rule, format string, args ...any)) {
	if n := len(m.Code); n > MaxFunctions {
		bad("limits", "defines %d functions, over the limit of %d (compiling costs 20-30 µs and about 1.2 KB of memory each, however small)", n, MaxFunctions)
	}
	biggest, at := 0, 0
	for i, c := range m.Code {
		if len(c.Body) > biggest {
			biggest, at = len(c.Body), i
		}
	}
	if biggest > lim.MaxFunction {
		bad("limits", "function %d's body is %d bytes, over the limit of %s (compiling it would take about %d MB of memory)",
			m.NumImportedFuncs()+uint32(at), biggest, BytesText(uint64(lim.MaxFunction)), biggest*115/1e6)
	}
	checkCompileCost(m, bad)
	work := uint64(len(m.Data)) + uint64(len(m.Globals)) + uint64(len(m.Imports)) + uint64(len(m.Exports))
	for _, e := range m.Elements {
		work += uint64(len(e.Funcs)) + uint64(len(e.Exprs))
	}
	if work > MaxInstantiationWork {
		bad("limits", "needs %d element entries, data segments, globals, imports and exports set up per instance, over the limit of %d (every instance would spend tens of milliseconds of its budget on them)",
			work, MaxInstantiationWork)
	}
	tables := int(m.NumImported(wasm.Table)) + len(m.Tables)
	if tables > MaxTables {
		bad("limits", "has %d tables, over the limit of %d", tables, MaxTables)
	}
}
