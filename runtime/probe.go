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
// reuse (a run on one costs microseconds), except after a run that failed.
type Probe struct {
	name   string
	engine *Engine
	module *Module
	policy *hostfuncs.Policy
	config map[string]string
	grants hostfuncs.Grants
	budget time.Duration

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
	p := &Probe{
		name:   name,
		engine: e,
		module: m,
		policy: policy,
		config: maps.Clone(cfg.Config),
		grants: cfg.Grants,
		budget: budget,
	}
	if e.cfg.warmup && m.entry == Reactor {
		p.warm(ctx)
	}
	return p, nil
}

// WarmupBudget bounds the instance a reactor probe prepares when it is
// created, outside any run.
const WarmupBudget = time.Second

// warm instantiates a reactor (running _initialize) ahead of its first
// run and keeps the instance for it. A Go-built probe spends about 3 ms
// there, and 20-80 ms on the first instance of a fresh process; on a busy
// machine that alone can eat the 100 ms budget of a run that has not asked
// anything yet. The warm-up is bounded by WarmupBudget and metered like a
// run; if it fails, it leaves nothing behind and the first run instantiates
// (and fails) inside its own budget, where the failure is reported.
func (p *Probe) warm(ctx context.Context) {
	e := p.engine
	if err := e.cpu.Acquire(ctx); err != nil {
		return
	}
	call := p.newCall(time.Now().Add(WarmupBudget))
	inst, err := p.instantiate(hostfuncs.WithCall(ctx, call), call)
	if call.Holding() {
		e.cpu.Release()
	}
	if err != nil || call.Interrupted() != nil {
		inst.close(ctx)
		return
	}
	p.putIdle(ctx, inst)
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
		return inst
	}
	return nil
}

// putIdle keeps a healthy instance for the next run, up to one per
// execution slot; more could never be used at once.
func (p *Probe) putIdle(ctx context.Context, inst *instance) {
	p.mu.Lock()
	if len(p.idle) < cap(p.engine.cpu) {
		p.idle = append(p.idle, inst)
		inst = nil
	}
	p.mu.Unlock()
	if inst != nil {
		inst.close(ctx)
	}
}

// Close releases the probe's live instances. A closed probe can still run;
// it then starts fresh instances.
func (p *Probe) Close(ctx context.Context) {
	p.mu.Lock()
	idle := p.idle
	p.idle = nil
	p.mu.Unlock()
	for _, inst := range idle {
		inst.close(ctx)
	}
}
