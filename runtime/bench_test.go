package runtime

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gate-dev/gate/internal/manifest"
	"github.com/gate-dev/gate/internal/probes"
	"github.com/gate-dev/gate/internal/testnet"
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
				compileOnce(b, NewEngineConfig().WithCacheDir(""), mod.wasm)
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
// read every schema build does. PraisonAI's tool registry lists 1,000
// cached tools in about 107 µs (107 ns a tool) on this class of machine.
func BenchmarkListAvailable(b *testing.B) {
	for _, n := range []int{10, 1000, 10000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			r := newRegistry(newRegistryConfig())
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
		r := newRegistry(newRegistryConfig())
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

// BenchmarkColdList is a cold first listing in process: tools probed by
// the standard env probe, half of them available, each read from an
// empty cache (a new registry with the same probes), so every probe runs
// once. The anchor, measured in the same run, is a Python model of
// PraisonAI's tool registry doing the same job (scripts/anchors/pymodel.py
// --cold-ns: the same lambdas' registry with its cache cleared); "native"
// is the same listing with Go probes (os.LookupEnv), the floor of the
// registry's own work. Goal: under 1 µs a tool with the WebAssembly
// probes.
func BenchmarkColdList(b *testing.B) {
	const n = 1000
	for i := range n {
		if i%2 == 0 {
			b.Setenv(fmt.Sprint("GATE_BENCH_", i), "x")
		}
	}
	pyNs := pythonColdNs(b, n)
	ctx := context.Background()
	e := newEngine(b, NewEngineConfig())
	for _, kind := range []string{"wasm", "native"} {
		b.Run(kind, func(b *testing.B) {
			tools := make([]Tool, n)
			for i := range tools {
				name, v := fmt.Sprint("tool_", i), fmt.Sprint("GATE_BENCH_", i)
				var p Prober
				if kind == "native" {
					p = NewNativeProbe(0, func(context.Context) (bool, string, error) {
						_, ok := os.LookupEnv(v)
						return ok, v + " missing", nil
					})
				} else {
					var err error
					if p, err = e.StandardProbe(ctx, name, "env:"+v, ProbeConfig{}); err != nil {
						b.Fatal(err)
					}
				}
				tools[i] = Tool{Name: name, Probe: p}
			}
			b.ReportAllocs()
			for b.Loop() {
				b.StopTimer()
				r := newRegistry(newRegistryConfig())
				for _, t := range tools {
					if err := r.Register(t, false); err != nil {
						b.Fatal(err)
					}
				}
				b.StartTimer()
				if got := len(r.ListAvailable(ctx)); got != n/2 {
					b.Fatalf("%d of %d available, want %d", got, n, n/2)
				}
			}
			perTool := float64(b.Elapsed().Nanoseconds()) / float64(b.N) / n
			b.ReportMetric(perTool, "ns/tool")
			if pyNs > 0 {
				b.ReportMetric(pyNs, "python-ns/tool")
				b.ReportMetric(perTool/pyNs, "x-python")
			}
		})
	}
}

// pythonColdNs runs the Python anchor's cold listing of n tools in
// process and returns its nanoseconds a tool (the best of 50 listings).
func pythonColdNs(b *testing.B, n int) float64 {
	b.Helper()
	out, err := exec.Command("python3", "../scripts/anchors/pymodel.py", fmt.Sprint(n), "--cold-ns").Output()
	if err != nil {
		b.Fatalf("python3 anchor: %v", err)
	}
	ns, err := strconv.ParseFloat(strings.TrimSpace(string(out)), 64)
	if err != nil {
		b.Fatalf("python3 anchor printed %q: %v", out, err)
	}
	return ns
}

// BenchmarkOpenManifest opens a parsed manifest of 10,000 env-probed tools
// (probes made, nothing run) and closes it: the part of a cold start
// between parsing and the first probe run.
func BenchmarkOpenManifest(b *testing.B) {
	const n = 10_000
	var src strings.Builder
	for i := range n {
		fmt.Fprintf(&src, "[[tools]]\nname = \"t%d\"\ndescription = \"Tool %d.\"\nprobe = \"env:GATE_BENCH_%d\"\n", i, i, i)
	}
	m, err := manifest.Parse("gate.toml", []byte(src.String()))
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		g, err := openManifest(ctx, m, NewGateConfig())
		if err != nil {
			b.Fatal(err)
		}
		if err := g.Close(ctx); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/n, "ns/tool")
}
