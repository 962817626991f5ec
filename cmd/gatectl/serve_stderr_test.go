package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// stuckWriter is a stderr nobody reads: once shut, every Write blocks
// until the test ends.
type stuckWriter struct {
	mu      sync.Mutex
	b       strings.Builder
	shut    bool
	release chan struct{}
}

func (w *stuckWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	if w.shut {
		w.mu.Unlock()
		<-w.release
		return len(p), nil
	}
	defer w.mu.Unlock()
	return w.b.Write(p)
}

func (w *stuckWriter) stop() {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.shut = true
}

// TestServeWithAStderrNobodyReads: gatectl serve -v logs a line for every
// probe run that fails, to a stderr that takes nothing once serve is up
// (a pipe whose reader went away). Answers stay fresh, the API answers,
// and on SIGTERM serve stops within its bound: nothing waits on stderr.
func TestServeWithAStderrNobodyReads(t *testing.T) {
	dir := t.TempDir()
	manifest := filepath.Join(dir, "gate.toml")
	var body strings.Builder
	body.WriteString("[runtime]\nttl = \"20ms\"\n")
	for i := range 10 {
		fmt.Fprintf(&body, "[[tools]]\nname = \"t%d\"\nprobe = \"env:GATE_TEST_UNSET_%d\"\n", i, i)
	}
	body.WriteString("[[tools]]\nname = \"always\"\n")
	writeFile(t, manifest, body.String())

	stderr := &stuckWriter{release: make(chan struct{})}
	t.Cleanup(func() { close(stderr.release) })
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	addrc, code := make(chan string, 1), make(chan int, 1)
	go func() {
		code <- serveContext(ctx, []string{"-m", manifest, "--addr", "127.0.0.1:0", "-v"}, nil, io.Discard, stderr,
			func(a string) { addrc <- a })
	}()
	base := "http://" + <-addrc
	stderr.stop()

	// A second of runs that each log, every 20 ms per tool, into nothing.
	time.Sleep(time.Second)
	client := &http.Client{Timeout: 10 * time.Second}
	for _, path := range []string{"/v1/tools", "/v1/status"} {
		resp, err := client.Get(base + path)
		require.NoError(t, err, "%s with a stderr nobody reads", path)
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		require.Equal(t, http.StatusOK, resp.StatusCode, path)
		if path == "/v1/tools" {
			assert.Contains(t, string(b), `"always"`)
		}
	}

	cancel()
	select {
	case c := <-code:
		assert.Equal(t, exitOK, c)
	case <-time.After(30 * time.Second):
		t.Fatal("gatectl serve did not stop within 30 s of SIGTERM with a stderr nobody reads (its bound is 11 s)")
	}
}
