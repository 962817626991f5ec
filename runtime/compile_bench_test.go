package runtime

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gate-dev/gate/internal/wasm"
)

// BenchmarkCompileCost measures what compiling a module costs in wall
// time and peak memory against its number of functions and the size of
// their bodies: the numbers behind inspect.MaxFunctions and processCompiles
// (docs/BENCHMARKS.md, "What a compile costs"). Each shape compiles in a process of its own, so
// that its peak resident memory (VmHWM) is its own. GATE_COMPILE_FILE
// measures a module file instead (go test -c, then run the child with
// it), GATE_COMPILE_COPIES that many distinct copies compiled at once.
func BenchmarkCompileCost(b *testing.B) {
	for _, shape := range [][2]int{
		{1 << 10, 0}, {1 << 12, 0}, {1 << 14, 0}, {1 << 15, 0}, {1 << 16, 0}, {1<<17 - 1, 0},
		{1 << 12, 1000}, {1 << 14, 250}, {1 << 10, 4000}, {1 << 13, 1000},
		{1<<17 - 1, 120}, {1 << 16, 250}, {1 << 14, 1000}, {1 << 11, 8000}, {32, 500_000},
	} {
		b.Run(fmt.Sprintf("functions=%d,bytes=%d", shape[0], shape[1]), func(b *testing.B) {
			for b.Loop() {
				cmd := exec.Command(os.Args[0], "-test.run=^TestCompileCostChild$")
				cmd.Env = append(os.Environ(), fmt.Sprintf("GATE_COMPILE_SHAPE=%d,%d", shape[0], shape[1]))
				out, err := cmd.CombinedOutput()
				if err != nil {
					b.Fatalf("%v: %s", err, out)
				}
				var secs, peakMB float64
				for _, l := range strings.Split(string(out), "\n") {
					if f := strings.Fields(l); len(f) == 3 && f[0] == "compile-cost" {
						secs, _ = strconv.ParseFloat(f[1], 64)
						peakMB, _ = strconv.ParseFloat(f[2], 64)
					}
				}
				b.ReportMetric(secs, "compile-s")
				b.ReportMetric(peakMB, "peak-MB")
			}
		})
	}
}

// TestCompileCostChild is BenchmarkCompileCost's child: it compiles the
// shape GATE_COMPILE_SHAPE names ("functions,bytes"; a small one without
// it, so that the plain test run checks the measurement works) and prints
// its wall time and the process's peak memory.
func TestCompileCostChild(t *testing.T) {
	shape := os.Getenv("GATE_COMPILE_SHAPE")
	if shape == "" {
		shape = "64,100"
	}
	var funcs, nops int
	if _, err := fmt.Sscanf(shape, "%d,%d", &funcs, &nops); err != nil {
		t.Fatal(err)
	}
	copies, _ := strconv.Atoi(os.Getenv("GATE_COMPILE_COPIES"))
	e := newEngine(t, NewEngineConfig())
	var modules [][]byte
	for i := range max(copies, 1) {
		b := genBodies(funcs, nops)
		if f := os.Getenv("GATE_COMPILE_FILE"); f != "" {
			b = readFile(t, f)
		}
		// Copies differ in one byte of a custom section, so that each is
		// compiled rather than found in the engine's table.
		modules = append(modules, wasm.AppendSection(b, wasm.SectionCustom, append(wasm.AppendName(nil, "copy"), byte(i))))
	}
	base := peakRSS(t)
	start := time.Now()
	var wg sync.WaitGroup
	for i, m := range modules {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := e.Compile(context.Background(), fmt.Sprint("shape", i, ".wasm"), m); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	if peakRSS(t) <= 0 {
		t.Fatal("no peak memory to report")
	}
	fmt.Printf("compile-cost %.3f %.1f\n", time.Since(start).Seconds(), float64(peakRSS(t)-base)/(1<<20))
}

// peakRSS is the process's peak resident memory in bytes.
func peakRSS(t *testing.T) int64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(string(b), "\n") {
		if f := strings.Fields(l); len(f) >= 2 && f[0] == "VmHWM:" {
			kb, _ := strconv.ParseInt(f[1], 10, 64)
			return kb << 10
		}
	}
	t.Fatal("no VmHWM in /proc/self/status")
	return 0
}

// genBodies builds a reactor of funcs functions () -> i32, the first
// exported as probe, each body about bodyBytes long of i32 additions whose
// results are dropped (work a compiler cannot skip reading, unlike nops).
func genBodies(funcs, bodyBytes int) []byte {
	body := []byte{0}
	for len(body)+6 <= bodyBytes {
		body = append(body, 0x41, 0, 0x41, 1, 0x6a, 0x1a) // i32.const 0; i32.const 1; i32.add; drop
	}
	body = append(body, 0x41, 0, 0x0b)
	bodies := make([][]byte, funcs)
	for i := range bodies {
		bodies[i] = body
	}
	return genReactor(0, bodies)
}
