package main

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/gate-dev/gate/internal/testsvc"
	"github.com/gate-dev/gate/runtime"
)

// BenchmarkProtocolProbes asks real loopback services the question each
// protocol probe asks, three ways in one run: the service's own CLI
// (redis-cli ping, pg_isready, curl -sf) as a whole process, `gatectl
// probe run` as a whole process (warm compilation cache), and the probe in
// process on a reused instance. The CLI is the anchor: what a user pays
// today to ask from a shell.
//
//	go test -run '^$' -bench ProtocolProbes -count 6 ./cmd/gatectl | benchstat -col /via -
func BenchmarkProtocolProbes(b *testing.B) {
	bin := filepath.Join(b.TempDir(), "gatectl")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		b.Fatalf("build gatectl: %v\n%s", err, out)
	}
	env := append(os.Environ(), "GATE_CACHE_DIR="+b.TempDir())
	redis := testsvc.Redis(b, "")
	pg, _ := testsvc.Postgres(b)
	web := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, `{"status":"ok"}`)
	}))
	b.Cleanup(web.Close)
	pgHost, pgPort := splitHostPort(b, pg)
	redisHost, redisPort := splitHostPort(b, redis)

	for _, svc := range []struct {
		name      string
		cli       []string
		shorthand string
	}{
		{"redis", []string{"redis-cli", "-h", redisHost, "-p", redisPort, "ping"}, "redis:" + redis},
		{"postgres", []string{"pg_isready", "-q", "-h", pgHost, "-p", pgPort, "-U", testsvc.PGSuperuser}, "postgres:" + pg + " user=" + testsvc.PGSuperuser},
		{"http", []string{"curl", "-sf", "-o", "/dev/null", web.URL + "/health"}, web.URL + "/health"},
	} {
		exe := func(b *testing.B, argv []string) {
			cmd := exec.Command(argv[0], argv[1:]...)
			cmd.Env = env
			if out, err := cmd.CombinedOutput(); err != nil {
				b.Fatalf("%v: %v\n%s", argv, err, out)
			}
		}
		b.Run("probe="+svc.name+"/via=cli", func(b *testing.B) {
			exe(b, svc.cli)
			for b.Loop() {
				exe(b, svc.cli)
			}
		})
		b.Run("probe="+svc.name+"/via=gatectl", func(b *testing.B) {
			argv := []string{bin, "probe", "run", svc.shorthand}
			exe(b, argv) // warm the compilation cache
			for b.Loop() {
				exe(b, argv)
			}
		})
		b.Run("probe="+svc.name+"/via=inproc", func(b *testing.B) {
			ctx := context.Background()
			e, err := runtime.NewEngine(ctx, runtime.NewEngineConfig())
			if err != nil {
				b.Fatal(err)
			}
			defer e.Close(ctx)
			p, err := e.StandardProbe(ctx, svc.name, svc.shorthand, runtime.ProbeConfig{})
			if err != nil {
				b.Fatal(err)
			}
			for b.Loop() {
				if res := p.Run(ctx); res.Outcome != runtime.Available {
					b.Fatalf("%v: %s", res.Outcome, res.Reason)
				}
			}
		})
	}
}

func splitHostPort(b *testing.B, addr string) (string, string) {
	for i := len(addr) - 1; i >= 0; i-- {
		if addr[i] == ':' {
			return addr[:i], addr[i+1:]
		}
	}
	b.Fatalf("no port in %q", addr)
	return "", ""
}
