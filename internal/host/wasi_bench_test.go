package host

import (
	"context"
	"crypto/rand"
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/imports/wasi_snapshot_preview1"
)

// BenchmarkWASI measures one call through the WASI trampoline, against
// gate's WASI and, for comparison, wazero's (which it replaced): what the
// budget checks and chunking cost on the calls real toolchains make.
func BenchmarkWASI(b *testing.B) {
	calls := []struct {
		name  string
		setup func(g *wasiGuest)
		fn    string
		args  []uint64
	}{
		{"fd_write_16B", func(g *wasiGuest) { g.iovecs(b, 0, [2]uint32{100, 16}) }, "fd_write", []uint64{1, 0, 1, 64}},
		{"fd_write_1024x1B", func(g *wasiGuest) {
			vecs := make([][2]uint32, WASIMaxIOVecs)
			for i := range vecs {
				vecs[i] = [2]uint32{uint32(i), 1}
			}
			g.iovecs(b, 0, vecs...)
		}, "fd_write", []uint64{1, 0, WASIMaxIOVecs, 0x10000}},
		{"random_get_32B", nil, "random_get", []uint64{0, 32}},
		{"random_get_256KiB", nil, "random_get", []uint64{0, guestMemory}},
		{"clock_time_get", nil, "clock_time_get", []uint64{clockMonotonic, 0, 0}},
		{"poll_oneoff_due", func(g *wasiGuest) { g.subs(b, 0, clockSub(1, clockMonotonic, 0)) }, "poll_oneoff", []uint64{0, 0x8000, 1, 0xff00}},
		{"sched_yield", nil, "sched_yield", nil},
	}
	for _, impl := range []string{"gate", "wazero"} {
		g := benchGuest(b, impl)
		c := wasiCallState(b)
		c.Deadline = time.Now().Add(time.Hour)
		c.Output = io.Discard
		ctx := WithCall(context.Background(), c)
		for _, bc := range calls {
			if bc.setup != nil {
				bc.setup(g)
			}
			fn := g.mod.ExportedFunction(bc.fn)
			b.Run(impl+"/"+bc.name, func(b *testing.B) {
				for b.Loop() {
					if _, err := fn.Call(ctx, bc.args...); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

func benchGuest(b *testing.B, impl string) *wasiGuest {
	if impl == "gate" {
		return newWASIGuest(b)
	}
	ctx := context.Background()
	r := wazero.NewRuntimeWithConfig(ctx, wazero.NewRuntimeConfigCompiler())
	b.Cleanup(func() { r.Close(ctx) })
	wasi_snapshot_preview1.MustInstantiate(ctx, r)
	wasm, err := os.ReadFile(filepath.Join("testdata", "wasi_trampoline.wasm"))
	require.NoError(b, err)
	mod, err := r.InstantiateWithConfig(ctx, wasm, wazero.NewModuleConfig().WithName("").
		WithStdout(io.Discard).WithSysNanotime().WithRandSource(rand.Reader))
	require.NoError(b, err)
	return &wasiGuest{mod: mod}
}
