package runtime

import (
	"context"
	"crypto/sha256"
	"fmt"
	"github.com/gate-dev/gate/internal/inspect"
	"github.com/gate-dev/gate/internal/resolve"
	"sync"
	"sync/atomic"

	"github.com/gate-dev/gate/internal/host"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
	"github.com/tetratelabs/wazero/experimental"

	"github.com/gate-dev/gate/internal/meter"
)

// Engine compiles and runs probes. It owns one wazero runtime with the
// gate host module, the metering import, and WASI (with no file system,
// args or environ) and env.abort, each made when a module that imports it
// is first compiled;
// it is safe for concurrent use. Close it when done.
type Engine struct {
	cfg   EngineConfig
	rt    wazero.Runtime
	cache wazero.CompilationCache
	cpu   cpuSlots
	// runs are the places of the runs in flight (EngineConfig.WithMaxRuns).
	runs      cpuSlots
	resolvers *resolve.Resolvers
	pages     uint32

	// importsMu guards imported: the lazy host modules (host.Import.Lazy)
	// instantiated so far, by name.
	importsMu sync.Mutex
	imported  map[string]bool

	mu      sync.Mutex
	modules map[[sha256.Size]byte]*moduleEntry
	pools   map[poolKey]*instancePool
	// standard holds the standard modules compiled so far, by kind.
	standard sync.Map

	// life tracks runs, warm-ups and compiles, which use the runtime that
	// Close frees.
	life        *lifetime
	stop        <-chan struct{} // life.Done(), every run's EngineStop
	releaseOnce sync.Once
	releaseErr  error
	// idleBytes is the linear memory of the instances that the engine's
	// probes keep for reuse (idle, or running again), held under
	// cfg.idleMemory (see instancePool.put).
	idleBytes atomic.Int64
}

// moduleEntry lets concurrent Compile calls of the same bytes share one
// compilation: the first compiles, the others wait for it.
type moduleEntry struct {
	done chan struct{}
	mod  *Module
	err  error
}

// NewEngine starts an engine. Configuration errors are reported here, all
// at once.
func NewEngine(ctx context.Context, cfg EngineConfig) (*Engine, error) {
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	e := &Engine{
		cfg:     cfg,
		cpu:     make(cpuSlots, cfg.concurrency),
		runs:    make(cpuSlots, cfg.runs()),
		pages:   cfg.memoryPages(),
		modules: map[[sha256.Size]byte]*moduleEntry{},
		pools:   map[poolKey]*instancePool{},
		// Not ctx: the engine outlives the call that made it.
		life: newLifetime(),
	}
	e.stop = e.life.Done()
	cacheDir, err := cfg.resolveCacheDir()
	if err != nil {
		return nil, err
	}
	e.resolvers = resolve.NewResolvers(resolve.Options{Python: cfg.python, CacheDir: cacheDir})
	for scheme, r := range cfg.resolvers {
		if err := e.resolvers.Register(scheme, r); err != nil {
			return nil, fmt.Errorf("engine config: %w", err)
		}
	}

	rc := wazero.NewRuntimeConfig()
	if cfg.interpreter {
		rc = wazero.NewRuntimeConfigInterpreter()
	}
	// No WithCloseOnContextDone: metering interrupts guests (see
	// docs/RATIONALE.md), and the context watcher would only add an exit to
	// Go at every loop back-edge. The memory limit backs up the per-module
	// cap that metering writes into each module.
	rc = rc.WithMemoryLimitPages(e.pages)
	if cacheDir != "" {
		cache, err := wazero.NewCompilationCacheWithDir(cacheDir)
		switch {
		case err == nil:
			e.cache = cache
			rc = rc.WithCompilationCache(cache)
		case cfg.cacheDirSet:
			return nil, fmt.Errorf("engine config: cache dir %s: %w", cacheDir, err)
		}
		// The default directory is a convenience: without it, compile.
	}
	e.rt = wazero.NewRuntimeWithConfig(ctx, rc)
	if err := e.instantiateHostModules(ctx); err != nil {
		e.Close(ctx)
		return nil, err
	}
	return e, nil
}

func (e *Engine) instantiateHostModules(ctx context.Context) error {
	for _, m := range host.Imports {
		if m.Lazy {
			continue
		}
		if _, err := m.Instantiate(ctx, e.rt); err != nil {
			return fmt.Errorf("instantiate the %s host module: %w", m.Name, err)
		}
	}
	_, err := e.rt.NewHostModuleBuilder(meter.ImportModule).
		NewFunctionBuilder().
		WithGoModuleFunction(api.GoModuleFunc(refuel), nil, []api.ValueType{api.ValueTypeI32}).
		Export(meter.ImportName).
		NewFunctionBuilder().
		WithGoModuleFunction(api.GoModuleFunc(trap), []api.ValueType{api.ValueTypeI32}, nil).
		Export(meter.TrapName).
		Instantiate(ctx)
	if err != nil {
		return fmt.Errorf("instantiate the metering module: %w", err)
	}
	return nil
}

// ensureImports instantiates each lazy host module (host.Import.Lazy) the
// first time a module that imports it is compiled: WASI's 46 functions'
// trampolines are a large part of making an engine and loading the env
// probe, which, like the other standard probes, imports nothing from WASI.
// It is gate's own WASI, not wazero's: wazero's never checks the deadline
// and works in one go on guest-given sizes (32 MiB of random_get, 4M
// iovecs), so a probe could loop past its budget through it.
func (e *Engine) ensureImports(ctx context.Context, cm wazero.CompiledModule) error {
	for _, f := range cm.ImportedFunctions() {
		name, _, _ := f.Import()
		m, ok := host.LookupImport(name)
		if !ok || !m.Lazy {
			continue
		}
		if err := e.ensureImport(ctx, m); err != nil {
			return err
		}
	}
	return nil
}

func (e *Engine) ensureImport(ctx context.Context, m host.Import) error {
	// A mutex and a set, not a sync.Once: a failure is tried again by the
	// next module that needs it.
	e.importsMu.Lock()
	defer e.importsMu.Unlock()
	if e.imported[m.Name] {
		return nil
	}
	if _, err := m.Instantiate(ctx, e.rt); err != nil {
		return fmt.Errorf("instantiate %s: %w", m.Name, err)
	}
	if e.imported == nil {
		e.imported = map[string]bool{}
	}
	e.imported[m.Name] = true
	return nil
}

// refuel is the metering import: a guest calls it each time it has spent
// meter.Quantum units of work. It is where a busy guest meets its deadline,
// and, because it is Go code, where the Go scheduler can preempt a guest
// that would otherwise hold its thread.
func refuel(ctx context.Context, _ api.Module, stack []uint64) {
	if c := host.CallFrom(ctx); c != nil {
		c.Check(ctx, "running")
	}
	stack[0] = api.EncodeI32(meter.Quantum)
}

// trap is the metering import a guest calls when it reaches a limit the
// rewrite enforces (today: maxStack, the stack its nested calls take). It
// stops the guest with an error that says which.
func trap(_ context.Context, _ api.Module, stack []uint64) {
	code := api.DecodeI32(stack[0])
	msg := meter.TrapReason(code)
	if code == meter.TrapCallStack {
		msg = "call stack too deep: over the " + inspect.BytesText(maxStack) + " stack limit"
	}
	panic(&limitError{Msg: msg})
}

// limitError is the cause of a trap that the engine raised because the
// guest reached one of its limits (see maxStack).
type limitError struct{ Msg string }

func (e *limitError) Error() string { return e.Msg }

// Config returns the engine's configuration.
func (e *Engine) Config() EngineConfig { return e.cfg }

// Close stops every run, warm-up and compile of the engine, waits for them
// and then releases every module, instance and the compilation cache. A
// guest is stopped at its next metering check or host call (well under a
// millisecond of its work); its run answers Failed with an error that
// matches ErrClosed. Runs that start after Close answer the same way at
// once.
//
// Nothing is freed while a guest still runs in it. If ctx ends before the
// engine's operations have stopped (a compile cannot be interrupted, and
// takes up to a few seconds for a module at the size limits), Close
// returns ctx's error and the release happens in the background as soon
// as they have. Close may be called more than once.
func (e *Engine) Close(ctx context.Context) error {
	return afterDrain(ctx, e.life.close(), e.release)
}

func (e *Engine) release() error {
	e.releaseOnce.Do(func() {
		// The operations are over; nothing here waits on the caller.
		ctx := context.Background()
		if e.rt != nil {
			e.releaseErr = e.rt.Close(ctx)
		}
		if e.cache != nil {
			if err := e.cache.Close(ctx); e.releaseErr == nil {
				e.releaseErr = err
			}
		}
	})
	return e.releaseErr
}

// compileContext spreads a large module's compilation over
// compileWorkers goroutines; small probes are unaffected.
func compileContext(ctx context.Context) context.Context {
	return experimental.WithCompilationWorkers(ctx, compileWorkers)
}

// cpuSlots is a counting semaphore of execution slots.
type cpuSlots chan struct{}

func (s cpuSlots) Acquire(ctx context.Context) error { return s.acquire(ctx, nil, nil) }

// tryAcquire takes a slot if one is free, without waiting.
func (s cpuSlots) tryAcquire() bool {
	select {
	case s <- struct{}{}:
		return true
	default:
		return false
	}
}

// acquire waits for a slot until ctx is done or a stop channel is closed
// (the probe or its engine is being closed: queued runs must not hold up
// Close).
func (s cpuSlots) acquire(ctx context.Context, stop, engineStop <-chan struct{}) error {
	if s.tryAcquire() {
		return nil
	}
	select {
	case s <- struct{}{}:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	case <-stop:
		return ErrClosed
	case <-engineStop:
		return ErrClosed
	}
}

func (s cpuSlots) Release() { <-s }
