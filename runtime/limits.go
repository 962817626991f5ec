package runtime

import (
	"fmt"

	"github.com/gate-dev/gate/internal/wasm"
)

// What loading a module may cost. Compiling and instantiating are wazero's
// work, which no deadline interrupts within a function or a segment, so
// their inputs are bounded before either starts (and the shape of the
// functions too: see maxFunctionBlocks); a module over a limit is refused
// with a message that names the limit.
const (
	// defaultMaxModuleSize caps a probe module's size. wazero's compile
	// time grows with the code, and a Go probe linking net/http,
	// encoding/json and text/template is over 13 MB, so 16 MiB bounds a
	// load at a few seconds and lets that probe load (docs/BENCHMARKS.md,
	// "What a compile costs").
	defaultMaxModuleSize = 16 << 20

	// defaultMaxFunctionSize caps one function body. A compile's memory
	// grows with the body, about a hundred bytes per byte; the largest
	// function of that Go probe is a tenth of this cap, so it bounds one
	// function's compile at tens of megabytes.
	defaultMaxFunctionSize = 512 << 10

	// maxFunctions caps how many functions a module defines: compiling
	// costs time and memory per function however small, on top of what its
	// body costs, so at this cap the worst module of small functions costs
	// no more time than an honest Go probe of the same bytes, which defines
	// fewer (a Go program fills the 16 MiB module limit with about 10,000):
	// docs/BENCHMARKS.md, "What a compile costs".
	maxFunctions = 1 << 15

	// maxInstantiationWork caps the work every new instance repeats,
	// counted at load: element segment entries, data segments, globals,
	// imports and exports, each set up anew per instance. A command probe
	// pays it inside every run's budget, so the cap keeps it to a small
	// part of a budget (docs/BENCHMARKS.md, "What the sandbox's bounds were
	// measured against"). That Go probe has 100,000 data segments and 8,613
	// element entries.
	maxInstantiationWork = 1 << 18

	// maxTables caps how many tables a module has: each may hold up to
	// maxTableElements references, allocated per instance. Real toolchains
	// emit one.
	maxTables = 4
)

// WithMaxModuleSize caps the size of a probe module in bytes (see
// defaultMaxModuleSize); a larger one is refused at load, before it is
// read whole.
func (c EngineConfig) WithMaxModuleSize(bytes int) EngineConfig {
	c.maxModule = bytes
	return c
}

// WithMaxFunctionSize caps the size of each function body of a probe
// module in bytes (see defaultMaxFunctionSize).
func (c EngineConfig) WithMaxFunctionSize(bytes int) EngineConfig {
	c.maxFunction = bytes
	return c
}

// MaxModuleSize returns the configured module size limit in bytes.
func (c EngineConfig) MaxModuleSize() int { return c.maxModule }

// checkLoadLimits reports, through bad, every way m would cost more to
// compile or instantiate than the limits allow.
func checkLoadLimits(m *wasm.Module, cfg EngineConfig, bad func(rule, format string, args ...any)) {
	if n := len(m.Code); n > maxFunctions {
		bad("limits", "defines %d functions, over the limit of %d (compiling costs 20-30 µs and about 1.2 KB of memory each, however small)", n, maxFunctions)
	}
	biggest, at := 0, 0
	for i, c := range m.Code {
		if len(c.Body) > biggest {
			biggest, at = len(c.Body), i
		}
	}
	if biggest > cfg.maxFunction {
		bad("limits", "function %d's body is %d bytes, over the limit of %s (compiling it would take about %d MB of memory)",
			m.NumImportedFuncs()+uint32(at), biggest, bytesText(uint64(cfg.maxFunction)), biggest*115/1e6)
	}
	checkCompileCost(m, bad)
	work := uint64(len(m.Data)) + uint64(len(m.Globals)) + uint64(len(m.Imports)) + uint64(len(m.Exports))
	for _, e := range m.Elements {
		work += uint64(len(e.Funcs)) + uint64(len(e.Exprs))
	}
	if work > maxInstantiationWork {
		bad("limits", "needs %d element entries, data segments, globals, imports and exports set up per instance, over the limit of %d (every instance would spend tens of milliseconds of its budget on them)",
			work, maxInstantiationWork)
	}
	tables := int(m.NumImported(wasm.Table)) + len(m.Tables)
	if tables > maxTables {
		bad("limits", "has %d tables, over the limit of %d", tables, maxTables)
	}
}

func (c EngineConfig) validateLimits() []error {
	var errs []error
	if c.maxModule < 8 || c.maxModule > 1<<30 {
		errs = append(errs, fmt.Errorf("module size limit %d bytes: want at least 8 and at most 1 GiB", c.maxModule))
	}
	if c.maxFunction < 1 || c.maxFunction > 1<<30 {
		errs = append(errs, fmt.Errorf("function size limit %d bytes: want at least 1 and at most 1 GiB", c.maxFunction))
	}
	if c.compileTimeout <= 0 {
		errs = append(errs, fmt.Errorf("compile timeout %s: want more than zero", c.compileTimeout))
	}
	return errs
}
