package meter

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
)

// benchRun instantiates wasm once in a runtime built from cfg (with the host
// modules) and returns its export fn.
func benchRun(b *testing.B, cfg wazero.RuntimeConfig, wasm []byte, fn string, reactor bool) api.Function {
	b.Helper()
	var h host
	rt := h.newRuntime(b, cfg)
	mc := wazero.NewModuleConfig().WithName("")
	if reactor {
		mc = mc.WithStartFunctions("_initialize")
	}
	mod, err := rt.InstantiateWithConfig(ctx, wasm, mc)
	require.NoError(b, err)
	f := mod.ExportedFunction(fn)
	require.NotNil(b, f)
	return f
}

// BenchmarkSpin runs a tight loop of 50M iterations (loops.wasm "spin"):
// uninstrumented with no deadline checks, instrumented, and uninstrumented
// with wazero's WithCloseOnContextDone and a context with a deadline.
func BenchmarkSpin(b *testing.B) {
	const n = 50_000_000
	orig := readTestdata(b, "loops.wasm")
	instr := mustInstrument(b, orig)
	cases := []struct {
		name    string
		cfg     wazero.RuntimeConfig
		wasm    []byte
		timeout bool
	}{
		{"plain", runtimeConfig(), orig, false},
		{"metered", runtimeConfig(), instr, false},
		{"close-on-context-done", runtimeConfig().WithCloseOnContextDone(true), orig, true},
	}
	for _, tc := range cases {
		b.Run(tc.name, func(b *testing.B) {
			f := benchRun(b, tc.cfg, tc.wasm, "spin", false)
			callCtx := ctx
			if tc.timeout {
				var cancel context.CancelFunc
				callCtx, cancel = context.WithTimeout(ctx, time.Hour)
				defer cancel()
			}
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if _, err := f.Call(callCtx, n); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkGoSHA256 hashes 1 MiB in the Go guest, before and after
// instrumentation: metering only, and with the engine's options (stack
// count, table and memory caps).
func BenchmarkGoSHA256(b *testing.B) {
	orig := buildGoProbe(b)
	instr := mustInstrument(b, orig)
	engine := mustInstrumentWith(b, orig, engineOptions)
	for _, tc := range []struct {
		name string
		wasm []byte
	}{{"plain", orig}, {"metered", instr}, {"engine", engine}} {
		b.Run(tc.name, func(b *testing.B) {
			f := benchRun(b, runtimeConfig(), tc.wasm, "sha1mib", true)
			b.SetBytes(1 << 20)
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if _, err := f.Call(ctx); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkInstrument measures the rewrite itself on the Go guest (~2.4 MB).
func BenchmarkInstrument(b *testing.B) {
	orig := buildGoProbe(b)
	b.SetBytes(int64(len(orig)))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := Instrument(orig, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkFill16MiB runs one memory.fill of 16 MiB (bulkops.wasm "fill")
// per iteration, over memory already faulted in: wazero's own, and the
// chunked gate.fill helper, which checks the fuel every 512 KiB.
func BenchmarkFill16MiB(b *testing.B) {
	orig := readTestdata(b, "bulkops.wasm")
	for _, tc := range []struct {
		name string
		wasm []byte
	}{{"plain", orig}, {"metered", mustInstrument(b, orig)}, {"engine", mustInstrumentWith(b, orig, engineOptions)}} {
		b.Run(tc.name, func(b *testing.B) {
			var h host
			rt := h.newRuntime(b, runtimeConfig())
			mod, err := rt.InstantiateWithConfig(ctx, tc.wasm, wazero.NewModuleConfig().WithName(""))
			require.NoError(b, err)
			_, err = mod.ExportedFunction("grow").Call(ctx, 256)
			require.NoError(b, err)
			fill := mod.ExportedFunction("fill")
			b.SetBytes(16 << 20)
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if _, err := fill.Call(ctx, 0, uint64(i), 16<<20); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
