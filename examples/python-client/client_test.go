// Package pythonclient tests gate_client.py, the Python example, against a
// real gate server on loopback.
package pythonclient

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/gate-dev/gate/internal/testnet"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const token = "py-client-token"

// gatectl builds the gatectl of this checkout once for the tests, into a
// directory removed when they end.
var gatectl = sync.OnceValues(func() (string, error) {
	dir, err := os.MkdirTemp("", "pyclient-gatectl")
	if err != nil {
		return "", err
	}
	bin := filepath.Join(dir, "gatectl")
	if out, err := exec.Command("go", "build", "-o", bin, "github.com/gate-dev/gate/cmd/gatectl").CombinedOutput(); err != nil {
		return "", fmt.Errorf("go build gatectl: %v\n%s", err, out)
	}
	return bin, nil
})

func TestMain(m *testing.M) {
	code := m.Run()
	if bin, err := gatectl(); err == nil {
		_ = os.RemoveAll(filepath.Dir(bin))
	}
	os.Exit(code)
}

// listening matches the line gatectl serve logs once it accepts
// connections.
var listening = regexp.MustCompile(`listening on (http://\S+)`)

// serveGate runs gatectl serve over manifest on a loopback port with the
// token, as a user runs it for a Python client, and returns its base URL
// once its first round of probes has answered (/readyz).
func serveGate(t *testing.T, manifest string) string {
	t.Helper()
	bin, err := gatectl()
	require.NoError(t, err)
	dir := t.TempDir()
	path := filepath.Join(dir, "gate.toml")
	require.NoError(t, os.WriteFile(path, []byte(manifest), 0o644))
	cmd := exec.Command(bin, "serve", "-m", path, "--addr", "127.0.0.1:0")
	cmd.Env = append(os.Environ(), "GATE_TOKEN="+token, "GATE_CACHE_DIR="+filepath.Join(dir, "cache"))
	stderr, err := cmd.StderrPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	exited := make(chan error, 1)
	urls := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			if m := listening.FindStringSubmatch(sc.Text()); m != nil {
				urls <- m[1]
			}
		}
		exited <- cmd.Wait()
	}()
	t.Cleanup(func() {
		_ = cmd.Process.Signal(syscall.SIGTERM)
		select {
		case err := <-exited:
			assert.NoError(t, err, "gatectl serve on SIGTERM")
		case <-time.After(time.Minute):
			_ = cmd.Process.Kill()
			t.Errorf("gatectl serve did not stop on SIGTERM")
		}
	})
	var url string
	select {
	case url = <-urls:
	case err := <-exited:
		t.Fatalf("gatectl serve exited: %v", err)
	case <-time.After(time.Minute):
		t.Fatal("gatectl serve never said where it listens")
	}
	require.Eventually(t, func() bool {
		req, _ := http.NewRequest(http.MethodGet, url+"/readyz", nil)
		req.Header.Set("Authorization", "Bearer "+token)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			return false
		}
		resp.Body.Close()
		return resp.StatusCode == http.StatusOK
	}, time.Minute, 10*time.Millisecond, "gatectl serve never became ready")
	return url
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
