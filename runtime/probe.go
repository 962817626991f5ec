package runtime

import (
	"context"
	"crypto/x509"
	"fmt"
	"github.com/gate-dev/gate/internal/inspect"
	"slices"
	"sync/atomic"
	"time"

	"github.com/gate-dev/gate/internal/grants"
	"github.com/gate-dev/gate/internal/host"

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
	// TLSRootCAs, when set, verifies the probe's TLS peers (gate.connect
	// to "tls:", gate.http to "https:") in place of the system roots; the
	// manifest's tls_ca sets it.
	TLSRootCAs *x509.CertPool
	// Proxy sends the probe's HTTP requests through the proxy that the
	// host's HTTPS_PROXY, HTTP_PROXY and NO_PROXY name; by default none
	// applies.
	Proxy bool
}

// Probe is a module with its grants and config: the thing that answers
// "is this tool available right now". It is safe for concurrent use; each
// run gets an instance of its own. Live reactor instances are kept for
// reuse (a run on one costs microseconds) by the module's instance pool,
// which is the probe's own (all probes of a standard module share one),
// except after a run that failed, and within the engine's idle memory
// limit.
type Probe struct {
	name   string
	module *Module
	pool   *instancePool // and through it, the engine
	policy *host.Policy
	config host.Config
	// env, dial and imp are its v1 grants; ext holds the rest, and is nil
	// for a probe granted nothing of ABI v2 (most): an idle tool's heap
	// is counted in bytes (TestIdleMemoryPerTool), and a whole Grants
	// here took 72 of them for nothing.
	env, dial, imp []string
	ext            *probeExt
	budget         time.Duration

	// life tracks the probe's runs, which Close stops and waits for before
	// it counts the probe out of its pool.
	life *lifetime
	left atomic.Bool // counted out of its pool
}

// engine is the probe's engine.
func (p *Probe) engine() *Engine { return p.pool.engine }

// NewProbe makes a probe named name (it appears in every denial and
// error) from a compiled module. If the grants reach "py:" (or any
// scheme through a pattern), the Python import path is computed now, so
// that it is not computed inside a run.
func (e *Engine) NewProbe(ctx context.Context, name string, m *Module, cfg ProbeConfig) (*Probe, error) {
	return e.newProbe(ctx, name, m, cfg, host.NewConfig(cfg.Config))
}

// newProbe is NewProbe with the probe's config already made (config; the
// map in cfg.Config is not read).
func (e *Engine) newProbe(ctx context.Context, name string, m *Module, cfg ProbeConfig, config host.Config) (*Probe, error) {
	if m == nil {
		return nil, fmt.Errorf("probe %q: nil module", name)
	}
	policy, err := grants.Spec(cfg.Grants).Compile()
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
	var pnet *host.Net
	if cfg.TLSRootCAs != nil || cfg.Proxy || e.cfg.dialContext != nil {
		pnet = &host.Net{RootCAs: cfg.TLSRootCAs, Proxy: cfg.Proxy, DialContext: e.cfg.dialContext}
	}
	if cfg.TLSRootCAs == nil && m.speaksTLS(cfg.Grants, config) {
		// Loaded now, in the background, rather than inside the budget
		// of the probe's first TLS handshake.
		warmSystemRoots()
	}
	// The probe and its lifetime, which lives as long, are one allocation.
	made := &struct {
		probe Probe
		life  lifetime
	}{probe: Probe{
		name:   name,
		module: m,
		policy: policy,
		config: config,
		env:    cfg.Grants.Env,
		dial:   cfg.Grants.Dial,
		imp:    cfg.Grants.Import,
		budget: budget,
	}}
	p := &made.probe
	p.life = &made.life
	if g := cfg.Grants; pnet != nil || len(g.HTTP)+len(g.Secrets)+len(g.Insecure) > 0 {
		p.ext = &probeExt{http: g.HTTP, secrets: g.Secrets, insecure: g.Insecure, net: pnet}
	}
	var fresh bool
	p.pool, fresh = e.pool(p)
	if fresh {
		// The pool's warm-up runs as this probe, a non-standard pool's
		// only one.
		if e.cfg.warmup && m.entry == inspect.Reactor {
			go p.pool.warm(p)
		} else {
			close(p.pool.warming)
		}
	}
	return p, nil
}

// probeExt is what a probe holds of ABI v2: its grants, and how its calls
// reach the network (nil for the defaults: system roots, no proxy, a
// net.Dialer).
type probeExt struct {
	http, insecure []string
	secrets        map[string][]string // name -> destinations
	net            *host.Net
}

// netOf is the probe's Net, nil for the defaults.
func (p *Probe) netOf() *host.Net {
	if p.ext == nil {
		return nil
	}
	return p.ext.net
}

// newCall is the host functions' view of one execution of the probe.
func (p *Probe) newCall(deadline time.Time) *host.Call {
	c := new(host.Call)
	p.resetCall(c, deadline)
	return c
}

// resetCall makes c a new run's Call. A reused instance carries the Call
// of its runs (one allocation less a run); everything a run left in it
// (reason, logs, denials) is dropped, not overwritten in place, so the
// slices an earlier Result holds stay its own.
func (p *Probe) resetCall(c *host.Call, deadline time.Time) {
	e := p.engine()
	*c = host.Call{
		Probe:      p.name,
		Policy:     p.policy,
		Config:     p.config,
		LookupEnv:  e.cfg.lookupEnv,
		Resolvers:  e.resolvers,
		Deadline:   deadline,
		CPU:        e.cpu,
		Reserve:    p.budget / 20,
		Stop:       p.life,
		EngineStop: e.stop,
		Net:        p.netOf(),
	}
}

// Name returns the probe's name.
func (p *Probe) Name() string { return p.name }

// Module returns the probe's module.
func (p *Probe) Module() *Module { return p.module }

// Grants returns what the probe was granted.
func (p *Probe) Grants() hostfuncs.Grants {
	g := hostfuncs.Grants{Env: p.env, Dial: p.dial, Import: p.imp}
	if p.ext != nil {
		g.HTTP, g.Secrets, g.Insecure = p.ext.http, p.ext.secrets, p.ext.insecure
	}
	return g
}

// Config returns a copy of the probe's config.
func (p *Probe) Config() map[string]string { return p.config.Map() }

// Budget returns the probe's budget.
func (p *Probe) Budget() time.Duration { return p.budget }

// Close stops the probe's runs, waits for them and counts the probe out
// of its instance pool; the last probe out of a pool stops its warm-up
// and releases its live instances. Runs that start afterwards answer
// Failed with an error matching ErrClosed. If ctx ends first, Close
// returns its error and the rest happens in the background once the runs
// have stopped. Closing the engine closes its probes too.
func (p *Probe) Close(ctx context.Context) error {
	return afterDrain(ctx, p.life.close(), func() error {
		if p.left.CompareAndSwap(false, true) {
			p.pool.unref()
		}
		return nil
	})
}
