package runtime

import (
	"context"
	"github.com/gate-dev/gate/internal/inspect"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gate-dev/gate/internal/costlywasm"
	"github.com/gate-dev/gate/internal/wasm"
)

// honestMargin is how far under every compile cost limit a real probe
// must stay: the limits leave room for probes much larger than gate's.
const honestMargin = 0.25

// TestHonestProbesUnderCompileCost walks every WebAssembly module of the
// repository (the standard probes, the examples, the toolchain-built test
// probes) and the Go-built test probes, and reports how close each comes
// to the compile cost limits. GATE_COMPILE_COST_EXTRA adds files (comma
// separated), such as the large Go probe docs/BENCHMARKS.md measures.
func TestHonestProbesUnderCompileCost(t *testing.T) {
	modules := map[string][]byte{}
	err := filepath.WalkDir("..", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == "node_modules" {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(path, ".wasm") {
			b, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			modules[path] = b
		}
		return nil
	})
	require.NoError(t, err)
	require.Greater(t, len(modules), 20)
	modules["goprobe (Go build)"] = buildGoWasm(t, "./testdata/goprobe")
	modules["sdk example (Go build)"] = buildGoWasm(t, "../probes/sdk/example")
	if extra := os.Getenv("GATE_COMPILE_COST_EXTRA"); extra != "" {
		for _, path := range strings.Split(extra, ",") {
			b, err := os.ReadFile(path)
			require.NoError(t, err)
			modules[path] = b
		}
	}

	worst, worstAt := 0.0, ""
	for name, b := range modules {
		m, err := wasm.Decode(b)
		if err != nil {
			continue // the corpus's files that are not modules on purpose
		}
		for _, l := range inspect.MeasureCompileCost(m).Limits {
			if r := l.Ratio(); r > worst {
				worst, worstAt = r, name+": "+strings.Replace(l.What, "%d", "", 1)
			}
			assert.LessOrEqual(t, l.Ratio(), honestMargin, "%s: %s", name, l.What)
		}
	}
	t.Logf("highest compile cost of %d modules: %.3f of a limit (%s)", len(modules), worst, worstAt)
}

// loadWithin compiles wasm on e, failing the test rather than hanging if
// the load takes longer than guard (a bound many times what the limit
// check needs: the test is about what is refused, not how fast).
func loadWithin(t *testing.T, e *Engine, name string, wasm []byte, guard time.Duration) (*Module, error) {
	t.Helper()
	type result struct {
		m   *Module
		err error
	}
	done := make(chan result, 1)
	go func() {
		m, err := e.Compile(context.Background(), name, wasm)
		done <- result{m, err}
	}()
	select {
	case r := <-done:
		return r.m, r.err
	case <-time.After(guard):
		t.Fatalf("loading %s took over %s: it was compiled, not refused", name, guard)
		return nil, nil
	}
}

// TestCompileCostRefusesHostileShapes: modules a few tens of KB that
// would take wazero's compiler seconds to minutes and hundreds of MB to
// GB are refused at load, before any compile, with an error that names
// the module, the function, the limit and how far over it they are.
func TestCompileCostRefusesHostileShapes(t *testing.T) {
	tests := []struct {
		name  string
		shape costlywasm.Shape
		want  string
	}{
		// The report's module: 1,000 locals, 5,000 blocks left early.
		{"locals x blocks", costlywasm.Shape{Kind: "seq", Locals: 1000, Blocks: 5000}, "function 0 has a live span"},
		{"deep nesting", costlywasm.Shape{Kind: "nested", Locals: 1000, Blocks: 2000}, "function 0 has a live span"},
		{"many loops", costlywasm.Shape{Kind: "loops", Locals: 4, Blocks: 8000}, "function 0 has loops × blocks"},
		{"wide br_table", costlywasm.Shape{Kind: "brtable", Locals: 1000, Blocks: 2000}, "function 0 has a live span"},
		{"one block, many exits", costlywasm.Shape{Kind: "brifs", Locals: 10, Blocks: 16000}, "function 0 has a walk"},
		{"long chain", costlywasm.Shape{Kind: "seq", Locals: 2, Blocks: 20000}, "function 0 has 40001 blocks and branches"},
		{"many moderate functions", costlywasm.Shape{Kind: "seq", Locals: 60, Blocks: 2000, Functions: 300}, "its functions together have a live span"},
	}
	e := newEngine(t, NewEngineConfig())
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			name := tt.name + ".wasm"
			_, err := loadWithin(t, e, name, costlywasm.Module(tt.shape), 2*time.Minute)
			var le *LoadError
			require.ErrorAs(t, err, &le)
			assert.Equal(t, name, le.Module)
			assert.Contains(t, err.Error(), tt.want)
			assert.Contains(t, err.Error(), "over the compile cost limit")
			assert.Contains(t, err.Error(), "× the limit")
		})
	}
}

// TestCompileCostJustUnderLoads: a module of each costly shape just
// under the limits still loads.
func TestCompileCostJustUnderLoads(t *testing.T) {
	e := newEngine(t, NewEngineConfig())
	for _, s := range []costlywasm.Shape{
		{Kind: "brtable", Locals: 100, Blocks: 800},
		{Kind: "seq", Locals: 100, Blocks: 1300},
		{Kind: "brifs", Locals: 300, Blocks: 600},
	} {
		w := costlywasm.Module(s)
		m, err := wasm.Decode(w)
		require.NoError(t, err)
		for _, l := range inspect.MeasureCompileCost(m).Limits {
			require.LessOrEqual(t, l.Ratio(), 1.0, "%+v: %s", s, l.What)
		}
		mod, err := loadWithin(t, e, s.Kind+".wasm", w, 5*time.Minute)
		require.NoError(t, err, "%+v", s)
		assert.Equal(t, inspect.Reactor, mod.entry)
	}
}

// TestCompileTimeoutStopsCompile: a module whose functions are each
// within the compile cost limits but together take seconds to compile is
// stopped at the compile timeout, between two functions, and refused;
// the engine compiles the next module as usual.
func TestCompileTimeoutStopsCompile(t *testing.T) {
	e := newEngine(t, NewEngineConfig().WithCompileTimeout(50*time.Millisecond))
	many := costlywasm.Module(costlywasm.Shape{Kind: "seq", Locals: 100, Blocks: 1000, Functions: 40})
	m, err := wasm.Decode(many)
	require.NoError(t, err)
	for _, l := range inspect.MeasureCompileCost(m).Limits {
		require.LessOrEqual(t, l.Ratio(), 1.0, l.What)
	}

	_, err = loadWithin(t, e, "many.wasm", many, 2*time.Minute)
	var le *LoadError
	require.ErrorAs(t, err, &le)
	assert.Equal(t, "many.wasm", le.Module)
	assert.Contains(t, err.Error(), "stopped after the compile timeout of 50ms")

	_, err = loadWithin(t, e, "small.wasm", costlywasm.Module(costlywasm.Shape{Kind: "seq", Locals: 2, Blocks: 2}), 2*time.Minute)
	require.NoError(t, err)

	_, err = NewEngine(context.Background(), NewEngineConfig().WithCompileTimeout(0))
	assert.ErrorContains(t, err, "compile timeout 0s: want more than zero")
}
