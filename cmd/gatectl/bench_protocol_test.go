package main

import (
	"context"
	"crypto/tls"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

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
	// The honest paths that send a secret: a Redis that wants a password,
	// and an HTTPS API that wants a bearer token.
	const password, token = "bench-redis-password", "bench-api-token"
	authRedis := testsvc.Redis(b, password)
	authHost, authPort := splitHostPort(b, authRedis)
	ca := testsvc.NewCA(b)
	caFile := ca.WriteFile(b)
	api := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer "+token {
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		io.WriteString(w, `{"status":"ok"}`)
	}))
	api.TLS = &tls.Config{Certificates: []tls.Certificate{ca.Server(b, time.Hour)}}
	api.StartTLS()
	b.Cleanup(api.Close)
	secrets := map[string]string{"REDIS_PW": password, "API_TOKEN": token}
	lookup := func(k string) (string, bool) {
		if v, ok := secrets[k]; ok {
			return v, true
		}
		return os.LookupEnv(k)
	}
	env = append(env, "REDIS_PW="+password, "API_TOKEN="+token)

	for _, svc := range []struct {
		name      string
		cli       []string
		shorthand string
		tls       bool
	}{
		{"redis", []string{"redis-cli", "-h", redisHost, "-p", redisPort, "ping"}, "redis:" + redis, false},
		{"redis-auth", []string{"redis-cli", "--no-auth-warning", "-a", password, "-h", authHost, "-p", authPort, "ping"}, "redis:" + authRedis + " password=REDIS_PW", false},
		{"postgres", []string{"pg_isready", "-q", "-h", pgHost, "-p", pgPort, "-U", testsvc.PGSuperuser}, "postgres:" + pg + " user=" + testsvc.PGSuperuser, false},
		{"http", []string{"curl", "-sf", "-o", "/dev/null", web.URL + "/health"}, web.URL + "/health", false},
		{"https-bearer", []string{"curl", "-sf", "-o", "/dev/null", "--cacert", caFile, "-H", "Authorization: Bearer " + token, api.URL + "/health"}, api.URL + "/health bearer=API_TOKEN", true},
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
			if svc.tls {
				argv = append(argv, "--tls-ca", caFile)
			}
			exe(b, argv) // warm the compilation cache
			for b.Loop() {
				exe(b, argv)
			}
		})
		b.Run("probe="+svc.name+"/via=inproc", func(b *testing.B) {
			ctx := context.Background()
			e, err := runtime.NewEngine(ctx, runtime.NewEngineConfig().WithLookupEnv(lookup))
			if err != nil {
				b.Fatal(err)
			}
			defer e.Close(ctx)
			var cfg runtime.ProbeConfig
			if svc.tls {
				cfg.TLSRootCAs = ca.Pool()
			}
			p, err := e.StandardProbe(ctx, svc.name, svc.shorthand, cfg)
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
