package main

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gate-dev/gate/internal/mcptest"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// hostileEntry is the manifest entry of a hostile stdio upstream (this
// test binary, see mcptest.RunHostile), its tools prefixed with its name.
func hostileEntry(exe, name, mode string, env ...string) string {
	extra := ""
	for i := 0; i+1 < len(env); i += 2 {
		extra += fmt.Sprintf(", %s = %q", env[i], env[i+1])
	}
	return fmt.Sprintf("\n[[servers]]\nname = %q\nprefix = \"%s_\"\ncommand = [%q]\nenv = { %s = %q%s }\n",
		name, name, exe, mcptest.HostileEnv, mode, extra)
}

// gatectlMCP is gatectl mcp running as a process, with a Go SDK client on
// its stdio.
type gatectlMCP struct {
	cmd    *exec.Cmd
	stderr *syncBuffer
	exited chan error
	client *goClient
}

// startMCP runs gatectl mcp on the manifest as cmd describes (its
// environment, credentials) and connects the Go SDK's client.
func startMCP(t *testing.T, cmd *exec.Cmd) *gatectlMCP {
	t.Helper()
	// The pipes are the test's own, so that waiting for the process (here)
	// and reading its output (the session) do not race.
	inR, inW, err := os.Pipe()
	require.NoError(t, err)
	outR, outW, err := os.Pipe()
	require.NoError(t, err)
	g := &gatectlMCP{cmd: cmd, stderr: &syncBuffer{}, exited: make(chan error, 1)}
	cmd.Stdin, cmd.Stdout, cmd.Stderr = inR, outW, g.stderr
	require.NoError(t, cmd.Start())
	_ = inR.Close()
	_ = outW.Close()
	go func() { g.exited <- cmd.Wait() }()
	t.Cleanup(func() {
		if cmd.ProcessState == nil {
			_ = cmd.Process.Kill()
		}
	})
	cl, c := newGoClient()
	ctx, cancel := context.WithTimeout(context.Background(), mcpWait)
	defer cancel()
	cs, err := cl.Connect(ctx, &mcp.IOTransport{Reader: outR, Writer: inW}, nil)
	require.NoError(t, err, "stderr:\n%s", g.stderr.String())
	c.Session = cs
	t.Cleanup(func() { _ = cs.Close() })
	g.client = c
	return g
}

// terminate sends SIGTERM and returns how long gatectl took to exit, having
// checked that it exited 0 and said it stopped.
func (g *gatectlMCP) terminate(t *testing.T) time.Duration {
	t.Helper()
	sent := time.Now()
	require.NoError(t, g.cmd.Process.Signal(syscall.SIGTERM))
	select {
	case err := <-g.exited:
		took := time.Since(sent)
		require.NoError(t, err, "gatectl mcp exited badly after SIGTERM:\n%s", g.stderr.String())
		t.Logf("gatectl mcp stopped %v after SIGTERM", took.Round(time.Millisecond))
		out := g.stderr.String()
		assert.Contains(t, out, "gatectl mcp: stopped")
		for _, bad := range []string{"fatal error", "panic:", "DATA RACE"} {
			assert.NotContains(t, out, bad)
		}
		return took
	case <-time.After(10 * time.Second):
		_ = g.cmd.Process.Signal(syscall.SIGQUIT) // a goroutine dump on stderr
		time.Sleep(time.Second)
		t.Fatalf("gatectl mcp did not stop within 10 s of SIGTERM:\n%s", g.stderr.String())
	}
	return 0
}

// TestMCPSIGTERMAnswersCallsInFlight sends SIGTERM to gatectl mcp while
// 20 calls wait on its upstreams (stdio and HTTP): each is answered with
// an error that says gate is shutting down, and gatectl exits.
func TestMCPSIGTERMAnswersCallsInFlight(t *testing.T) {
	t.Parallel()
	bin := buildGatectlBinary(t)
	exe, err := os.Executable()
	require.NoError(t, err)
	s := mcptest.Server()
	web := &mcptest.CallsInFlight{Next: mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, nil)}
	srv := httptest.NewServer(web)
	t.Cleanup(func() {
		srv.CloseClientConnections()
		srv.Close()
	})
	manifest := mcpManifest(t, hostileEntry(exe, "local", "plain")+fmt.Sprintf("\n[[servers]]\nname = \"web\"\nprefix = \"web_\"\nurl = %q\n", srv.URL))
	cmd := exec.Command(bin, "mcp", "-m", manifest)
	cmd.Env = mcpEnv(t)
	g := startMCP(t, cmd)
	g.client.WaitTools(t, "local_echo", "local_wait", "web_echo", "web_wait")

	const calls = 20
	errs := g.client.StartCalls(calls, "web_wait", "local_wait")
	require.Eventually(t, func() bool { return web.N() == calls/2 }, mcpWait, 10*time.Millisecond)
	g.terminate(t)
	for range calls {
		err := <-errs
		var je *jsonrpc.Error
		require.ErrorAs(t, err, &je, "a call in flight on SIGTERM")
		assert.Contains(t, je.Message, "gate is shutting down")
	}
}

// TestMCPSIGTERMWithAnUpstreamThatStopsReading: a stdio upstream that
// floods gate with requests and reads none of the answers is marked down
// when a write to it times out (10 s), is restarted, and does not keep
// gatectl mcp from stopping on SIGTERM; it is gone once gatectl has.
func TestMCPSIGTERMWithAnUpstreamThatStopsReading(t *testing.T) {
	t.Parallel()
	bin := buildGatectlBinary(t)
	exe, err := os.Executable()
	require.NoError(t, err)
	pidFile := filepath.Join(t.TempDir(), "deaf.pid")
	manifest := mcpManifest(t, hostileEntry(exe, "deaf", "deaf", mcptest.SelfPIDEnv, pidFile)+hostileEntry(exe, "local", "plain"))
	cmd := exec.Command(bin, "mcp", "-m", manifest)
	cmd.Env = mcpEnv(t)
	g := startMCP(t, cmd)
	g.client.WaitTools(t, "deaf_echo", "deaf_wait", "local_echo", "local_wait")
	require.Eventually(t, func() bool {
		return strings.Contains(g.stderr.String(), "upstream deaf down: it read nothing of its stdin for 10s")
	}, 2*mcpWait, 10*time.Millisecond, "the upstream that reads nothing was never marked down:\n%s", g.stderr.String())
	g.client.WaitTools(t, "deaf_echo", "deaf_wait", "local_echo", "local_wait") // restarted, flooding again
	assert.Equal(t, "echo: meanwhile", g.client.call(t, "local_echo", "meanwhile"))
	deaf := mcptest.ReadPID(t, pidFile, 0)
	g.terminate(t)
	require.Eventually(t, func() bool { return mcptest.ProcessGone(deaf) }, 5*time.Second, 10*time.Millisecond,
		"the upstream (pid %d) still runs after gatectl mcp exited", deaf)
}

// worldDir is a temporary directory every user may enter and read.
func worldDir(t *testing.T) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "gatectl-environ-")
	require.NoError(t, err)
	t.Cleanup(func() { _ = os.RemoveAll(dir) })
	require.NoError(t, os.Chmod(dir, 0o755))
	return dir
}

// copyExecutable copies the file at src into dir, executable by all.
func copyExecutable(t *testing.T, src, dir string) string {
	t.Helper()
	b, err := os.ReadFile(src)
	require.NoError(t, err)
	dst := filepath.Join(dir, filepath.Base(src))
	require.NoError(t, os.WriteFile(dst, b, 0o755))
	return dst
}

// TestMCPUpstreamCannotReadGatesEnvironment: a stdio upstream runs as
// gatectl's user and child, and tries to read gatectl's environment from
// /proc: the kernel refuses it, so the secret gatectl was started with,
// which the manifest does not pass, stays out of its reach. As root the
// test runs gatectl as nobody: root could read it whatever gatectl does.
func TestMCPUpstreamCannotReadGatesEnvironment(t *testing.T) {
	t.Parallel()
	dir := worldDir(t)
	bin := copyExecutable(t, buildGatectlBinary(t), dir)
	exe, err := os.Executable()
	require.NoError(t, err)
	exe = copyExecutable(t, exe, dir)
	manifest := filepath.Join(dir, "gate.toml")
	require.NoError(t, os.WriteFile(manifest, []byte("[runtime]\nttl = \"30ms\"\n"+hostileEntry(exe, "thief", "thief")), 0o644))
	cache := filepath.Join(dir, "cache")
	require.NoError(t, os.Mkdir(cache, 0o777))
	require.NoError(t, os.Chmod(cache, 0o777))

	const secret = "GATE_TEST_SECRET=s3cr3t-only-gate-has"
	cmd := exec.Command(bin, "mcp", "-m", manifest)
	cmd.Env = []string{secret, "GATE_CACHE_DIR=" + cache, "PATH=" + os.Getenv("PATH")}
	cmd.Dir = dir
	if os.Geteuid() == 0 {
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	}
	g := startMCP(t, cmd)
	g.client.WaitTools(t, "thief_echo", "thief_environ", "thief_wait")
	ctx, cancel := context.WithTimeout(context.Background(), mcpWait)
	defer cancel()
	res, err := g.client.Session.CallTool(ctx, &mcp.CallToolParams{Name: "thief_environ"})
	require.NoError(t, err)
	got := mcptest.Text(res)
	assert.NotContains(t, got, "s3cr3t-only-gate-has", "the upstream read gatectl's environment")
	assert.Contains(t, got, "cannot read it: ")
	assert.Contains(t, got, "permission denied")
	g.terminate(t)
}
