package runtime

import (
	"context"
	"fmt"

	"github.com/gate-dev/gate/hostfuncs"
	"github.com/gate-dev/gate/probes"
)

// StandardProbe makes a probe named name from a standard-probe shorthand:
// "env:SERP_API_KEY" (also "env:A,B"), "tcp:127.0.0.1:6379" (also
// "tcp:unix:/var/run/docker.sock"), "import:py:psycopg2,bin:docker". The
// probe is granted exactly what the shorthand names, plus cfg.Grants (for
// callers that add grants of their own); cfg.Budget may lower its budget;
// the shorthand is its whole config, so cfg.Config must be empty. The
// standard modules are embedded in the binary, a little over 1 KB each,
// and compiled once per engine.
func (e *Engine) StandardProbe(ctx context.Context, name, shorthand string, cfg ProbeConfig) (*Probe, error) {
	sh, err := probes.ParseShorthand(shorthand)
	if err != nil {
		return nil, err
	}
	if len(cfg.Config) > 0 {
		return nil, fmt.Errorf("standard probe %q: its shorthand is its config; it takes no other", shorthand)
	}
	m, err := e.standardModule(ctx, sh.Kind)
	if err != nil {
		return nil, err
	}
	cfg.Grants = hostfuncs.Grants{Env: sh.Env, Dial: sh.Dial, Import: sh.Import, HTTP: sh.HTTP, Secrets: sh.Secrets}.Merge(cfg.Grants)
	cfg.Config = sh.Config
	return e.NewProbe(ctx, name, m, cfg)
}

// standardModule compiles the standard module of kind once per engine:
// going through Compile for each of 10,000 tools copied and hashed its
// bytes 10,000 times.
func (e *Engine) standardModule(ctx context.Context, kind probes.Kind) (*Module, error) {
	if m, ok := e.standard.Load(kind); ok {
		return m.(*Module), nil
	}
	wasm, ok := probes.Wasm(kind)
	if !ok {
		return nil, fmt.Errorf("standard probe %q is not embedded in this build", kind)
	}
	m, err := e.Compile(ctx, string(kind)+".wasm (standard)", wasm)
	if err != nil {
		return nil, err
	}
	e.standard.Store(kind, m)
	return m, nil
}
