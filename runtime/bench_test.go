package runtime

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"testing"
	"time"

	"github.com/gate-dev/gate/internal/testnet"
	"github.com/gate-dev/gate/probes"
)

// BenchmarkEnvCheck asks one question, "is GATE_BENCH_VAR set and not
// empty?", four ways: a native Go function (the floor), the standard env
// probe on a reused instance and on a fresh one, and a fork/exec of
// /bin/sh -c 'test -n "$VAR"', which is how Kubernetes, Consul and Nagios
// run exec checks. docs/BENCHMARKS.md keeps the ratios.
func BenchmarkEnvCheck(b *testing.B) {
	b.Setenv("GATE_BENCH_VAR", "value")
	ctx := context.Background()

	b.Run("native", func(b *testing.B) {
		for b.Loop() {
			if os.Getenv("GATE_BENCH_VAR") == "" {
				b.Fatal("unset")
			}
		}
	})
	b.Run("wasm-reused", func(b *testing.B) {
		p := benchProbe(b, NewEngineConfig())
		for b.Loop() {
			if res := p.Run(ctx); res.Outcome != Available || res.Fresh {
				b.Fatalf("%v %v", res.Outcome, res.Fresh)
			}
		}
	})
	b.Run("wasm-fresh", func(b *testing.B) {
		// No idle memory: no instance is kept, so every run instantiates,
		// runs _initialize-free C code, answers and closes.
		p := benchProbe(b, NewEngineConfig().WithWarmup(false).WithIdleMemoryLimit(0))
		for b.Loop() {
			if res := p.Run(ctx); res.Outcome != Available || !res.Fresh {
				b.Fatalf("%v %v", res.Outcome, res.Fresh)
			}
		}
	})
	b.Run("fork-exec-sh", func(b *testing.B) {
		for b.Loop() {
			if err := exec.Command("/bin/sh", "-c", `test -n "$GATE_BENCH_VAR"`).Run(); err != nil {
				b.Fatal(err)
			}
		}
	})
}

func benchProbe(b *testing.B, cfg EngineConfig) *Probe {
	e := newEngine(b, cfg)
	p, err := e.StandardProbe(context.Background(), "bench", "env:GATE_BENCH_VAR", ProbeConfig{})
	if err != nil {
		b.Fatal(err)
	}
	return p
}

// BenchmarkCompile loads a module the way a new process does: a new engine
// compiles it, with no cache ("cold") or from a compilation cache that an
// earlier engine filled ("disk-cache"). The C probe is the standard env
// probe; the Go probe is probes/sdk/example, built for wasip1.
func BenchmarkCompile(b *testing.B) {
	ctx := context.Background()
	envWasm, _ := probes.Wasm(probes.Env)
	goWasm := buildGoWasm(b, "../probes/sdk/example")
	for _, mod := range []struct {
		name string
		wasm []byte
	}{{"c-env", envWasm}, {"go-sdk-example", goWasm}} {
		b.Run(mod.name+"/cold", func(b *testing.B) {
			for b.Loop() {
				compileOnce(b, NewEngineConfig(), mod.wasm)
			}
		})
		b.Run(mod.name+"/disk-cache", func(b *testing.B) {
			cfg := NewEngineConfig().WithCacheDir(b.TempDir())
			compileOnce(b, cfg, mod.wasm) // fill the cache
			for b.Loop() {
				compileOnce(b, cfg, mod.wasm)
			}
		})
	}
	_ = ctx
}

func compileOnce(b *testing.B, cfg EngineConfig, wasm []byte) {
	ctx := context.Background()
	e, err := NewEngine(ctx, cfg)
	if err != nil {
		b.Fatal(err)
	}
	if _, err := e.Compile(ctx, "bench", wasm); err != nil {
		b.Fatal(err)
	}
	e.Close(ctx)
}

// BenchmarkOverrun measures how late a busy guest is stopped: the
// overshoot past its budget, as percentiles over b.N runs (reported as
// metrics; ns/op is the run itself, about the budget).
func BenchmarkOverrun(b *testing.B) {
	for _, name := range []string{"loop_probe", "calltree"} {
		b.Run(name, func(b *testing.B) {
			e := newEngine(b, NewEngineConfig().WithBudget(20*time.Millisecond))
			p := hostileProbe(b, e, name, ProbeConfig{})
			var over []time.Duration
			for b.Loop() {
				res := p.Run(context.Background())
				over = append(over, res.Elapsed-20*time.Millisecond)
			}
			slices.Sort(over)
			b.ReportMetric(float64(over[len(over)/2].Microseconds()), "p50-overshoot-µs")
			b.ReportMetric(float64(over[len(over)*99/100].Microseconds()), "p99-overshoot-µs")
		})
	}
}

// BenchmarkListAvailable reads the available tools from a fresh cache, the
// read every schema build does. The original lists 1,000 cached tools in
// about 107 µs (107 ns a tool) on this class of machine.
func BenchmarkListAvailable(b *testing.B) {
	for _, n := range []int{10, 1000, 10000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			r := NewRegistry(NewRegistryConfig())
			for i := range n {
				// Every fourth tool is unavailable, so the list is filtered.
				p := NewNativeProbe(0, func(context.Context) (bool, string, error) { return i%4 != 0, "no", nil })
				if err := r.Register(Tool{Name: fmt.Sprint("tool", i), Probe: p}, false); err != nil {
					b.Fatal(err)
				}
			}
			ctx := context.Background()
			want := n - (n+3)/4
			if got := len(r.ListAvailable(ctx)); got != want { // probe once, fill the cache
				b.Fatalf("%d available, want %d", got, want)
			}
			b.ReportAllocs()
			for b.Loop() {
				if len(r.ListAvailable(ctx)) != want {
					b.Fatal("wrong count")
				}
			}
		})
	}
}

// BenchmarkColdCheck checks 1,000 tools whose probes are standard WASM
// probes (env, tcp to a loopback listener, import of a binary) from an
// empty cache: every probe runs once, all stale tools at once. It should
// cost a few budgets at most, not a thousand.
func BenchmarkColdCheck(b *testing.B) {
	b.Setenv("GATE_BENCH_VAR", "x")
	ctx := context.Background()
	e := newEngine(b, NewEngineConfig())
	l := testnet.Listen(b, "tcp", "127.0.0.1:0")
	kinds := []string{"env:GATE_BENCH_VAR", "tcp:" + l.Addr().String(), "import:bin:sh"}
	tools := make([]Tool, 1000)
	for i := range tools {
		p, err := e.StandardProbe(ctx, fmt.Sprint("tool", i), kinds[i%len(kinds)], ProbeConfig{})
		if err != nil {
			b.Fatal(err)
		}
		tools[i] = Tool{Name: fmt.Sprint("tool", i), Probe: p}
	}
	for b.Loop() {
		r := NewRegistry(NewRegistryConfig())
		for _, t := range tools {
			if err := r.Register(t, false); err != nil {
				b.Fatal(err)
			}
		}
		if got := len(r.ListAvailable(ctx)); got != len(tools) {
			b.Fatalf("%d of %d available", got, len(tools))
		}
	}
}
