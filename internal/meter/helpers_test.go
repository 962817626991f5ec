package meter

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
	"github.com/tetratelabs/wazero/imports/wasi_snapshot_preview1"
)

//go:generate sh testdata/build.sh

var ctx = context.Background()

// runtimeConfig is how gate runs probes: the optimising compiler and the
// core 2.0 features.
func runtimeConfig() wazero.RuntimeConfig {
	return wazero.NewRuntimeConfigCompiler().WithCoreFeatures(api.CoreFeaturesV2).WithCompilationCache(compiled)
}

// compiled is shared by every test runtime, so a module compiled by one
// test is not compiled again by the next: a Go guest takes seconds to
// compile under the race detector.
var compiled = wazero.NewCompilationCache()

// errStop is what a test refuel panics with to stop the guest.
var errStop = errors.New("probe deadline exceeded")

// trapError is what the test trap import panics with.
type trapError struct{ code int32 }

func (e trapError) Error() string { return "probe stopped: " + TrapReason(e.code) }

// engineOptions are the options gate's engine passes (its memory cap
// depends on its configuration; 32 MiB here).
var engineOptions = Options{MaxMemoryPages: 512, MaxStackSlots: 1 << 18, MaxTableElements: 1 << 20}

// host is the host side of a test run: gate.internal.refuel, counting its
// calls and optionally panicking on the stopAt'th, gate.internal.trap,
// counting its calls and panicking with a trapError, and env.add for modules
// that import a function.
type host struct {
	refuels atomic.Int64
	stopAt  int64
	traps   atomic.Int64
	// trapReturns makes trap return instead of panicking, as a host must not.
	trapReturns bool
}

// newRuntime returns a runtime (closed at the end of the test) with the host
// modules and WASI instantiated.
func (h *host) newRuntime(t testing.TB, cfg wazero.RuntimeConfig) wazero.Runtime {
	t.Helper()
	rt := wazero.NewRuntimeWithConfig(ctx, cfg)
	t.Cleanup(func() { rt.Close(ctx) })
	_, err := rt.NewHostModuleBuilder(ImportModule).NewFunctionBuilder().
		WithFunc(func(context.Context) int32 {
			if n := h.refuels.Add(1); h.stopAt > 0 && n >= h.stopAt {
				panic(errStop)
			}
			return Quantum
		}).Export(ImportName).
		NewFunctionBuilder().
		WithFunc(func(_ context.Context, code int32) {
			h.traps.Add(1)
			if !h.trapReturns {
				panic(trapError{code})
			}
		}).Export(TrapName).
		Instantiate(ctx)
	require.NoError(t, err)
	_, err = rt.NewHostModuleBuilder("env").NewFunctionBuilder().
		WithFunc(func(_ context.Context, a, b int32) int32 { return a + b }).Export("add").
		Instantiate(ctx)
	require.NoError(t, err)
	wasi_snapshot_preview1.MustInstantiate(ctx, rt)
	return rt
}

// instantiate compiles and instantiates wasm (calling start or, for
// reactors, _initialize).
func (h *host) instantiate(t testing.TB, wasm []byte, startFuncs ...string) api.Module {
	t.Helper()
	rt := h.newRuntime(t, runtimeConfig())
	cfg := wazero.NewModuleConfig().WithName("")
	if len(startFuncs) > 0 {
		cfg = cfg.WithStartFunctions(startFuncs...)
	}
	mod, err := rt.InstantiateWithConfig(ctx, wasm, cfg)
	require.NoError(t, err)
	return mod
}

// call runs one export in a fresh instance of wasm.
func (h *host) call(t testing.TB, wasm []byte, fn string, args ...uint64) ([]uint64, error) {
	t.Helper()
	mod := h.instantiate(t, wasm)
	f := mod.ExportedFunction(fn)
	require.NotNil(t, f, "no export %q", fn)
	return f.Call(ctx, args...)
}

func readTestdata(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	require.NoError(t, err)
	return b
}

func mustInstrument(t testing.TB, wasm []byte) []byte {
	t.Helper()
	return mustInstrumentWith(t, wasm, Options{})
}

func mustInstrumentWith(t testing.TB, wasm []byte, opts Options) []byte {
	t.Helper()
	out, err := Instrument(wasm, opts)
	require.NoError(t, err)
	return out
}

// optionSets are the options the semantic tests run with: metering only,
// and everything the engine turns on.
var optionSets = []struct {
	name string
	opts Options
}{
	{"fuel", Options{}},
	{"engine", engineOptions},
}
