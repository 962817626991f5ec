package meter

import (
	"crypto/sha256"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// buildCProbe compiles testdata/cprobe with clang if it is installed, and
// otherwise returns nil.
func buildCProbe(t testing.TB) []byte {
	t.Helper()
	clang, err := exec.LookPath("clang")
	if err != nil {
		return nil
	}
	out := filepath.Join(t.TempDir(), "cprobe.wasm")
	cmd := exec.Command(clang, "--target=wasm32", "-nostdlib", "-O2", "-mbulk-memory",
		"-Wl,--no-entry", "-Wl,--export-all", "-o", out, filepath.Join("testdata", "cprobe", "cprobe.c"))
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("clang: %v\n%s", err, b)
	}
	b, err := os.ReadFile(out)
	require.NoError(t, err)
	return b
}

// buildGoProbe compiles testdata/goprobe for GOOS=wasip1 as a reactor.
func buildGoProbe(t testing.TB) []byte {
	t.Helper()
	out := filepath.Join(t.TempDir(), "goprobe.wasm")
	cmd := exec.Command("go", "build", "-buildmode=c-shared", "-o", out, "./testdata/goprobe")
	cmd.Env = append(os.Environ(), "GOOS=wasip1", "GOARCH=wasm")
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, b)
	}
	b, err := os.ReadFile(out)
	require.NoError(t, err)
	return b
}

func TestCProbe(t *testing.T) {
	variants := map[string][]byte{"committed": readTestdata(t, "cprobe.wasm")}
	if b := buildCProbe(t); b != nil {
		variants["fresh"] = b
	}
	for name, orig := range variants {
		for _, o := range optionSets {
			t.Run(name+"/"+o.name, func(t *testing.T) {
				testCProbe(t, orig, mustInstrumentWith(t, orig, o.opts))
			})
		}
	}
}

func testCProbe(t *testing.T, orig, instr []byte) {
	for _, call := range []struct {
		fn  string
		arg uint64
	}{{"probe", 0}, {"probe", 5000}, {"fib", 25}, {"apply", 7}} {
		var h0, h1 host
		args := []uint64{call.arg}
		if call.fn == "apply" {
			args = append(args, 20)
		}
		want, err := h0.call(t, orig, call.fn, args...)
		require.NoError(t, err)
		got, err := h1.call(t, instr, call.fn, args...)
		require.NoError(t, err)
		assert.Equal(t, want, got, "%s(%d)", call.fn, call.arg)
	}
	// fib(30) is 1.6M calls: refuel must run.
	var h host
	_, err := h.call(t, instr, "fib", 30)
	require.NoError(t, err)
	assert.Greater(t, h.refuels.Load(), int64(10))
}

func TestGoProbe(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a Go program for wasip1")
	}
	orig := buildGoProbe(t)
	// Only the engine's options: compiling a 2 MB Go guest takes many
	// seconds under the race detector, and the fuel-only rewrite of the same
	// code paths is covered by the smaller modules.
	engine := mustInstrumentWith(t, orig, engineOptions)

	data := make([]byte, 4096)
	for i := range data {
		data[i] = byte(i * 7)
	}
	sum := sha256.Sum256(data)
	want := []uint64{uint64(sum[3])}

	// want is computed natively, so the original module need not run.
	for name, b := range map[string][]byte{"engine": engine} {
		t.Run(name, func(t *testing.T) {
			var h host
			mod := h.instantiate(t, b, "_initialize")
			got, err := mod.ExportedFunction("probe").Call(ctx)
			require.NoError(t, err)
			assert.Equal(t, want, got)
			assert.Greater(t, h.refuels.Load(), int64(0))
			assert.Zero(t, h.traps.Load())
		})
	}

	// The instrumented Go guest stops when refuel panics.
	// The Go runtime's initialisation alone takes dozens of quanta.
	for _, b := range [][]byte{engine} {
		var h host
		mod := h.instantiate(t, b, "_initialize")
		h.stopAt = h.refuels.Load() + 3
		_, err := mod.ExportedFunction("sha1mib").Call(ctx)
		assert.True(t, errors.Is(err, errStop), "error: %v", err)
	}
}
