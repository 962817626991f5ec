package quickstart_test

import (
	"context"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gate-dev/gate/internal/testsvc"
	"github.com/gate-dev/gate/runtime"
)

// services are the quickstart's real services for one scenario: where its
// protocol-probed tools are pointed instead of their default addresses.
type services struct {
	redis, postgres, docker string // host:port, host:port, socket path
}

// openWith opens gate.toml (the tests' copy) with the addresses of the
// protocol-probed tools replaced by s's, and env as the whole environment.
func openWith(t *testing.T, s services, env map[string]string) *runtime.Gate {
	t.Helper()
	b, err := os.ReadFile(manifestCopy(t))
	require.NoError(t, err)
	text := string(b)
	for _, r := range []struct{ from, to string }{
		{`"redis:127.0.0.1:6379"`, `"redis:` + s.redis + `"`},
		{`"postgres:127.0.0.1:5432 user=postgres"`, `"postgres:` + s.postgres + ` user=postgres"`},
		{`"docker:unix:/var/run/docker.sock"`, `"docker:unix:` + s.docker + `"`},
	} {
		require.Contains(t, text, r.from, "gate.toml changed; update this test")
		text = strings.Replace(text, r.from, r.to, 1)
	}
	manifest := filepath.Join(filepath.Dir(manifestCopy(t)), "protocols-"+strings.ReplaceAll(t.Name(), "/", "_")+".toml")
	require.NoError(t, os.WriteFile(manifest, []byte(text), 0o644))
	ctx := context.Background()
	g, err := runtime.Open(ctx, manifest, runtime.NewGateConfig().
		WithEngine(runtime.NewEngineConfig().WithLookupEnv(func(k string) (string, bool) { v, ok := env[k]; return v, ok })))
	require.NoError(t, err)
	t.Cleanup(func() { g.Close(ctx) })
	return g
}

// fakeDocker serves Docker's /_ping on a unix socket in dir; with hang, it
// accepts connections and never answers, as a wedged daemon does.
func fakeDocker(t *testing.T, hang bool) string {
	t.Helper()
	sock := filepath.Join(t.TempDir(), "docker.sock")
	l, err := net.Listen("unix", sock)
	require.NoError(t, err)
	done := make(chan struct{})
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if hang {
			select {
			case <-r.Context().Done():
			case <-done:
			}
			return
		}
		if r.URL.Path != "/_ping" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Api-Version", "1.45")
		io.WriteString(w, "OK")
	})}
	go srv.Serve(l)
	t.Cleanup(func() { close(done); srv.Close() })
	return sock
}

// TestQuickstartAsksItsServices: the quickstart's gated tools answer from
// their services' own protocols, against real ones: Redis (PING), a
// PostgreSQL cluster (the startup handshake), a Docker API on a unix socket
// (/_ping) and the key check of search_web (the loopback stand-in for
// serpapi.com). Then each service is made to fail the way users meet it,
// with its port still open: a Redis that wants a password, a Docker daemon
// that hangs, a revoked key.
func TestQuickstartAsksItsServices(t *testing.T) {
	pg, _ := testsvc.Postgres(t)
	up := services{redis: testsvc.Redis(t, ""), postgres: pg, docker: fakeDocker(t, false)}
	ctx := context.Background()
	status := func(g *runtime.Gate, name string) runtime.Status {
		st, err := g.Tools().Status(ctx, name)
		require.NoError(t, err)
		return st[0]
	}

	// upStatus is status for a service that is up: a service on this
	// machine that a loaded machine kept from answering within the budget
	// is asked again (a timeout is the one answer that can be the
	// machine's, not the probe's); any other answer stands.
	upStatus := func(g *runtime.Gate, name string) runtime.Status {
		st := status(g, name)
		for range 4 {
			if st.Code != runtime.CodeTimeout {
				break
			}
			t.Logf("%s: %s; asking again", name, st.Reason)
			again, err := g.Tools().Refresh(ctx, name)
			require.NoError(t, err)
			st = again[0]
		}
		return st
	}

	t.Run("up", func(t *testing.T) {
		g := openWith(t, up, map[string]string{"SERP_API_KEY": goodKey})
		for _, name := range []string{"search_web", "query_local_db", "cache_data", "docker_command"} {
			st := upStatus(g, name)
			assert.Equal(t, runtime.StateAvailable, st.State, "%s: %s", name, st.Reason)
		}
	})

	t.Run("failing", func(t *testing.T) {
		down := up
		down.redis = testsvc.Redis(t, "a-password-the-tool-lacks")
		down.docker = fakeDocker(t, true)
		g := openWith(t, down, map[string]string{"SERP_API_KEY": "revoked"})

		st := status(g, "cache_data")
		assert.Equal(t, runtime.StateUnavailable, st.State)
		assert.Contains(t, st.Reason, "authentication required (NOAUTH)")

		st = status(g, "docker_command")
		assert.Equal(t, runtime.StateError, st.State, "a hanging daemon is transient: %s", st.Reason)
		var perr *runtime.ProbeError
		if assert.ErrorAs(t, st.Err, &perr) {
			assert.Equal(t, runtime.KindStatus, perr.Kind, "the probe raised on its own, before the budget: %v", perr)
		}

		st = status(g, "search_web")
		assert.Equal(t, runtime.StateUnavailable, st.State)
		assert.Equal(t, serpURL()+": credentials rejected (HTTP 401)", st.Reason)

		st = upStatus(g, "query_local_db") // its service is up
		assert.Equal(t, runtime.StateAvailable, st.State, st.Reason)
	})
}
