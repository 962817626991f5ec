package runtime

import (
	"context"
	"crypto/rand"
	"github.com/gate-dev/gate/internal/inspect"

	"github.com/gate-dev/gate/internal/host"
	"github.com/gate-dev/gate/internal/linmem"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
)

// instance is one live module instance of a probe. It is used by one run at
// a time; between runs a healthy reactor instance waits in its instancePool.
type instance struct {
	mod   api.Module
	entry api.Function // the reactor's "probe"; nil for a command
	stack [1]uint64
	out   *outputBuffer
	// mem is the exported memory, looked up once (a reused instance is
	// measured after every run; see memorySize).
	mem api.Memory
	// call is the Call of the instance's current run, when the run got
	// the instance from its pool (see Probe.resetCall).
	call host.Call
	// idleBytes is the memory this instance counts against the engine's
	// idle memory limit, from when it is first kept to when it is closed
	// (see instancePool.put).
	idleBytes int64
}

// begin hands the instance to a run: gate's WASI writes fds 1 and 2 to
// the run's Call.Output, which is where Result.Output reads them from.
func (inst *instance) begin(call *host.Call) {
	call.Output = inst.out
	inst.out.Reset()
}

func (inst *instance) close(ctx context.Context) {
	if inst.mod != nil {
		_ = inst.mod.Close(ctx)
	}
}

// instantiate makes a fresh instance inside the run (so the budget covers
// instantiation and start functions). Through gate's WASI the module sees
// no file system, no args and no environ; real clocks (a probe may time
// itself) but a sleep that ends at the deadline; stdout and stderr go to a
// bounded buffer. For a command module this runs the whole probe (_start).
func (p *Probe) instantiate(ctx context.Context, call *host.Call) (*instance, error) {
	inst := &instance{out: newOutputBuffer()}
	inst.begin(call)
	mod, err := p.engine().rt.InstantiateModule(linmem.Context(ctx), p.module.compiled, p.module.config)
	inst.mod = mod
	if err != nil {
		return inst, err
	}
	// ExportedMemory, not Memory: wazero's Memory returns a typed nil for a
	// module without one. The ABI requires "memory" to be exported.
	inst.mem = mod.ExportedMemory("memory")
	if p.module.entry == inspect.Reactor {
		inst.entry = mod.ExportedFunction("probe")
	}
	return inst, nil
}

// moduleConfig is the configuration of every instance of a module. It sets
// none of wazero's system context (clocks, sleep, stdio), which gate's WASI
// does not read.
func moduleConfig(entry inspect.Entry, hasInitialize bool) wazero.ModuleConfig {
	cfg := wazero.NewModuleConfig().
		WithName("").
		// wazero still builds a system context per instance, and without a
		// source it seeds a fresh math/rand generator for it, which was an
		// eighth of a fresh C probe's cost; this one costs nothing to set.
		WithRandSource(rand.Reader)
	switch {
	case entry == inspect.Command:
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

// memorySize is the instance's linear memory in bytes, as it counts
// against the engine's idle memory limit: its size, which is what the
// guest may have touched (a region's untouched pages cost nothing, but
// the engine cannot tell which were touched without a system call per
// page).
func (inst *instance) memorySize() int64 {
	if inst.mem == nil {
		return 0
	}
	return int64(inst.mem.Size())
}
