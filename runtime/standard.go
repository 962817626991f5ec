package runtime

import (
	"context"
	"fmt"

	"github.com/gate-dev/gate/hostfuncs"
	"github.com/gate-dev/gate/internal/host"
	"github.com/gate-dev/gate/internal/probes"
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
	sh, pairs, err := probes.ParseShorthandPairs(shorthand)
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
	cfg.Grants = shorthandGrants(sh, cfg.Grants)
	return e.newProbe(ctx, name, m, cfg, host.ConfigFromPairs(pairs))
}

// shorthandGrants is what sh grants merged with extra (hostfuncs.Grants.Merge:
// each list sorted, without repeats). A shorthand whose lists are already so
// and extra, which grants nothing, are the merge as they are: no copy of
// them for each of 10,000 "env:NAME" tools.
func shorthandGrants(sh probes.Shorthand, extra hostfuncs.Grants) hostfuncs.Grants {
	g := hostfuncs.Grants{Env: sh.Env, Dial: sh.Dial, Import: sh.Import, HTTP: sh.HTTP, Secrets: sh.Secrets}
	if extra.IsZero() && len(g.Secrets) == 0 && merged(g.Env) && merged(g.Dial) && merged(g.Import) && merged(g.HTTP) {
		return g
	}
	return g.Merge(extra)
}

// merged reports whether list is as Merge leaves one: nil when empty, else
// sorted, without repeats and with no room to append into.
func merged(list []string) bool {
	if list == nil {
		return true
	}
	if len(list) == 0 || cap(list) != len(list) {
		return false
	}
	for i := 1; i < len(list); i++ {
		if list[i-1] >= list[i] {
			return false
		}
	}
	return true
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
