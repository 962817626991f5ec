package runtime

import (
	"context"
	"crypto/tls"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/gate-dev/gate/internal/manifest"
	"github.com/gate-dev/gate/internal/probes"
	"github.com/gate-dev/gate/internal/testsvc"
)

// BenchmarkHonestPaths runs the honest paths that the secrets handling,
// the host's own TLS verification, the waits accounting and the compile
// cost check all lie on, through the public API only, so that the same
// file measures the code before those changes and after them
// (scripts/anchors/honest.sh alternates the two; docs/BENCHMARKS.md keeps
// the ratios):
//
//   - env/fresh, env/reused: the standard env probe on a new instance
//     every run, and on a kept one;
//   - redis/auth: the standard redis probe sending AUTH with a
//     ${secret:NAME} password to a Redis that requires it, then PING;
//   - https/bearer: the standard http probe sending "Authorization:
//     Bearer ${secret:NAME}" to a loopback HTTPS API that checks it, its
//     chain verified against the test CA given as ProbeConfig.TLSRootCAs;
//   - compile/quickstart: a new engine (no compilation cache) compiling
//     every module examples/quickstart/gate.toml uses, as a gatectl
//     process opening it does.
func BenchmarkHonestPaths(b *testing.B) {
	b.Setenv("GATE_BENCH_VAR", "value")
	ctx := context.Background()
	run := func(b *testing.B, p *Probe, fresh bool) {
		b.Helper()
		b.ReportAllocs()
		for b.Loop() {
			if res := p.Run(ctx); res.Outcome != Available || res.Fresh != fresh {
				b.Fatalf("%v (fresh %v): %s", res.Outcome, res.Fresh, res.Reason)
			}
		}
	}

	b.Run("env/fresh", func(b *testing.B) {
		run(b, benchProbe(b, NewEngineConfig().WithWarmup(false).WithIdleMemoryLimit(0)), true)
	})
	b.Run("env/reused", func(b *testing.B) {
		run(b, benchProbe(b, NewEngineConfig()), false)
	})

	const password, token = "bench-redis-password", "bench-api-token"
	secrets := map[string]string{"REDIS_PW": password, "API_TOKEN": token}
	lookup := func(k string) (string, bool) {
		if v, ok := secrets[k]; ok {
			return v, true
		}
		return os.LookupEnv(k)
	}
	secretProbe := func(b *testing.B, shorthand string, cfg ProbeConfig) *Probe {
		b.Helper()
		e := newEngine(b, NewEngineConfig().WithLookupEnv(lookup))
		p, err := e.StandardProbe(ctx, "bench", shorthand, cfg)
		if err != nil {
			b.Fatal(err)
		}
		return p
	}

	b.Run("redis/auth", func(b *testing.B) {
		addr := testsvc.Redis(b, password)
		run(b, secretProbe(b, "redis:"+addr+" password=REDIS_PW", ProbeConfig{}), false)
	})
	b.Run("https/bearer", func(b *testing.B) {
		ca := testsvc.NewCA(b)
		api := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.Header.Get("Authorization") != "Bearer "+token {
				w.WriteHeader(http.StatusUnauthorized)
				return
			}
			_, _ = io.WriteString(w, `{"status":"ok"}`)
		}))
		api.TLS = &tls.Config{Certificates: []tls.Certificate{ca.Server(b, time.Hour)}}
		api.StartTLS()
		b.Cleanup(api.Close)
		run(b, secretProbe(b, api.URL+"/health bearer=API_TOKEN", ProbeConfig{TLSRootCAs: ca.Pool()}), false)
	})

	b.Run("compile/quickstart", func(b *testing.B) {
		modules := quickstartModules(b)
		b.ReportAllocs()
		for b.Loop() {
			e, err := NewEngine(ctx, NewEngineConfig())
			if err != nil {
				b.Fatal(err)
			}
			for name, wasm := range modules {
				if _, err := e.Compile(ctx, name, wasm); err != nil {
					b.Fatal(err)
				}
			}
			e.Close(ctx)
		}
	})
}

// quickstartModules reads the quickstart manifest and returns every
// module its tools and servers use, once each, by name: the standard
// probes' embedded modules and its own module files.
func quickstartModules(b *testing.B) map[string][]byte {
	b.Helper()
	m, err := manifest.Load(filepath.Join("..", "examples", "quickstart", "gate.toml"))
	if err != nil {
		b.Fatal(err)
	}
	var used []*manifest.Probe
	for _, t := range m.Tools {
		used = append(used, t.Probe)
	}
	for _, s := range m.Servers {
		used = append(used, s.Probe)
	}
	modules := map[string][]byte{}
	for _, p := range used {
		switch {
		case p == nil:
		case p.Module != "":
			if _, ok := modules[p.Module]; !ok {
				modules[p.Module] = readFile(b, p.Module)
			}
		default:
			sh, err := probes.ParseShorthand(p.Standard)
			if err != nil {
				b.Fatalf("%s: %v", p.Standard, err)
			}
			wasm, ok := probes.Wasm(sh.Kind)
			if !ok {
				b.Fatalf("%s: no module for kind %q", p.Standard, sh.Kind)
			}
			modules[string(sh.Kind)+".wasm"] = wasm
		}
	}
	if len(modules) < 2 {
		b.Fatalf("the quickstart uses %d modules; expected its standard probes and its own", len(modules))
	}
	return modules
}
