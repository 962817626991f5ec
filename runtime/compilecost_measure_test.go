package runtime

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/tetratelabs/wazero"

	"github.com/gate-dev/gate/internal/costlywasm"
	"github.com/gate-dev/gate/internal/meter"
	"github.com/gate-dev/gate/internal/wasm"
)

// TestMeasureCompileCost measures what wazero's compiler, configured as
// the engine configures it, spends on the metered form of generated
// modules: the table of docs/BENCHMARKS.md. It is a tool, not a check:
//
//	GATE_MEASURE_COMPILE=seq:1000:5000:1,nested:300:2000:1 go test -run '^TestMeasureCompileCost$' -v ./runtime/
//
// Each shape is kind:locals:blocks:functions (costlywasm.Shape), compiled
// in a process of its own so that its CPU time and peak RSS are its own.
func TestMeasureCompileCost(t *testing.T) {
	if one := os.Getenv("GATE_MEASURE_ONE"); one != "" {
		compileShape(t, parseShape(t, one))
		return
	}
	spec := os.Getenv("GATE_MEASURE_COMPILE")
	if spec == "" {
		t.Skip("set GATE_MEASURE_COMPILE to the shapes to measure")
	}
	fmt.Println("| shape | functions | locals | blocks | bytes | FuncCost blocks | live span | walk | CPU s | peak RSS MB |")
	for _, one := range strings.Split(spec, ",") {
		s := parseShape(t, one)
		cmd := exec.Command(os.Args[0], "-test.run=^TestMeasureCompileCost$")
		cmd.Env = append(os.Environ(), "GATE_MEASURE_ONE="+one)
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, "%s", out)
		ru := cmd.ProcessState.SysUsage().(*syscall.Rusage)
		cpu := float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e9
		w := costlywasm.Module(s)
		m, err := wasm.Decode(w)
		require.NoError(t, err)
		c := m.FuncCost(0)
		fmt.Printf("| %s | %d | %d | %d | %d | %d | %d | %d | %.2f | %d |\n",
			s.Kind, max(1, s.Functions), s.Locals, s.Blocks, len(w), c.Blocks, c.LiveSpan, c.Walk, cpu, ru.Maxrss/1024)
	}
}

func parseShape(t *testing.T, spec string) costlywasm.Shape {
	f := strings.Split(spec, ":")
	require.Len(t, f, 4, "shape %q: want kind:locals:blocks:functions", spec)
	n := make([]int, 3)
	for i := range n {
		var err error
		n[i], err = strconv.Atoi(f[i+1])
		require.NoError(t, err, "shape %q", spec)
	}
	return costlywasm.Shape{Kind: f[0], Locals: n[0], Blocks: n[1], Functions: n[2]}
}

// compileShape compiles s's metered form as the engine would, without
// the load limits that would refuse it.
func compileShape(t *testing.T, s costlywasm.Shape) {
	metered, err := meter.Instrument(costlywasm.Module(s), meter.Options{
		MaxMemoryPages:   NewEngineConfig().memoryPages(),
		MaxStackSlots:    maxStack / meter.SlotBytes,
		MaxTableElements: maxTableElements,
	})
	require.NoError(t, err)
	ctx := context.Background()
	rt := wazero.NewRuntimeWithConfig(ctx, wazero.NewRuntimeConfig())
	defer rt.Close(ctx)
	_, err = rt.CompileModule(compileContext(ctx), metered)
	require.NoError(t, err)
}
