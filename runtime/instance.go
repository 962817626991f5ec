package runtime

import (
	"context"
	"crypto/rand"
	"time"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"

	"github.com/gate-dev/gate/hostfuncs"
)

// instance is one live module instance of a probe. It is used by one run at
// a time; between runs a healthy reactor instance waits in Probe.idle.
type instance struct {
	mod   api.Module
	entry api.Function // the reactor's "probe"; nil for a command
	stack [1]uint64
	out   *outputBuffer

	// The current run, for the WASI sleep hook, which wazero calls without
	// a context.
	ctx  context.Context
	call *hostfuncs.Call
}

func (inst *instance) begin(ctx context.Context, call *hostfuncs.Call) {
	inst.ctx, inst.call = ctx, call
	inst.out.Reset()
}

func (inst *instance) end() { inst.ctx, inst.call = nil, nil }

func (inst *instance) close(ctx context.Context) {
	if inst.mod != nil {
		_ = inst.mod.Close(ctx)
	}
}

// sleep is the instance's WASI clock sleep (poll_oneoff with a clock
// subscription, which is what a Go guest's time.Sleep becomes).
func (inst *instance) sleep(ns int64) {
	if inst.call == nil {
		return
	}
	inst.call.Sleep(inst.ctx, time.Duration(ns))
}

// instantiate makes a fresh instance inside the run (so the budget covers
// instantiation and start functions). The module sees no file system, no
// args and no environ; real clocks (a probe may time itself) but a sleep
// that ends at the deadline; stdout and stderr go to a bounded buffer.
// For a command module this runs the whole probe (_start).
func (p *Probe) instantiate(ctx context.Context, call *hostfuncs.Call) (*instance, error) {
	inst := &instance{out: newOutputBuffer()}
	inst.begin(ctx, call)
	cfg := p.module.config.
		WithStdout(inst.out).
		WithStderr(inst.out).
		WithNanosleep(inst.sleep)
	mod, err := p.engine.rt.InstantiateModule(withAllocator(ctx), p.module.compiled, cfg)
	inst.mod = mod
	if err != nil {
		return inst, err
	}
	if p.module.entry == Reactor {
		inst.entry = mod.ExportedFunction("probe")
	}
	return inst, nil
}

// moduleConfig is what every instance of a module shares; instantiate
// adds the per-instance output buffer and sleep.
func moduleConfig(entry Entry, hasInitialize bool) wazero.ModuleConfig {
	cfg := wazero.NewModuleConfig().
		WithName("").
		WithSysWalltime().
		WithSysNanotime().
		// wazero's default seeds a fresh math/rand source per instance,
		// which was an eighth of a fresh C probe's cost; nothing in a probe
		// needs determinism from random_get.
		WithRandSource(rand.Reader)
	switch {
	case entry == Command:
		return cfg.WithStartFunctions("_start")
	case hasInitialize:
		// A Go (c-shared) or WASI reactor must run _initialize before any
		// export; wazero's default start function is _start, which a
		// reactor lacks, so without this it is silently skipped and the
		// first call traps.
		return cfg.WithStartFunctions("_initialize")
	}
	return cfg.WithStartFunctions()
}
