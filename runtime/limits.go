package runtime

import (
	"fmt"
	"time"

	"github.com/gate-dev/gate/internal/inspect"
)

// WithMaxModuleSize caps the size of a probe module in bytes (default
// 16 MiB, which a Go probe linking net/http loads within); a larger one is refused at load, before it is
// read whole.
func (c EngineConfig) WithMaxModuleSize(bytes int) EngineConfig {
	c.maxModule = bytes
	return c
}

// WithMaxFunctionSize caps the size of each function body of a probe
// module in bytes (default 512 KiB).
func (c EngineConfig) WithMaxFunctionSize(bytes int) EngineConfig {
	c.maxFunction = bytes
	return c
}

// MaxModuleSize returns the configured module size limit in bytes.
func (c EngineConfig) MaxModuleSize() int { return c.maxModule }

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

// defaultCompileTimeout is how long wazero may spend compiling one
// module. wazero checks it between two functions (one function's compile
// is bounded by the compile cost limits instead), so a module whose
// functions are each within the limits but too many together is
// stopped, and its compile slot freed for the next. A Go probe near
// inspect.DefaultMaxModuleSize compiles in seconds even on a loaded machine, far
// within it (docs/BENCHMARKS.md, "What a compile costs").
const defaultCompileTimeout = 60 * time.Second

// WithCompileTimeout sets how long compiling one module may take
// (default 60 s, far past what an honest Go probe near the size limit
// takes on a loaded machine); a module whose compile takes longer is
// refused.
func (c EngineConfig) WithCompileTimeout(d time.Duration) EngineConfig {
	c.compileTimeout = d
	return c
}

// inspectLimits are the bounds a module is checked against at load.
func (c EngineConfig) inspectLimits() inspect.Limits {
	return inspect.Limits{MaxModule: c.maxModule, MaxFunction: c.maxFunction, MemoryLimit: c.memoryLimit}
}
