package main

import (
	"context"
	"io"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestMCPReloadsOnSIGHUP: gatectl mcp reloads the manifest on SIGHUP (a
// value on the reload channel), logs it as serve does, and stops cleanly
// on SIGTERM while its client is still connected.
func TestMCPReloadsOnSIGHUP(t *testing.T) {
	t.Setenv("GATE_CACHE_DIR", t.TempDir())
	manifest := mcpManifest(t, "[[tools]]\nname = \"echo\"\n")
	in, stdin := io.Pipe()
	defer stdin.Close()
	var stderr syncBuffer
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	reload := make(chan os.Signal, 1)
	code := make(chan int, 1)
	go func() { code <- mcpContext(ctx, []string{"-m", manifest}, in, reload, io.Discard, &stderr) }()

	reload <- os.Interrupt // any value: the test stands in for SIGHUP
	reloaded := "gatectl mcp: reloaded " + manifest + " on SIGHUP"
	require.Eventually(t, func() bool { return strings.Contains(stderr.String(), reloaded) }, mcpWait, 10*time.Millisecond, "no %q", reloaded)

	cancel()
	select {
	case c := <-code:
		assert.Equal(t, exitOK, c, stderr.String())
	case <-time.After(mcpWait):
		t.Fatal("gatectl mcp did not stop")
	}
	assert.Contains(t, stderr.String(), "gatectl mcp: stopped\n")
}
