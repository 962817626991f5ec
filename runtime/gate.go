package runtime

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/gate-dev/gate/internal/hooks"
	"github.com/gate-dev/gate/internal/host"
	"log/slog"
	goruntime "runtime"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gate-dev/gate/internal/manifest"
	"github.com/gate-dev/gate/internal/safefile"
	"github.com/gate-dev/gate/runtime/schema"
	"github.com/gate-dev/gate/skills"
)

// GateConfig configures New and Open. Like the other configs it is
// immutable; a manifest's [runtime] table overrides what it sets.
type GateConfig struct {
	engine     EngineConfig
	registry   registryConfig
	skillPaths []string
	skillLevel *skills.Level
}

// NewGateConfig returns the defaults: NewEngineConfig's, answers reused
// for DefaultTTL and served through failing re-probes for DefaultGrace,
// every answer taken at once (the zero Policy), the system clock, and
// nothing logged or observed.
func NewGateConfig() GateConfig {
	return GateConfig{engine: NewEngineConfig(), registry: newRegistryConfig()}
}

// WithEngine sets the engine's configuration.
func (c GateConfig) WithEngine(e EngineConfig) GateConfig { c.engine = e; return c }

// WithTTL sets how long a probe's answer (available or not) is reused. 0
// re-probes on every read.
func (c GateConfig) WithTTL(d time.Duration) GateConfig { c.registry.ttl = d; return c }

// WithGrace sets how long after its TTL a last good answer is still served
// when re-probes raise. At the defaults a tool healthy at t=0 whose
// re-probes fail stays listed until t=60. (PraisonAI's registry counts the
// window from the success itself, so there, with TTL = grace, it never
// applies.)
func (c GateConfig) WithGrace(d time.Duration) GateConfig { c.registry.grace = d; return c }

// WithClock replaces the system clock.
func (c GateConfig) WithClock(clock Clock) GateConfig { c.registry.clock = clock; return c }

// WithLogger sets where availability messages go (the texts of PraisonAI's
// tool registry, at its levels: DEBUG for an honest "unavailable" and for a
// graced failure, WARNING for a failure that hides the tool). Without one,
// or with nil, the Gate logs nothing: a library speaks only when its
// caller asks it to, and slog.Default is the application's, not gate's.
func (c GateConfig) WithLogger(l *slog.Logger) GateConfig { c.registry.logger = l; return c }

// WithPolicy sets the policy of every tool and server that has none of
// its own (Tool.Policy): thresholds, retry and hold-down. The default is
// the zero Policy, which takes every answer at once.
func (c GateConfig) WithPolicy(p Policy) GateConfig { c.registry.policy = p; return c }

// WithObserver reports every probe run and every read of the tools and
// servers, for metrics.
func (c GateConfig) WithObserver(o Observer) GateConfig { c.registry.observer = o; return c }

// WithSkillPaths sets the directories skills are discovered in, instead
// of the manifest's [skills] paths; none (the default) keeps the
// manifest's.
func (c GateConfig) WithSkillPaths(paths ...string) GateConfig {
	c.skillPaths = append([]string(nil), paths...)
	return c
}

// WithSkillLevel sets the skills' enforcement level, over
// SKILL_CAPABILITY_ENFORCEMENT and the manifest's [skills] enforcement
// (an explicit choice wins, as in PraisonAI's SkillManager).
func (c GateConfig) WithSkillLevel(level skills.Level) GateConfig {
	c.skillLevel = &level
	return c
}

// Gate is what a host app holds: the probe engine, the tools a model may
// be offered and the servers skills may need, each gated by its probe.
// Open one from a manifest, or build one with New and register tools in
// code. It is safe for concurrent use. Close it when done.
type Gate struct {
	engine   *Engine
	tools    *Registry
	servers  *Registry
	skills   *gateSkills // nil without skill paths
	manifest *manifest.Manifest
	changes  *changeRefresh // the background refresh OnChange holds
}

// New returns a Gate with no tools or servers, and the skills of
// cfg's skill paths.
func New(ctx context.Context, cfg GateConfig) (*Gate, error) {
	g, err := newGate(ctx, cfg)
	if err != nil {
		return nil, err
	}
	if err := g.setupSkills(ctx, cfg, manifest.Skills{}, nil); err != nil {
		_ = g.Close(context.WithoutCancel(ctx))
		return nil, err
	}
	return g, nil
}

func newGate(ctx context.Context, cfg GateConfig) (*Gate, error) {
	engine, err := NewEngine(ctx, cfg.engine)
	if err != nil {
		return nil, err
	}
	g := &Gate{
		engine:  engine,
		tools:   newRegistry(cfg.registry.WithKind("tool")),
		servers: newRegistry(cfg.registry.WithKind("server")),
	}
	var round func(context.Context)
	if !cfg.registry.background {
		round = g.refreshDue
	}
	g.changes = newChangeRefresh(round, refreshInterval(cfg.registry.ttl))
	return g, nil
}

// Open loads the manifest at path and returns a Gate with its tools and
// servers registered and their probes compiled (not yet run). Every
// problem is reported at once, each with the file, line and column it
// comes from: a bad key, a missing probe module, a module
// that does not match its sha256 pin or breaks the ABI.
func Open(ctx context.Context, path string, cfg GateConfig) (*Gate, error) {
	src, err := manifest.ReadFile(path, manifest.Limits{})
	if err != nil {
		return nil, err
	}
	m, err := manifest.Parse(path, src)
	if err != nil {
		return nil, err
	}
	g, err := openManifest(ctx, m, cfg)
	if err != nil {
		// The lines shown are those parsed, even if the file has changed.
		manifest.ShowSource(err, path, src)
	}
	return g, err
}

func init() {
	hooks.Set(func(g any) *manifest.Manifest { return g.(*Gate).manifest },
		func(ctx context.Context, m *manifest.Manifest, cfg any) (any, error) {
			return openManifest(ctx, m, cfg.(GateConfig))
		})
}

// openManifest is Open for a manifest already parsed.
func openManifest(ctx context.Context, m *manifest.Manifest, cfg GateConfig) (*Gate, error) {
	cfg = applyRuntime(cfg, m.Runtime)
	g, err := newGate(ctx, cfg)
	if err != nil {
		return nil, err
	}
	g.manifest = m
	if err := g.setupSkills(ctx, cfg, m.Skills, toolsetsOf(m.Tools)); err != nil {
		_ = g.Close(context.WithoutCancel(ctx))
		return nil, err
	}

	// Compile and warm up every probe at once: a Go-built module takes
	// most of a second to compile, and there may be many. A few workers
	// per CPU build them: a goroutine a tool cost more than building a
	// standard probe, and compiles of one module are shared anyway.
	type built struct {
		tool  Tool
		label string // Status.Probe
		err   *manifest.Error
	}
	tools := make([]built, len(m.Tools))
	// servers are the [[servers]] entries, then their upstream tool rules,
	// which are registered as servers named "SERVER#RULE" ('#' cannot
	// occur in a server name): their answers are cached, refreshed,
	// graced and published exactly like a server's.
	type ruleRef struct{ server, rule int }
	var rules []ruleRef
	for i, s := range m.Servers {
		if s.Upstream != nil {
			for j := range s.Upstream.Tools {
				rules = append(rules, ruleRef{i, j})
			}
		}
	}
	servers := make([]built, len(m.Servers)+len(rules))
	files := &moduleFiles{g: g, byPath: map[string]*moduleFile{}}
	build := func(b *built, list string, i int, name, desc string, params json.RawMessage, p *manifest.Probe, pol *manifest.Policy) {
		// The manifest package wrote the parameters as JSON already.
		b.tool = Tool{Name: name, Description: desc, Parameters: params}
		if pol != nil {
			b.tool.Policy = policyOf(pol.Over(m.Runtime.Policy))
		}
		if p != nil {
			b.label = p.Label()
			probe, err := g.probeFor(ctx, name, p, files)
			if err != nil {
				key := list + "[" + strconv.Itoa(i) + "].probe"
				var ke *probeKeyError
				if errors.As(err, &ke) {
					key += "." + ke.key
				}
				b.err = manifest.ErrorAt(p.Pos, key, err)
				return
			}
			b.tool.Probe = probe
		}
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(len(tools)+len(servers), 4*goruntime.GOMAXPROCS(0)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1)) - 1
				switch {
				case i < len(tools):
					t := m.Tools[i]
					build(&tools[i], "tools", i, t.Name, t.Description, t.Parameters, t.Probe, t.Policy)
				case i < len(tools)+len(m.Servers):
					i -= len(tools)
					s := m.Servers[i]
					build(&servers[i], "servers", i, s.Name, s.Description, nil, s.Probe, s.Policy)
				case i < len(tools)+len(servers):
					r := rules[i-len(tools)-len(m.Servers)]
					s := m.Servers[r.server]
					rule := s.Upstream.Tools[r.rule]
					build(&servers[i-len(tools)], "servers["+strconv.Itoa(r.server)+"].tools", r.rule,
						manifest.UpstreamRuleName(s.Name, rule.Rule()), "", nil, rule.Probe, s.Policy)
				default:
					return
				}
			}
		}()
	}
	wg.Wait()

	g.tools.reserve(len(tools))
	g.servers.reserve(len(servers))
	var errs manifest.Errors
	for _, list := range []struct {
		reg   *Registry
		built []built
	}{{g.tools, tools}, {g.servers, servers}} {
		for _, b := range list.built {
			if b.err != nil {
				errs = append(errs, b.err)
				continue
			}
			if err := list.reg.register(b.tool, b.label, false); err != nil {
				errs = append(errs, manifest.ErrorAt(manifest.Position{File: m.Path}, b.tool.Name, err))
			}
		}
	}
	if len(errs) > 0 {
		g.Close(ctx)
		return nil, errs
	}
	return g, nil
}

// applyRuntime lets the manifest's [runtime] table override cfg.
func applyRuntime(cfg GateConfig, rt manifest.Runtime) GateConfig {
	if rt.TTL != nil {
		cfg.registry = cfg.registry.WithTTL(*rt.TTL)
	}
	if rt.Grace != nil {
		cfg.registry = cfg.registry.WithGrace(*rt.Grace)
	}
	if rt.Budget != nil {
		cfg.engine = cfg.engine.WithBudget(*rt.Budget)
	}
	if rt.Memory != nil {
		cfg.engine = cfg.engine.WithMemoryLimit(*rt.Memory)
	}
	if rt.CacheDir != nil {
		cfg.engine = cfg.engine.WithCacheDir(*rt.CacheDir)
	}
	if rt.Python != "" {
		cfg.engine = cfg.engine.WithPython(rt.Python)
	}
	if rt.Concurrency > 0 {
		cfg.engine = cfg.engine.WithConcurrency(rt.Concurrency)
	}
	if rt.MaxRuns > 0 {
		cfg.engine = cfg.engine.WithMaxRuns(rt.MaxRuns)
	}
	if rt.Policy != nil {
		cfg.registry = cfg.registry.WithPolicy(*policyOf(rt.Policy))
	}
	return cfg
}

// policyOf is the Policy a manifest's keys describe.
func policyOf(p *manifest.Policy) *Policy {
	out := &Policy{FailureThreshold: p.FailureThreshold, SuccessThreshold: p.SuccessThreshold}
	if p.Retry != nil {
		out.Retry = *p.Retry
	}
	if p.HoldDown != nil {
		out.HoldDown = *p.HoldDown
	}
	return out
}

// probeFor makes the probe a manifest describes: a standard probe from its
// shorthand, or a module read from disk (through files, once for all the
// tools that name it), checked against its sha256 pin, then compiled;
// either with the CA file of its tls_ca, read now.
func (g *Gate) probeFor(ctx context.Context, name string, p *manifest.Probe, files *moduleFiles) (Prober, error) {
	cfg := ProbeConfig{Grants: p.Grants, Config: p.Config, Proxy: p.Proxy}
	if p.Budget != nil {
		cfg.Budget = *p.Budget
	}
	if p.TLSCA != "" {
		pool, err := host.LoadTLSCA(p.TLSCA)
		if err != nil {
			return nil, &probeKeyError{key: "tls_ca", err: fmt.Errorf("tls_ca: %w", err)}
		}
		cfg.TLSRootCAs = pool
	}
	if p.Standard != "" {
		return g.engine.StandardProbe(ctx, name, p.Standard, cfg)
	}
	f := files.read(p.Module)
	if f.err != nil {
		return nil, f.err
	}
	if p.SHA256 != "" && f.sum != p.SHA256 {
		return nil, fmt.Errorf("%s has sha256 %s, but the manifest pins %s: refusing to load it", p.Module, f.sum, p.SHA256)
	}
	m, err := f.compile(ctx, g.engine)
	if err != nil {
		return nil, err
	}
	return g.engine.NewProbe(ctx, name, m, cfg)
}

// moduleFiles are the module files one manifest's tools name, each read,
// hashed and compiled once however many tools name it: per tool, those
// were most of what a module of the manifest's own cost to load.
type moduleFiles struct {
	g      *Gate
	mu     sync.Mutex
	byPath map[string]*moduleFile
}

// moduleFile is one module file: read and hashed by the first tool that
// names it, and compiled by the first whose sha256 pin it matches (a file
// that matches no pin is never compiled).
type moduleFile struct {
	path     string
	readOnce sync.Once
	wasm     []byte
	sum      string // the file's SHA-256, in hex
	err      error

	compileOnce sync.Once
	mod         *Module
	compileErr  error
}

// read returns the module file at path, read and hashed.
func (fs *moduleFiles) read(path string) *moduleFile {
	fs.mu.Lock()
	f := fs.byPath[path]
	if f == nil {
		f = &moduleFile{path: path}
		fs.byPath[path] = f
	}
	fs.mu.Unlock()
	f.readOnce.Do(func() {
		f.wasm, f.err = safefile.Read(path, int64(fs.g.engine.cfg.maxModule))
		if f.err == nil {
			sum := sha256.Sum256(f.wasm)
			f.sum = hex.EncodeToString(sum[:])
		}
	})
	return f
}

// compile returns the file's module, compiling it first if no tool has.
func (f *moduleFile) compile(ctx context.Context, e *Engine) (*Module, error) {
	f.compileOnce.Do(func() {
		f.mod, f.compileErr = e.Compile(ctx, f.path, f.wasm)
		f.wasm = nil // compiled once: the bytes are not needed again
		if f.mod == nil && f.compileErr == nil {
			f.compileErr = errors.New("module not compiled")
		}
	})
	return f.mod, f.compileErr
}

// probeKeyError is a probe's error that belongs to one of its keys, which
// the manifest error then names ("tools[0].probe.tls_ca").
type probeKeyError struct {
	key string
	err error
}

func (e *probeKeyError) Error() string { return e.err.Error() }
func (e *probeKeyError) Unwrap() error { return e.err }

// Engine returns the probe engine.
func (g *Gate) Engine() *Engine { return g.engine }

// Tools returns the tool registry.
func (g *Gate) Tools() *Registry { return g.tools }

// Servers returns the server registry (MCP servers and the like, which
// skills may require).
func (g *Gate) Servers() *Registry { return g.servers }

// OnChange calls fn whenever a tool or server of the Gate flips, as
// Registry.Subscribe does (one call at a time; fn must be quick and must
// not subscribe or unsubscribe): a host app rebuilds its tool list, or
// tells a running model, at once, without reading.
//
// A flip is noticed when a probe runs, so while the Gate has a
// subscriber it re-probes in the background, as Service.Run does: the
// first subscriber starts a refresh that every tick (a tenth of the TTL,
// between 50 ms and 1 s: 1 s at the default TTL of 30 s) probes, all at
// once, the tools and servers not answered yet and those whose answers
// are about to expire (see Registry.RefreshDue). Reads (AvailableTools,
// Schema) go on serving cached answers, which the refresh keeps from
// expiring. The first answer about a tool is not a change: read
// AvailableTools for the starting point.
//
// The returned function unsubscribes; when the last subscriber has, the
// refresh stops, and the function returns once the round under way, if
// any, has finished (each probe within its budget), so that nothing
// probes in the background afterwards. Close stops the refresh too. A
// Gate whose registries are set WithBackgroundRefresh is refreshed by
// whoever calls RefreshDue (a Service's Gate by Service.Run), and
// OnChange starts nothing there.
func (g *Gate) OnChange(fn func(Change)) (unsubscribe func()) {
	return g.onChange(fn, false)
}

// onChange is OnChange, and with pending set fn also hears of answers
// that a tool's policy held back (Change.Pending).
func (g *Gate) onChange(fn func(Change), pending bool) (unsubscribe func()) {
	t := g.tools.subscribe(fn, pending)
	s := g.servers.subscribe(fn, pending)
	g.changes.hold()
	var once sync.Once
	return func() {
		once.Do(func() {
			t()
			s()
			g.changes.release()
		})
	}
}

// AvailableTools returns the tools a model may be offered now (see
// Registry.ListAvailable).
func (g *Gate) AvailableTools(ctx context.Context) []Tool {
	return g.tools.ListAvailable(ctx)
}

// Schema renders the available tools in the shape a model API expects.
func (g *Gate) Schema(ctx context.Context, format schema.Format) ([]byte, error) {
	tools := g.tools.ListAvailable(ctx)
	out := make([]schema.Tool, len(tools))
	for i, t := range tools {
		out[i] = schema.Tool{Name: t.Name, Description: t.Description, Parameters: t.Parameters}
	}
	return schema.JSON(format, out)
}

// Close stops the background refresh of OnChange and the rescan of the
// skill files, if they run, and releases the engine and every probe.
func (g *Gate) Close(ctx context.Context) error {
	return errors.Join(g.changes.close(ctx), g.closeSkills(ctx), g.engine.Close(ctx))
}
