package runtime

import (
	"context"
	"github.com/gate-dev/gate/internal/limits"
	goruntime "runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gate-dev/gate/internal/host"
)

// instancePool keeps the live instances of one module for every probe
// that may share them, so that a thousand tools probed by the standard env
// module hold a few warm instances between them rather than one each (a
// 64 KiB page apiece: 640 MB at 10,000 tools).
//
// Instances are stateless by the ABI, but a hostile module could carry
// what one run learnt into the next in its memory. So only the standard
// modules, which are gate's own code and keep nothing between runs, share
// one pool across every probe of the engine, whatever each is granted or
// configured with. Any other module's instances serve the one probe they
// were made for (see poolKey).
type instancePool struct {
	engine *Engine
	key    poolKey
	// refs counts the open probes using the pool; the last one to close
	// frees the idle instances, and a pool at 0 is never used again.
	refs atomic.Int64

	// life tracks the warm-up, which a pool whose last probe has closed
	// stops; warming is closed when it has finished (at once without
	// one). A run waits for it as it would wait for a CPU slot.
	life    *lifetime
	warming chan struct{}

	mu   sync.Mutex
	idle []*instance
}

// poolKey names the probes that may share instances: every probe of a
// standard module, or one probe of any other module.
//
// A run can observe every setting of its probe: its config (gate.config),
// its grants (what it is refused), its tls_ca and proxy (what its TLS and
// HTTP calls see), its budget (the clock) and even its name (a denial in
// gate.last_error names the probe). A key that listed those settings would
// be as complete as the list, and silently incomplete once a setting is
// added; keying by the probe itself is complete by construction, and what
// it gives up is sharing between probes equal in every setting, name
// included, which a manifest does not make.
type poolKey struct {
	module *Module
	// owner is the probe of a non-standard module; nil for a standard one.
	owner *Probe
}

// pool returns the pool the probe's runs take instances from, making it on
// first use (fresh: the caller then starts its warm-up), and counts the
// probe in.
func (e *Engine) pool(p *Probe) (pl *instancePool, fresh bool) {
	m := p.module
	if m.standard {
		// Ten thousand env tools made at once all want this one pool: no
		// lock on the way.
		if pl := m.shared.Load(); pl != nil && pl.ref() {
			return pl, false
		}
	}
	// A standard module is gate's own code and keeps nothing between
	// runs: one pool for all its probes. Any other module's pool is its
	// probe's own (see poolKey).
	key := poolKey{module: m}
	if !m.standard {
		key.owner = p
	}
	e.mu.Lock()
	pl = e.pools[key]
	fresh = pl == nil || !pl.ref() // a pool at 0 refs is closing
	if fresh {
		pl = &instancePool{engine: e, key: key, life: newLifetime(), warming: make(chan struct{})}
		pl.refs.Store(1)
		e.pools[key] = pl
		if m.standard {
			m.shared.Store(pl)
		}
	}
	e.mu.Unlock()
	return pl, fresh
}

// ref counts a probe in, unless the pool has closed.
func (pl *instancePool) ref() bool {
	for {
		n := pl.refs.Load()
		if n <= 0 {
			return false
		}
		if pl.refs.CompareAndSwap(n, n+1) {
			return true
		}
	}
}

// unref counts a closed probe out; the last one out closes the pool.
func (pl *instancePool) unref() {
	if pl.refs.Add(-1) != 0 {
		return
	}
	e := pl.engine
	e.mu.Lock()
	if e.pools[pl.key] == pl {
		delete(e.pools, pl.key)
	}
	pl.key.module.shared.CompareAndSwap(pl, nil)
	e.mu.Unlock()
	drained := pl.life.close()
	go func() {
		<-drained
		pl.release()
	}()
}

// release frees the idle instances of a pool nobody uses any more.
func (pl *instancePool) release() {
	pl.mu.Lock()
	idle := pl.idle
	pl.idle = nil
	pl.mu.Unlock()
	for _, inst := range idle {
		pl.drop(inst)
	}
}

// warmupBudget bounds a reactor's warm-up: its instantiation and
// _initialize, outside any run, counted as a run's budget is (the CPU and
// waits the warm-up itself used; up to ten times as long on the wall clock
// when the machine keeps it off the CPU: see Probe.Run). It is MaxBudget
// whatever the probe's own budget, because it pays for the toolchain's
// start (a Go runtime's), not for the probe's answer: a Go-built probe's
// first instance in a fresh process takes a fraction of a budget, more on
// a busy machine (docs/BENCHMARKS.md).
const warmupBudget = limits.MaxBudget

// warm instantiates a reactor (running _initialize) ahead of the first run
// of any probe of the pool and keeps the instance for it, so that a Go
// probe's runtime start is not paid inside the budget of a run that has
// not asked anything yet. It runs in the background, concurrently with
// other pools' warm-ups (within the engine's execution slots), bounded by
// warmupBudget and metered like a run, as a run of the probe that made the
// pool (a non-standard pool's only probe; a standard module's _initialize
// reads nothing of a probe's). Close
// stops it. An instance that did not finish in time, trapped or was
// stopped is never kept: the first run then instantiates inside its own
// budget, where a failure is reported.
func (pl *instancePool) warm(p *Probe) {
	defer close(pl.warming)
	e := pl.engine
	if !e.life.enter() {
		return
	}
	defer e.life.leave()
	if !pl.life.enter() {
		return
	}
	defer pl.life.leave()
	ctx := context.Background() // the stop channels end it
	if err := e.cpu.acquire(ctx, pl.life.Done(), e.stop); err != nil {
		return
	}
	start := time.Now()
	call := p.newCall(start.Add(warmupBudget))
	call.Stop = pl.life
	measured := measure(call, warmupBudget, start)
	inst, err := p.instantiate(host.WithCall(ctx, call), call)
	overran := call.Overran(time.Now())
	if measured {
		goruntime.UnlockOSThread()
	}
	if call.Holding() {
		e.cpu.Release()
	}
	call.End() // what _initialize opened is not the first run's
	if err != nil || call.Interrupted() != nil || overran {
		inst.close(context.Background())
		return
	}
	pl.put(inst)
}

// take hands out an idle instance, or nil for the caller to make one.
func (pl *instancePool) take() *instance {
	pl.mu.Lock()
	defer pl.mu.Unlock()
	if n := len(pl.idle); n > 0 {
		inst := pl.idle[n-1]
		pl.idle[n-1] = nil
		pl.idle = pl.idle[:n-1]
		// Its memory stays counted while it runs: it is held all the same,
		// and a reused instance that does not grow costs no accounting.
		return inst
	}
	return nil
}

// put keeps a healthy instance for the next run, up to one per execution
// slot (runs that wait on the network keep theirs meanwhile, so a burst
// of them makes fresh instances, which are closed again here: keeping the
// most ever out would hold a burst's memory for good) and while the
// idle instances of all the engine's pools hold less linear memory than
// its idle memory limit; otherwise the instance is closed and its memory
// goes back at once. An
// instance's memory never shrinks, and a probe that touched a byte every 2
// MiB of a 32 MiB memory keeps all of it resident: without the limit, a
// thousand such tools would hold 32 GiB between runs.
func (pl *instancePool) put(inst *instance) {
	e := pl.engine
	size := inst.memorySize()
	keep := true
	if grew := size - inst.idleBytes; grew != 0 {
		keep = e.idleBytes.Add(grew) <= int64(e.cfg.idleMemory)
		inst.idleBytes = size
	}
	if keep {
		pl.mu.Lock()
		// A closed pool keeps nothing: release frees what is idle once
		// the warm-up has left, and a run may still be on its way back.
		if keep = len(pl.idle) < cap(e.cpu) && !pl.life.closed(); keep {
			pl.idle = append(pl.idle, inst)
		}
		pl.mu.Unlock()
	}
	if !keep {
		pl.drop(inst)
	}
}

// drop closes an instance that counts against the idle memory limit.
func (pl *instancePool) drop(inst *instance) {
	pl.engine.idleBytes.Add(-inst.idleBytes)
	inst.idleBytes = 0
	inst.close(context.Background())
}
