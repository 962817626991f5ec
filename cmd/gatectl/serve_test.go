package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gate-dev/gate/internal/testnet"
)

// syncBuffer is a bytes.Buffer safe for the server's goroutines.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func get(t *testing.T, url, token string) (int, string) {
	t.Helper()
	req, err := http.NewRequest("GET", url, nil)
	require.NoError(t, err)
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// TestServe runs gatectl serve for real on a loopback port: it becomes
// ready, serves the tools, reloads on SIGHUP (a value on the reload
// channel), requires its token, and shuts down cleanly.
func TestServe(t *testing.T) {
	t.Setenv("GATE_CACHE_DIR", t.TempDir())
	dir := t.TempDir()
	manifest := filepath.Join(dir, "gate.toml")
	writeFile(t, manifest, "[[tools]]\nname = \"echo\"\n")
	tokenFile := filepath.Join(dir, "token")
	writeFile(t, tokenFile, "s3cret\n")

	ctx, cancel := context.WithCancel(context.Background())
	reload := make(chan os.Signal, 1)
	addrc := make(chan string, 1)
	var stderr syncBuffer
	code := make(chan int, 1)
	go func() {
		code <- serveContext(ctx, []string{"-m", manifest, "--addr", "127.0.0.1:0", "--token-file", tokenFile}, reload, io.Discard, &stderr,
			func(addr string) { addrc <- addr })
	}()
	var base string
	select {
	case a := <-addrc:
		base = "http://" + a
	case c := <-code:
		t.Fatalf("serve exited with %d: %s", c, stderr.String())
	}

	status, _ := get(t, base+"/healthz", "")
	assert.Equal(t, http.StatusOK, status)
	require.Eventually(t, func() bool { s, _ := get(t, base+"/readyz", "s3cret"); return s == http.StatusOK }, 5*time.Second, 10*time.Millisecond)
	status, _ = get(t, base+"/v1/tools", "")
	assert.Equal(t, http.StatusUnauthorized, status)
	status, body := get(t, base+"/v1/tools", "s3cret")
	assert.Equal(t, http.StatusOK, status)
	assert.Contains(t, body, `"echo"`)

	writeFile(t, manifest, "[[tools]]\nname = \"echo\"\n\n[[tools]]\nname = \"more\"\n")
	reload <- os.Interrupt // any value: the test stands in for SIGHUP
	require.Eventually(t, func() bool {
		_, body := get(t, base+"/v1/tools", "s3cret")
		return bytes.Contains([]byte(body), []byte(`"more"`))
	}, 5*time.Second, 10*time.Millisecond)

	cancel()
	assert.Equal(t, exitOK, <-code)
	assert.Contains(t, stderr.String(), "gatectl serve: stopped")
}

func TestServeRefusesUnsafeBinds(t *testing.T) {
	manifest := filepath.Join(t.TempDir(), "gate.toml")
	writeFile(t, manifest, "")
	run := func(args ...string) (int, string) {
		var stderr bytes.Buffer
		c := serveContext(context.Background(), append([]string{"-m", manifest}, args...), nil, io.Discard, &stderr, nil)
		return c, stderr.String()
	}
	c, msg := run("--addr", "0.0.0.0:0")
	assert.Equal(t, exitUsage, c)
	assert.Contains(t, msg, "allow-remote")
	t.Setenv("GATE_TOKEN", "")
	c, msg = run("--addr", "127.0.0.1:0")
	assert.Equal(t, exitUsage, c)
	assert.Contains(t, msg, "GATE_TOKEN is set but empty")
	c, msg = run("--token-file", filepath.Join(t.TempDir(), "missing"))
	assert.Equal(t, exitUsage, c)
	assert.Contains(t, msg, "--token-file")
}

// TestServeLogsFlipsNotRuns: without -v, serve says when a tool flips, once,
// and not every time a probe that keeps failing runs (the old log had a
// WARN line per run, every few seconds for one broken tool); the line is
// escaped for the terminal. A reload the watcher makes is logged too.
func TestServeLogsFlipsNotRuns(t *testing.T) {
	t.Setenv("GATE_CACHE_DIR", t.TempDir())
	l := testnet.Listen(t, "tcp", "127.0.0.1:0")
	spin, err := filepath.Abs(hostile("loop_probe"))
	require.NoError(t, err)
	manifest := filepath.Join(t.TempDir(), "gate.toml")
	body := fmt.Sprintf("[runtime]\nttl = \"50ms\"\ngrace = \"0s\"\n\n[[tools]]\nname = \"spin\"\nprobe = { module = %q }\n\n[[tools]]\nname = \"cache\"\nprobe = \"tcp:%s\"\n", spin, l.Addr())
	writeFile(t, manifest, body)

	ctx, cancel := context.WithCancel(context.Background())
	var stderr syncBuffer
	addrc := make(chan string, 1)
	code := make(chan int, 1)
	go func() {
		code <- serveContext(ctx, []string{"-m", manifest, "--addr", "127.0.0.1:0"}, nil, io.Discard, &stderr, func(a string) { addrc <- a })
	}()
	base := "http://" + <-addrc
	require.Eventually(t, func() bool { s, _ := get(t, base+"/readyz", ""); return s == http.StatusOK }, 10*time.Second, 10*time.Millisecond)

	l.Close()
	require.Eventually(t, func() bool { return strings.Contains(stderr.String(), "tool cache unavailable") }, 10*time.Second, 10*time.Millisecond,
		"the flip is logged:\n%s", stderr.String())
	// spin times out on every run, every 50 ms; let it run a while.
	time.Sleep(time.Second)
	writeFile(t, manifest, body+"\n[[tools]]\nname = \"more\"\n")
	require.Eventually(t, func() bool { return strings.Contains(stderr.String(), "reloaded") }, 10*time.Second, 10*time.Millisecond)
	cancel()
	require.Equal(t, exitOK, <-code)

	out := stderr.String()
	assert.Equal(t, 1, strings.Count(out, "tool cache unavailable"), out)
	assert.NotContains(t, out, "spin", "a probe that keeps failing the same way is not logged on every run:\n%s", out)
	assert.Contains(t, out, "after an edit", "the watcher's reload is logged")
}
