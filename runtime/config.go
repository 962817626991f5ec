package runtime

import (
	"context"
	"fmt"
	"github.com/gate-dev/gate/internal/inspect"
	"net"
	goruntime "runtime"
	"time"

	"github.com/gate-dev/gate/hostfuncs"
	"github.com/gate-dev/gate/internal/host"
	"github.com/gate-dev/gate/internal/limits"
)

// maxStack bounds the stack a probe's nested calls may take: 2 MiB,
// counted by the rewrite in 8-byte slots (see meter.Options.MaxStackSlots)
// from each function's parameters, locals and highest operand stack, plus
// a fixed overhead per call. A call that would go past it traps with "call
// stack too deep".
//
// It bounds bytes rather than calls because wazero's compiler grows its
// native stack by doubling and copying, in Go code no deadline can
// interrupt, up to a ceiling near 100 MB, and a cap on calls bounds that
// only for small frames. At 2 MiB an endless recursion of any frame shape
// traps within a budget and a few megabytes, while a Go probe's runtime
// and C or WAT frames thousands deep fit (docs/BENCHMARKS.md, "What the
// sandbox's bounds were measured against"). The count estimates wazero's
// frames rather than bounding them (see docs/RATIONALE.md).
const maxStack = 2 << 20

// maxTableElements caps the tables of a probe: table.grow past it returns
// -1, and a module declaring more is refused. A Go-built probe's function
// table holds a few thousand entries.
const maxTableElements = 1 << 20

// EngineConfig configures an Engine. It is immutable: each With method
// returns a changed copy, so a base config can be shared and specialised.
// Values are checked in one place, NewEngine, which reports every problem.
type EngineConfig struct {
	budget      time.Duration
	memoryLimit uint64
	cacheDir    string
	// cacheDirSet: WithCacheDir chose cacheDir; without it the engine
	// uses DefaultCacheDir, and goes without when that cannot be used.
	cacheDirSet bool
	concurrency int
	maxRuns     int
	python      string
	interpreter bool
	warmup      bool
	lookupEnv   func(string) (string, bool)
	resolvers   map[string]hostfuncs.Resolver
	dialContext func(ctx context.Context, network, addr string) (net.Conn, error)
	idleMemory  uint64
	maxModule   int
	maxFunction int
	// compileTimeout stops a compile between two functions.
	compileTimeout time.Duration
	onCompile      func(name string, size int) (done func(error))
}

// NewEngineConfig returns the defaults: a 100 ms budget, 32 MiB of memory
// per instance and 256 MiB kept by idle instances in all, modules of up to
// 16 MiB with function bodies of up to 512 KiB, compiled probes kept in
// DefaultCacheDir (see WithCacheDir), as many probes executing at once as GOMAXPROCS, "python3" from
// PATH for "py:" imports, the host's real environment, reactor probes
// warmed up when created, and wazero's compiler where it is supported.
func NewEngineConfig() EngineConfig {
	return EngineConfig{
		budget:      limits.MaxBudget,
		memoryLimit: inspect.DefaultMemoryLimit,
		concurrency: goruntime.GOMAXPROCS(0),
		python:      "python3",
		warmup:      true,
		idleMemory:  defaultIdleMemoryLimit,
		maxModule:   inspect.DefaultMaxModuleSize,
		maxFunction: inspect.DefaultMaxFunctionSize,

		compileTimeout: defaultCompileTimeout,
	}
}

// defaultIdleMemoryLimit caps the linear memory that idle instances of all
// of an engine's probes keep between runs. A C or WAT probe's instance
// holds 64 KiB and a Go probe's a few MiB, so at 256 MiB an engine keeps
// thousands of C instances or about a hundred Go ones warm; past it, runs
// instantiate fresh (microseconds for a C probe, milliseconds for a Go
// one).
const defaultIdleMemoryLimit = 256 << 20

// WithIdleMemoryLimit caps the linear memory, in bytes, that idle reactor
// instances of all the engine's probes may keep between runs (default
// 256 MiB: thousands of C instances or about a hundred Go ones kept warm;
// past it, runs instantiate fresh). An instance that would go over it is closed
// after its run instead of being kept. 0 keeps no instance at all.
func (c EngineConfig) WithIdleMemoryLimit(bytes uint64) EngineConfig {
	c.idleMemory = bytes
	return c
}

// WithBudget sets the per-run budget; it must be positive and at most
// MaxBudget.
func (c EngineConfig) WithBudget(d time.Duration) EngineConfig {
	c.budget = d
	return c
}

// WithMemoryLimit caps the linear memory of each probe instance, in bytes,
// rounded up to whole 64 KiB pages (default 32 MiB: a C probe needs one
// page, a Go probe a few MiB, and a thousand bombs at once must not take
// the host down). A module that declares a larger minimum is refused at
// load; its memory.grow past the cap returns -1.
func (c EngineConfig) WithMemoryLimit(bytes uint64) EngineConfig {
	c.memoryLimit = bytes
	return c
}

// WithCacheDir keeps compiled probes in dir, so that a second process
// (another gatectl run, a restarted host app) loads a probe without
// compiling it again: for a Go-built probe that is tens of milliseconds
// instead of seconds. It also keeps what Python reported about itself for
// "py:" lookups (in dir's gate-pyfacts-v1), checked against the files it
// came from, so that a second process need not start Python (25-330 ms,
// behind a pyenv shim the most). dir is made if it does not exist, and an
// engine that cannot use it is refused. Processes may share it: each
// entry is written whole, beside, then renamed into place. "" keeps them
// in memory only.
//
// The default is DefaultCacheDir, the directory gatectl uses: a host app
// that opens a manifest at every start pays for a Go-built probe's compile
// once, not at every start. If it cannot be made, or is not a private
// directory of this user (a compiled probe is run as native code, so no
// one else may write it), the engine goes without an on-disk cache rather
// than failing.
func (c EngineConfig) WithCacheDir(dir string) EngineConfig {
	c.cacheDir = dir
	c.cacheDirSet = true
	return c
}

// WithConcurrency caps how many probes execute at once; the default is
// GOMAXPROCS. More busy guests than cores would only share the cores and
// push each other past their budgets; a probe waiting for a slot has not
// started its budget yet, and a probe waiting on the network gives its slot
// back for the wait.
func (c EngineConfig) WithConcurrency(n int) EngineConfig {
	c.concurrency = n
	return c
}

// WithMaxRuns caps how many runs are in flight at once, executing or
// waiting on the network; a run waits for a place before its budget
// starts. 0, the default, is 16 for each execution slot
// (WithConcurrency), and never more than the sockets probes may hold
// (host.SocketBound) give each run its eight streams.
//
// Every run that comes back from a wait needs a CPU to answer, and runs
// that come back together queue for the CPUs. Without a cap, a check of
// 10,000 tcp tools on one CPU had them all in flight at once, the queue
// outgrew their budgets, and most of them answered "timeout" or "overrun"
// against a service that accepted every connection. With one, the queue
// is bounded, so no answer depends on how many other tools are being
// probed; the price is that runs waiting on a service that never answers
// take turns, the cap of them each budget.
func (c EngineConfig) WithMaxRuns(n int) EngineConfig {
	c.maxRuns = n
	return c
}

// runsPerCPU is how many runs may be in flight for each execution slot
// when WithMaxRuns is not set: at 64, a check of 10,000 tcp tools on one
// loaded CPU gave a few wrong answers; 16 leaves twice the room of 32,
// the most that gave none.
const runsPerCPU = 16

// runs is the cap on runs in flight (see WithMaxRuns).
func (c EngineConfig) runs() int {
	if c.maxRuns > 0 {
		return c.maxRuns
	}
	return max(min(runsPerCPU*c.concurrency, host.SocketBound()/host.MaxOpenHandles), 1)
}

// WithPython sets the Python whose import path answers "py:" specs; it
// runs once, when a probe granted "py:" is first created.
func (c EngineConfig) WithPython(path string) EngineConfig {
	c.python = path
	return c
}

// WithInterpreter selects wazero's interpreter instead of its compiler.
// The interpreter runs probes many times slower but compiles a Go-built
// probe in a fraction of the time; it is also the only engine on platforms without the
// compiler.
func (c EngineConfig) WithInterpreter(on bool) EngineConfig {
	c.interpreter = on
	return c
}

// WithWarmup sets whether a reactor probe prepares one instance (running
// its _initialize) when it is created, so that its first run reuses it
// instead of instantiating inside the budget; the default is true. Turn it
// off to measure what a run costs on a fresh instance, as `gatectl probe
// run --fresh` does.
func (c EngineConfig) WithWarmup(on bool) EngineConfig {
	c.warmup = on
	return c
}

// WithCompileObserver has the engine call onCompile as wazero starts
// compiling a probe module (once the module is checked and metered and a
// compile slot is free, so the wait for the slot is not counted), with
// the module's name and size in bytes; the function it returns, unless
// nil, is called with the compile's error when it ends. A Go-built probe
// takes seconds to compile and tens of milliseconds to load from the
// compilation cache (WithCacheDir), which is a compile to this observer
// too: a CLI that shows progress for slow compiles only, as gatectl does,
// tells them apart by the time they take. Calls may come from several
// goroutines at once. The default is none.
func (c EngineConfig) WithCompileObserver(onCompile func(name string, size int) (done func(error))) EngineConfig {
	c.onCompile = onCompile
	return c
}

// WithLookupEnv replaces the environment that gate.env reads (the process
// environment by default), for host apps that keep secrets elsewhere and
// for tests.
func (c EngineConfig) WithLookupEnv(f func(string) (string, bool)) EngineConfig {
	c.lookupEnv = f
	return c
}

// WithResolver adds a gate.import scheme, or replaces a built-in one
// ("bin", "py", "lib"): a probe granted "k8s:*" may then ask for
// "k8s:deployment/api".
func (c EngineConfig) WithResolver(scheme string, r hostfuncs.Resolver) EngineConfig {
	m := make(map[string]hostfuncs.Resolver, len(c.resolvers)+1)
	for k, v := range c.resolvers {
		m[k] = v
	}
	m[scheme] = r
	c.resolvers = m
	return c
}

// Budget returns the configured budget.
func (c EngineConfig) Budget() time.Duration { return c.budget }

// MemoryLimit returns the configured memory cap in bytes.
func (c EngineConfig) MemoryLimit() uint64 { return c.memoryLimit }

const pageSize = limits.PageSize

func (c EngineConfig) validate() error {
	var errs []error
	if c.budget <= 0 || c.budget > limits.MaxBudget {
		errs = append(errs, fmt.Errorf("budget %v: want more than 0 and at most %v", c.budget, limits.MaxBudget))
	}
	if c.memoryLimit < limits.MinMemory || c.memoryLimit > limits.MaxMemory {
		errs = append(errs, fmt.Errorf("memory limit %d bytes: want at least 64 KiB (one page) and at most 4 GiB", c.memoryLimit))
	}
	if c.idleMemory > 1<<40 {
		errs = append(errs, fmt.Errorf("idle memory limit %d bytes: want at most 1 TiB", c.idleMemory))
	}
	if c.concurrency < 1 {
		errs = append(errs, fmt.Errorf("concurrency %d: want at least 1", c.concurrency))
	}
	if c.maxRuns < 0 {
		errs = append(errs, fmt.Errorf("max runs %d: want 0 (the default) or more", c.maxRuns))
	}
	errs = append(errs, c.validateLimits()...)
	for scheme, r := range c.resolvers {
		if r == nil {
			errs = append(errs, fmt.Errorf("resolver for %q is nil", scheme))
		}
	}
	return joinErrors("engine config", errs)
}

func (c EngineConfig) memoryPages() uint32 {
	return uint32((c.memoryLimit + pageSize - 1) / pageSize)
}

// WithDialContext makes every connection the engine's probes open
// (gate.dial, gate.connect, gate.http) with f, after their grants allowed
// it, instead of a net.Dialer; nil restores the default. probetest uses it
// to put scripted peers behind addresses; a host app might route probes
// through a network namespace or a test double.
func (c EngineConfig) WithDialContext(f func(ctx context.Context, network, addr string) (net.Conn, error)) EngineConfig {
	c.dialContext = f
	return c
}
