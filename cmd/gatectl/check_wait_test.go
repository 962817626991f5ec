package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// freeLoopbackPort is a loopback address nothing listens on, whose port
// the test may listen on later.
func freeLoopbackPort(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := l.Addr().String()
	require.NoError(t, l.Close())
	return addr
}

// signalWriter is a stderr that closes seen once what it waits for has
// been written.
type signalWriter struct {
	mu   sync.Mutex
	b    bytes.Buffer
	want string
	seen chan struct{}
}

func newSignalWriter(want string) *signalWriter {
	return &signalWriter{want: want, seen: make(chan struct{})}
}

func (w *signalWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	was := strings.Contains(w.b.String(), w.want)
	n, err := w.b.Write(p)
	if !was && strings.Contains(w.b.String(), w.want) {
		close(w.seen)
	}
	return n, err
}

func (w *signalWriter) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.String()
}

// waitHang bounds a wait that only a hang reaches: check --wait is given
// this long where the test makes its tool available.
const waitHang = 2 * time.Minute

// TestCheckWaitSeesAToolComeUp: check --wait NAME reads the named tool's
// answer again until it is available, here once the test, having seen the
// first check say it waits, starts listening on the tool's port; it exits
// 0 with the table of that answer, long before its wait is over, and
// waits for nothing it was not asked to (never_set is never available).
func TestCheckWaitSeesAToolComeUp(t *testing.T) {
	t.Setenv("GATE_CACHE_DIR", t.TempDir())
	addr := freeLoopbackPort(t)
	path := filepath.Join(t.TempDir(), "gate.toml")
	writeFile(t, path, fmt.Sprintf(`
[[tools]]
name = "db"
probe = "tcp:%s"
retry = "100ms"

[[tools]]
name = "never_set"
probe = "env:GATECTL_WAIT_NEVER_SET"
`, addr))
	for _, asJSON := range []bool{false, true} {
		t.Run(fmt.Sprintf("json=%v", asJSON), func(t *testing.T) {
			args := []string{"check", "-m", path, "--wait", waitHang.String(), "db"}
			if asJSON {
				args = append(args, "--json")
			}
			stderr := newSignalWriter("gatectl check: waiting up to " + waitHang.String() + " for db\n")
			var stdout bytes.Buffer
			done := make(chan int, 1)
			start := time.Now()
			go func() { done <- run(args, &stdout, stderr) }()
			select {
			case <-stderr.seen:
			case code := <-done:
				t.Fatalf("check ended (%d) before it said it waits: %s", code, stderr.String())
			}
			l, err := net.Listen("tcp", addr)
			require.NoError(t, err)
			defer l.Close()
			code := <-done
			assert.Less(t, time.Since(start), waitHang, "it ended when db came up, not when its wait ran out")
			require.Equal(t, exitOK, code, stderr.String())
			if !asJSON {
				assert.Contains(t, stdout.String(), "1 of 1 tools available.")
				assert.NotContains(t, stdout.String(), "never_set")
				return
			}
			var report checkReport
			require.NoError(t, json.Unmarshal(stdout.Bytes(), &report), stdout.String())
			require.Len(t, report.Tools, 1)
			assert.Equal(t, "db", report.Tools[0].Name)
			assert.True(t, report.Tools[0].Available)
			assert.Equal(t, checkSummary{Tools: 1, ToolsAvailable: 1}, report.Summary)
		})
	}
}

// TestCheckWaitRunsOut: a tool that never comes up makes check --wait
// exit 1 (some not available) once its wait has passed, with the last
// answers; and it probes no more often than the runtime would: with a
// TTL of 0 (probe at every read) at most once per pause, and with the
// default TTL once, whatever happens to the port meanwhile.
func TestCheckWaitRunsOut(t *testing.T) {
	t.Setenv("GATE_CACHE_DIR", t.TempDir())
	const wait = time.Second
	for _, tt := range []struct {
		name, runtime string
		maxRuns       int
	}{
		{"ttl 0", "[runtime]\nttl = \"0s\"\n", int(wait/minWaitPoll) + 2},
		{"default ttl", "", 1},
	} {
		t.Run(tt.name, func(t *testing.T) {
			addr := freeLoopbackPort(t)
			path := filepath.Join(t.TempDir(), "gate.toml")
			writeFile(t, path, tt.runtime+fmt.Sprintf("[[tools]]\nname = \"db\"\nprobe = \"tcp:%s\"\n", addr))
			stderr := newSignalWriter("waiting up to")
			var stdout bytes.Buffer
			done := make(chan int, 1)
			start := time.Now()
			go func() { done <- run([]string{"check", "-v", "-m", path, "--wait", wait.String()}, &stdout, stderr) }()
			select {
			case <-stderr.seen:
			case code := <-done:
				t.Fatalf("check ended (%d) before it said it waits: %s", code, stderr.String())
			}
			if tt.maxRuns == 1 {
				// Up now, but the runtime's answer stands for its TTL.
				l, err := net.Listen("tcp", addr)
				require.NoError(t, err)
				defer l.Close()
			}
			code := <-done
			took := time.Since(start)
			assert.Equal(t, exitUnavailable, code, stderr.String())
			assert.GreaterOrEqual(t, took, wait, "it waited its whole wait")
			assert.Less(t, took, waitHang, "and ended after it")
			assert.Contains(t, stdout.String(), "0 of 1 tools available")
			runs := strings.Count(stderr.String(), "Tool 'db' unavailable")
			assert.GreaterOrEqual(t, runs, 1, stderr.String())
			assert.LessOrEqual(t, runs, tt.maxRuns, "probe runs in %v: %s", took, stderr.String())
		})
	}
}

// TestCheckWaitUsage: an unknown NAME is a usage error with the nearest
// names, as without --wait, and a negative wait is refused.
func TestCheckWaitUsage(t *testing.T) {
	path := filepath.Join(t.TempDir(), "gate.toml")
	writeFile(t, path, "[[tools]]\nname = \"search_web\"\nprobe = \"env:GATECTL_WAIT_UNSET\"\n")
	code, _, stderr := gatectl(t, "check", "-m", path, "--wait", "1m", "serch_web")
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, stderr, `has no tool or server named "serch_web"; did you mean "search_web"?`)

	code, _, stderr = gatectl(t, "check", "-m", path, "--wait", "-1s")
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, stderr, "gatectl check: --wait -1s: want 0 (no wait) or more")
}

// TestCheckSaysServersAreNotConnected: check answers a server's probe and
// connects to no server; a server gate connects to (command or url) that
// has no probe is not shown as "always available", and the summary says
// that gatectl mcp check connects to it. The exit code is the probes'.
func TestCheckSaysServersAreNotConnected(t *testing.T) {
	path := filepath.Join(t.TempDir(), "gate.toml")
	writeFile(t, path, "[[servers]]\nname = \"notes\"\ncommand = [\"./no-such-server\"]\n\n[[servers]]\nname = \"local\"\n")
	code, stdout, stderr := gatectl(t, "check", "-m", path)
	require.Equal(t, exitOK, code, stderr)
	assert.Regexp(t, `notes +available +- +\(none\) *\n`, stdout)
	assert.Regexp(t, `local +available +- +\(none: always available\)`, stdout)
	assert.Contains(t, stdout, "1 MCP server(s) not connected to: gatectl mcp check connects and lists their tools.")

	code, stdout, _ = gatectl(t, "check", "-m", path, "--json")
	require.Equal(t, exitOK, code)
	var report checkReport
	require.NoError(t, json.Unmarshal([]byte(stdout), &report))
	assert.Equal(t, checkSummary{Servers: 2, ServersAvailable: 2, ServersNotConnected: 1}, report.Summary)

	code, stdout, _ = gatectl(t, "check", "-m", path, "local")
	require.Equal(t, exitOK, code)
	assert.NotContains(t, stdout, "not connected", "a NAME subset counts only its own")
}
