package runtime

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"github.com/gate-dev/gate/internal/inspect"
	"sync"
	"sync/atomic"

	"github.com/tetratelabs/wazero"

	"github.com/gate-dev/gate/internal/meter"
	"github.com/gate-dev/gate/internal/probes"
	"github.com/gate-dev/gate/internal/safefile"
)

// Module is a compiled probe module: checked against the probe ABI,
// rewritten so that it can be interrupted (see docs/RATIONALE.md), and
// compiled by wazero. One Module serves any number of Probes (the standard
// env probe is one module for every tool that uses it).
type Module struct {
	name     string
	sum      [sha256.Size]byte
	size     int
	entry    inspect.Entry
	init     bool
	info     *inspect.Inspection
	compiled wazero.CompiledModule
	config   wazero.ModuleConfig
	// standard is set for gate's own standard modules (by their bytes,
	// however they were loaded), whose instances every probe of the
	// engine may share (see instancePool).
	standard bool
	// shared is the pool of a standard module's instances, once made.
	shared atomic.Pointer[instancePool]
}

// Name is the file path or name the module was loaded under.
func (m *Module) Name() string { return m.name }

// SHA256 is the hex digest of the module as loaded (before rewriting).
func (m *Module) SHA256() string { return hex.EncodeToString(m.sum[:]) }

// Size is the module's size in bytes as loaded.
func (m *Module) Size() int { return m.size }

// CompileFile loads a probe module from a file. The error is a *LoadError
// naming the file. The path must name a regular file of at most the
// module size limit; anything else (a FIFO, a device, a directory) is
// refused without blocking or reading it whole.
func (e *Engine) CompileFile(ctx context.Context, path string) (*Module, error) {
	b, err := safefile.Read(path, int64(e.cfg.maxModule))
	if err != nil {
		return nil, &LoadError{Module: path, Errs: []error{err}}
	}
	return e.Compile(ctx, path, b)
}

// Compile checks, rewrites and compiles a probe module; name is used in
// messages. Compiling the same bytes again returns the same Module. The
// cost is paid here, never in a run: a C or WAT probe compiles in far
// less than a budget, a Go-built one in most of a second, less from the
// on-disk cache (docs/BENCHMARKS.md, "Loading a probe module").
func (e *Engine) Compile(ctx context.Context, name string, wasm []byte) (*Module, error) {
	sum := sha256.Sum256(wasm)
	e.mu.Lock()
	ent, ok := e.modules[sum]
	if !ok {
		ent = &moduleEntry{done: make(chan struct{})}
		e.modules[sum] = ent
	}
	e.mu.Unlock()
	if ok {
		select {
		case <-ent.done:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		if ent.err != nil {
			return nil, relabel(ent.err, name)
		}
		return ent.mod, nil
	}

	ent.mod, ent.err = e.compile(ctx, name, wasm, sum)
	if ent.err != nil {
		// A failure is not cached: the next attempt (a fixed file with the
		// same bytes cannot exist, but a cancelled compile can) tries again.
		e.mu.Lock()
		delete(e.modules, sum)
		e.mu.Unlock()
	}
	close(ent.done)
	return ent.mod, ent.err
}

func (e *Engine) compile(ctx context.Context, name string, wasm []byte, sum [sha256.Size]byte) (*Module, error) {
	info, err := inspect.Module(wasm, e.cfg.inspectLimits())
	if err != nil {
		return nil, &LoadError{Module: name, Errs: []error{err}}
	}
	if len(info.Violations) > 0 {
		errs := make([]error, len(info.Violations))
		for i, v := range info.Violations {
			errs[i] = v
		}
		return nil, &LoadError{Module: name, Errs: errs}
	}
	metered, err := meter.Instrument(wasm, meter.Options{
		MaxMemoryPages:   e.pages,
		MaxStackSlots:    maxStack / meter.SlotBytes,
		MaxTableElements: maxTableElements,
	})
	if err != nil {
		return nil, &LoadError{Module: name, Errs: []error{err}}
	}
	compiled, err := e.compileModule(ctx, name, len(wasm), metered)
	if err != nil {
		return nil, &LoadError{Module: name, Errs: []error{fmt.Errorf("compile: %w", err)}}
	}
	return &Module{
		name:     name,
		sum:      sum,
		size:     len(wasm),
		entry:    info.Entry,
		init:     info.HasInitialize,
		info:     info,
		compiled: compiled,
		config:   moduleConfig(info.Entry, info.HasInitialize),
		standard: standardSums()[sum],
	}, nil
}

// standardSums are the SHA-256 sums of the standard modules embedded in
// this binary.
var standardSums = sync.OnceValue(func() map[[sha256.Size]byte]bool {
	sums := map[[sha256.Size]byte]bool{}
	for _, k := range probes.Kinds() {
		if wasm, ok := probes.Wasm(k); ok {
			sums[sha256.Sum256(wasm)] = true
		}
	}
	return sums
})

// relabel reports a shared compile failure under the caller's name.
func relabel(err error, name string) error {
	if le, ok := err.(*LoadError); ok {
		return &LoadError{Module: name, Errs: le.Errs}
	}
	return err
}

// compileModule compiles with wazero once the process has a compile slot
// for it (see processCompiles): if ctx ends while it waits for one,
// nothing is compiled; if ctx ends during the compile, the caller gets
// ctx's error at once and the compile finishes in the background, its
// result dropped. Close waits for it before it frees the runtime. wazero
// stops a compile only between two functions, at the engine's compile
// timeout; the compile cost limits bound each function's. name and size
// (the module's, before metering) are for the compile observer.
func (e *Engine) compileModule(ctx context.Context, name string, size int, wasm []byte) (wazero.CompiledModule, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if !e.life.enter() {
		return nil, ErrClosed
	}
	if err := processCompiles.acquire(ctx, e.stop); err != nil {
		e.life.leave()
		return nil, err
	}
	type compiled struct {
		cm  wazero.CompiledModule
		err error
	}
	handoff := make(chan compiled)
	go func() {
		defer e.life.leave()
		defer processCompiles.release()
		var done func(error)
		if e.cfg.onCompile != nil {
			done = e.cfg.onCompile(name, size)
		}
		// The deadline stops the compile between two functions; nothing
		// stops it within one (the compile cost limits bound that).
		cctx, cancel := context.WithTimeout(compileContext(context.WithoutCancel(ctx)), e.cfg.compileTimeout)
		cm, err := e.rt.CompileModule(cctx, wasm)
		if err != nil && cctx.Err() != nil {
			err = fmt.Errorf("stopped after the compile timeout of %s: %w", e.cfg.compileTimeout, err)
		}
		cancel()
		if done != nil {
			done(err)
		}
		if err == nil {
			if err = e.ensureImports(context.WithoutCancel(ctx), cm); err != nil {
				_ = cm.Close(context.Background())
				cm = nil
			}
		}
		select {
		case handoff <- compiled{cm, err}:
		case <-ctx.Done():
			// The caller has gone (it selects on ctx too); drop the result
			// before leaving, so that it is not freed after the runtime.
			if cm != nil {
				_ = cm.Close(context.Background())
			}
		}
	}()
	select {
	case c := <-handoff:
		return c.cm, c.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}
