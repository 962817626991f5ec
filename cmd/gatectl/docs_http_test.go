package main

import (
	"bufio"
	"context"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/gate-dev/gate/internal/doctest"
	"github.com/gate-dev/gate/internal/golden"
	"github.com/gate-dev/gate/internal/testnet"
)

// TestHTTPDocStreams plays the scenario of docs/HTTP.md's event stream and
// Python client: gatectl serve with the page's manifest, curl -N's view of
// /v1/events (the stream's bytes, as they come) and gate_client.py
// following it, while the listener cache_data asks comes and goes; and
// compares both with the page (-update rewrites the page's output).
func TestHTTPDocStreams(t *testing.T) {
	const (
		events = "curl -N localhost:7311/v1/events"
		client = "GATE_TOKEN=... python3 examples/python-client/gate_client.py --max-events 2 --timeout 15"
	)
	root := filepath.Join("..", "..")
	page := filepath.Join(root, "docs", "HTTP.md")
	p, err := doctest.Load(page)
	require.NoError(t, err)
	_, cat := p.Find("cat gate.toml")
	require.NotNil(t, cat, "docs/HTTP.md shows its manifest with $ cat gate.toml")

	ports := doctest.Ports{}
	ports.Free(t, "3333")
	ports.Free(t, "16379")
	dir := t.TempDir()
	doctest.CopyTree(t, filepath.Join(root, "examples", "quickstart", "skills"), filepath.Join(dir, "skills"), nil)
	manifest := filepath.Join(dir, "gate.toml")
	writeFile(t, manifest, ports.ToRun(strings.Join(cat.Output, "\n")+"\n"))
	t.Setenv("GATE_CACHE_DIR", t.TempDir())
	t.Setenv("SERP_API_KEY", "set")
	t.Setenv("SLACK_TOKEN", "")
	os.Unsetenv("SLACK_TOKEN") // t.Setenv restores it

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	addrc := make(chan string, 1)
	code := make(chan int, 1)
	var stderr syncBuffer
	go func() {
		code <- serveContext(ctx, []string{"-m", manifest, "--addr", "127.0.0.1:0"}, nil, io.Discard, &stderr, func(a string) { addrc <- a })
	}()
	base := "http://" + <-addrc
	ports["7311"] = base[strings.LastIndexByte(base, ':')+1:]
	require.Eventually(t, func() bool { s, _ := get(t, base+"/readyz", ""); return s == http.StatusOK }, time.Minute, 10*time.Millisecond, stderr.String())

	// curl -N: the stream's bytes as they come.
	resp, err := http.Get(base + "/v1/events")
	require.NoError(t, err)
	defer resp.Body.Close()
	var stream syncBuffer
	go func() { _, _ = io.Copy(&stream, resp.Body) }()

	// gate_client.py, as the page runs it.
	py := exec.Command("python3", "-u", filepath.Join(root, "examples", "python-client", "gate_client.py"),
		"--url", base, "--max-events", "2", "--timeout", "15")
	py.Env = append(os.Environ(), "GATE_TOKEN=...")
	out, err := py.StdoutPipe()
	require.NoError(t, err)
	py.Stderr = &stderr
	require.NoError(t, py.Start(), "python3 is needed (apt-get install python3)")
	var printed syncBuffer
	done := make(chan error, 1)
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			printed.Write([]byte(sc.Text() + "\n"))
		}
		done <- py.Wait()
	}()
	waitFor := func(b *syncBuffer, text string) {
		t.Helper()
		require.Eventually(t, func() bool { return strings.Contains(b.String(), text) }, time.Minute, 10*time.Millisecond,
			"waiting for %q in:\n%s", text, b.String())
	}
	waitFor(&stream, "event: hello")
	waitFor(&printed, "connected")

	// The listener comes...
	l := testnet.Listen(t, "tcp", "127.0.0.1:"+ports["16379"])
	waitFor(&stream, `"state":"available"`)
	waitFor(&printed, "tools (4)")
	// ... and goes.
	l.Close()
	waitFor(&stream, `"state":"unavailable"`)
	select {
	case err := <-done:
		require.NoError(t, err, "gate_client.py:\n%s\n%s", printed.String(), stderr.String())
	case <-time.After(time.Minute):
		t.Fatalf("gate_client.py did not end after two changes:\n%s", printed.String())
	}
	got := stream.String()
	// curl prints the stream up to the blank line after the last event.
	if i := strings.LastIndex(got, "\n\n"); i >= 0 {
		got = got[:i+2]
	}
	doctest.Compare(t, page, 0, events, ports.FromRun(got), golden.Update())
	doctest.Compare(t, page, 0, client, ports.FromRun(printed.String()), golden.Update())
	cancel()
	require.Equal(t, exitOK, <-code)
}
