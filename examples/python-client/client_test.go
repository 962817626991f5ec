// Package pythonclient tests gate_client.py, the Python example, against a
// real gate server on loopback.
package pythonclient

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gate-dev/gate/internal/testnet"
	"github.com/gate-dev/gate/runtime"
	"github.com/gate-dev/gate/server"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const token = "py-client-token"

// serveGate runs a service over manifest and serves it on a loopback port
// with the token, as gatectl serve does; it returns the base URL.
func serveGate(t *testing.T, manifest string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "gate.toml")
	require.NoError(t, os.WriteFile(path, []byte(manifest), 0o644))
	metrics := server.NewMetrics()
	ctx, cancel := context.WithCancel(context.Background())
	svc, err := runtime.OpenService(ctx, path, runtime.NewServiceConfig().WithGate(runtime.NewGateConfig().
		WithEngine(runtime.NewEngineConfig().WithCacheDir(t.TempDir())).
		WithRegistry(runtime.NewRegistryConfig().WithObserver(metrics))))
	require.NoError(t, err)
	stop := metrics.Watch(svc)
	ran := make(chan struct{})
	go func() {
		defer close(ran)
		_ = svc.Run(ctx)
	}()

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	require.NoError(t, server.CheckBind(ln.Addr().String(), false, token))
	done := make(chan struct{})
	srv := &http.Server{Handler: server.New(svc, metrics, server.Options{Token: token, Done: done})}
	srv.RegisterOnShutdown(func() { close(done) })
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	t.Cleanup(func() {
		sctx, scancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer scancel()
		assert.NoError(t, srv.Shutdown(sctx), "graceful shutdown")
		assert.ErrorIs(t, <-served, http.ErrServerClosed)
		cancel()
		<-ran
		stop()
		svc.Close(context.Background())
	})
	require.Eventually(t, svc.Ready, 30*time.Second, 5*time.Millisecond, "the service never became ready")
	return "http://" + ln.Addr().String()
}

func python(t *testing.T) string {
	t.Helper()
	p, err := exec.LookPath("python3")
	if err != nil {
		t.Fatalf("this test runs the example with a real Python: install python3 (apt-get install python3): %v", err)
	}
	return p
}

// TestPythonClient runs gate_client.py against a real server: it prints
// the schema's tools, then the change when a tool's service goes away,
// then the tools again.
func TestPythonClient(t *testing.T) {
	py := python(t)
	t.Setenv("GATE_PY_TEST_KEY", "set")
	l := testnet.Listen(t, "tcp", "127.0.0.1:0")
	url := serveGate(t, fmt.Sprintf(`
[runtime]
ttl = "100ms"
grace = "0s"

[[tools]]
name = "search_web"
description = "Search the web."
probe = "env:GATE_PY_TEST_KEY"

[[tools]]
name = "query_db"
description = "Query the database."
probe = "tcp:%s"

[[tools]]
name = "echo"
description = "Always here."
`, l.Addr()))

	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, py, "-u", "gate_client.py", "--url", url, "--max-events", "1", "--timeout", "20")
	cmd.Env = append(os.Environ(), "GATE_TOKEN="+token)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	stdout, err := cmd.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())

	var lines []string
	var once sync.Once
	sc := bufio.NewScanner(stdout)
	for sc.Scan() {
		lines = append(lines, sc.Text())
		if strings.HasPrefix(sc.Text(), "connected") {
			once.Do(func() { l.Close() }) // the database goes away
		}
	}
	err = cmd.Wait()
	out := strings.Join(lines, "\n")
	require.NoError(t, err, "stdout:\n%s\nstderr:\n%s", out, stderr.String())

	require.GreaterOrEqual(t, len(lines), 4, out)
	assert.Equal(t, "tools (3): search_web, query_db, echo", lines[0])
	assert.Equal(t, "connected (generation 0)", lines[1])
	assert.Regexp(t, `^change: tool query_db unavailable: 127\.0\.0\.1:\d+: connection refused$`, lines[2])
	assert.Equal(t, "tools (2): search_web, echo", lines[3])
}

// TestPythonClientRefused: a wrong token is refused, and the client says so.
func TestPythonClientRefused(t *testing.T) {
	py := python(t)
	url := serveGate(t, "[[tools]]\nname = \"echo\"\n")
	cmd := exec.Command(py, "gate_client.py", "--url", url, "--timeout", "5")
	cmd.Env = append(os.Environ(), "GATE_TOKEN=wrong")
	out, err := cmd.CombinedOutput()
	var exit *exec.ExitError
	require.True(t, errors.As(err, &exit), "want exit code 2, got %v: %s", err, out)
	assert.Equal(t, 2, exit.ExitCode())
	assert.Equal(t, "gate_client: "+url+"/v1/schema?format=openai: 401 unauthorized\n", string(out))
}
