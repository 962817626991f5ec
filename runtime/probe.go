package runtime

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"sync"
	"time"

	"github.com/gate-dev/gate/hostfuncs"
)

// ProbeConfig is what one probe adds to its module: its grants, its config
// and, optionally, a lower budget.
type ProbeConfig struct {
	// Grants name what the probe may ask the host; the zero value denies
	// everything but its own config.
	Grants hostfuncs.Grants
	// Config is read by the probe with gate.config.
	Config map[string]string
	// Budget lowers the engine's budget for this probe; 0 keeps it.
	Budget time.Duration
}

// Probe is a module with its grants and config: the thing that answers
// "is this tool available right now". It is safe for concurrent use; each
// run gets an instance of its own. Live reactor instances are kept for
// reuse (a run on one costs microseconds), except after a run that failed,
// and within the engine's idle memory limit.
type Probe struct {
	name   string
	engine *Engine
	module *Module
	policy *hostfuncs.Policy
	config map[string]string
	grants hostfuncs.Grants
	budget time.Duration

	// life tracks the probe's runs and warm-up, which Close stops and
	// waits for before it frees the idle instances; stop is life.ctx.Done(),
	// every run's hostfuncs.Call.Stop.
	life *lifetime
	stop <-chan struct{}
	// warming is closed when the warm-up has finished (at once without
	// one); a run waits for it, as it would wait for a CPU slot.
	warming chan struct{}

	mu   sync.Mutex
	idle []*instance
}

// NewProbe makes a probe named name (it appears in every denial and
// error) from a compiled module. If the grants reach "py:" (or any
// scheme through a pattern), the Python import path is computed now, so
// that it is not computed inside a run.
func (e *Engine) NewProbe(ctx context.Context, name string, m *Module, cfg ProbeConfig) (*Probe, error) {
	if m == nil {
		return nil, fmt.Errorf("probe %q: nil module", name)
	}
	policy, err := cfg.Grants.Compile()
	if err != nil {
		return nil, fmt.Errorf("probe %q: %w", name, err)
	}
	budget := e.cfg.budget
	if cfg.Budget < 0 || cfg.Budget > budget {
		return nil, fmt.Errorf("probe %q: budget %v: want more than 0 and at most %v", name, cfg.Budget, budget)
	}
	if cfg.Budget > 0 {
		budget = cfg.Budget
	}
	if schemes := policy.ImportSchemes(); len(schemes) > 0 {
		if slices.Contains(schemes, "*") {
			schemes = e.resolvers.Schemes()
		}
		// A failure here (no Python) is reported by the run that needs it,
		// as a note; the probe itself is fine.
		_ = e.resolvers.Prepare(ctx, schemes...)
	}
	if e.life.closed() {
		return nil, fmt.Errorf("probe %q: %w", name, ErrClosed)
	}
	p := &Probe{
		name:    name,
		engine:  e,
		module:  m,
		policy:  policy,
		config:  maps.Clone(cfg.Config),
		grants:  cfg.Grants,
		budget:  budget,
		life:    newLifetime(e.life.ctx),
		warming: make(chan struct{}),
	}
	p.stop = p.life.ctx.Done()
	if e.cfg.warmup && m.entry == Reactor {
		go p.warm()
	} else {
		close(p.warming)
	}
	return p, nil
}

// WarmupBudget bounds a reactor's warm-up: its instantiation and
// _initialize, outside any run. It is MaxBudget whatever the probe's own
// budget, because it pays for the toolchain's start (a Go runtime's), not
// for the probe's answer: a Go-built probe's first instance in a fresh
// process took 3-22 ms on a 2-core machine, idle or with four busy loops
// on its cores (docs/BENCHMARKS.md).
const WarmupBudget = MaxBudget

// warm instantiates a reactor (running _initialize) ahead of its first
// run and keeps the instance for it, so that a Go probe's runtime start
// is not paid inside the budget of a run that has not asked anything yet.
// It runs in the background, concurrently with other probes' warm-ups
// (within the engine's execution slots), bounded by WarmupBudget and
// metered like a run; Close stops it. An instance that did not finish
// in time, trapped or was stopped is never kept: the first run then
// instantiates inside its own budget, where a failure is reported.
func (p *Probe) warm() {
	defer close(p.warming)
	e := p.engine
	if !e.life.enter() {
		return
	}
	defer e.life.leave()
	if !p.life.enter() {
		return
	}
	defer p.life.leave()
	ctx := p.life.ctx
	if err := e.cpu.Acquire(ctx); err != nil {
		return
	}
	call := p.newCall(time.Now().Add(WarmupBudget))
	inst, err := p.instantiate(hostfuncs.WithCall(ctx, call), call)
	if call.Holding() {
		e.cpu.Release()
	}
	if err != nil || call.Interrupted() != nil || time.Now().After(call.Deadline) {
		inst.close(context.Background())
		return
	}
	p.putIdle(inst)
}

// newCall is the host functions' view of one execution of the probe.
func (p *Probe) newCall(deadline time.Time) *hostfuncs.Call {
	e := p.engine
	return &hostfuncs.Call{
		Probe:     p.name,
		Policy:    p.policy,
		Config:    p.config,
		LookupEnv: e.cfg.lookupEnv,
		Resolvers: e.resolvers,
		Deadline:  deadline,
		CPU:       e.cpu,
		Reserve:   p.budget / 20,
		Stop:      p.stop,
	}
}

// Name returns the probe's name.
func (p *Probe) Name() string { return p.name }

// Module returns the probe's module.
func (p *Probe) Module() *Module { return p.module }

// Grants returns what the probe was granted.
func (p *Probe) Grants() hostfuncs.Grants { return p.grants }

// Config returns a copy of the probe's config.
func (p *Probe) Config() map[string]string { return maps.Clone(p.config) }

// Budget returns the probe's budget.
func (p *Probe) Budget() time.Duration { return p.budget }

func (p *Probe) takeIdle() *instance {
	p.mu.Lock()
	defer p.mu.Unlock()
	if n := len(p.idle); n > 0 {
		inst := p.idle[n-1]
		p.idle = p.idle[:n-1]
		// Its memory stays counted while it runs: it is held all the same,
		// and a reused instance that does not grow costs no accounting.
		return inst
	}
	return nil
}

// putIdle keeps a healthy instance for the next run, up to one per
// execution slot (more could never be used at once) and while the idle
// instances of all the engine's probes hold less linear memory than its
// idle memory limit; otherwise the instance is closed and its memory goes
// back at once. An instance's memory never shrinks, and a probe that
// touched a byte every 2 MiB of a 32 MiB memory keeps all of it resident:
// without the limit, a thousand such tools held 32 GiB between runs.
func (p *Probe) putIdle(inst *instance) {
	e := p.engine
	size := inst.memorySize()
	keep := true
	if grew := size - inst.idleBytes; grew != 0 {
		keep = e.idleBytes.Add(grew) <= int64(e.cfg.idleMemory)
		inst.idleBytes = size
	}
	if keep {
		p.mu.Lock()
		// A closing probe keeps nothing: Close frees what is idle once the
		// runs have left, and this run has not left yet.
		if keep = len(p.idle) < cap(e.cpu) && !p.life.closed(); keep {
			p.idle = append(p.idle, inst)
		}
		p.mu.Unlock()
	}
	if !keep {
		p.drop(inst)
	}
}

// drop closes an instance that counts against the idle memory limit.
func (p *Probe) drop(inst *instance) {
	p.engine.idleBytes.Add(-inst.idleBytes)
	inst.idleBytes = 0
	inst.close(context.Background())
}

// Close stops the probe's runs and warm-up, waits for them and releases
// its live instances. Runs that start afterwards answer Failed with an
// error matching ErrClosed. If ctx ends first, Close returns its error and
// the instances are released in the background once the runs have
// stopped. Closing the engine closes its probes too.
func (p *Probe) Close(ctx context.Context) error {
	return afterDrain(ctx, p.life.close(), func() error {
		p.mu.Lock()
		idle := p.idle
		p.idle = nil
		p.mu.Unlock()
		for _, inst := range idle {
			p.drop(inst)
		}
		return nil
	})
}
