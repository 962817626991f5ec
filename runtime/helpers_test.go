package runtime

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// slack is how long after its budget a run may answer, beyond what the
// machine's scheduler imposes on everyone (see noise_test.go). It covers
// the gap between two metering checks (well under a millisecond of guest
// work), unwinding the guest and the race detector; a guest that escaped
// the budget would overshoot by seconds, not milliseconds.
const slack = 20 * time.Millisecond

// testCompileTimeout is the compile timeout of the tests' engines that
// leave gate's default: that default bounds a compile on the machine gate
// serves from, and a test machine under -race and busy loops can take
// longer to compile the Go probe, no fault of the module's or gate's.
// The tests of the timeout set their own.
const testCompileTimeout = 10 * time.Minute

func newEngine(t testing.TB, cfg EngineConfig) *Engine {
	t.Helper()
	if cfg.compileTimeout == defaultCompileTimeout {
		cfg = cfg.WithCompileTimeout(testCompileTimeout)
	}
	e, err := NewEngine(context.Background(), cfg)
	require.NoError(t, err)
	t.Cleanup(func() { e.Close(context.Background()) })
	return e
}

func hostilePath(name string) string {
	return filepath.Join("testdata", "hostile", name+".wasm")
}

func hostileModule(t testing.TB, e *Engine, name string) *Module {
	t.Helper()
	m, err := e.CompileFile(context.Background(), hostilePath(name))
	require.NoError(t, err)
	return m
}

func hostileProbe(t testing.TB, e *Engine, name string, cfg ProbeConfig) *Probe {
	t.Helper()
	p, err := e.NewProbe(context.Background(), name, hostileModule(t, e, name), cfg)
	require.NoError(t, err)
	return p
}

// envMap is an environment for WithLookupEnv, so tests set variables
// without touching the process's.
func envMap(kv map[string]string) func(string) (string, bool) {
	return func(k string) (string, bool) {
		v, ok := kv[k]
		return v, ok
	}
}

// assertHealthy runs a trivial probe to show the engine still works after
// whatever a hostile probe did to it.
func assertHealthy(t *testing.T, e *Engine) {
	t.Helper()
	p, err := e.StandardProbe(context.Background(), "health", "env:GATE_HEALTH", ProbeConfig{})
	require.NoError(t, err)
	res := p.Run(context.Background())
	require.NotEqual(t, Failed, res.Outcome, "engine broken after a hostile probe: %v", res.Err)
}

func readFile(t testing.TB, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	return b
}

// withRegistry sets the registries' whole configuration, as a test built
// one with newRegistryConfig.
func (c GateConfig) withRegistry(r registryConfig) GateConfig { c.registry = r; return c }
