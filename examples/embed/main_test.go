package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gate-dev/gate/internal/doctest"
	"github.com/gate-dev/gate/internal/golden"
)

// TestEmbed runs the agent loop against a real loopback service that goes
// away after the first model call: the loop hears about it at once and the
// next call is offered one tool fewer.
func TestEmbed(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			c.Close()
		}
	}()
	dir := t.TempDir()
	manifest := filepath.Join(dir, "gate.toml")
	require.NoError(t, os.WriteFile(manifest, []byte(fmt.Sprintf(`
[runtime]
ttl = "20ms"
grace = "0s"

[[tools]]
name = "cache_data"
description = "Cache data in Redis."
probe = "tcp:%s"

[[tools]]
name = "echo"
description = "Always here."
`, l.Addr())), 0o644))

	var out bytes.Buffer
	err = run(context.Background(), config{
		manifest: manifest,
		calls:    2,
		every:    50 * time.Millisecond,
		afterCall: func(call int) {
			if call == 1 {
				l.Close() // the service goes away
			}
		},
	}, &out)
	require.NoError(t, err)
	addr := regexp.QuoteMeta(l.Addr().String())
	// The change comes before the second call, from the Gate's background
	// refresh or from the call's own read, which waits for the probe and
	// its subscribers; or, when the refresh recorded the answer just
	// before the call read it, a moment after the call's line.
	change := `  change: tool cache_data is gone \(` + addr + `: connection refused\)\n`
	call2 := `model call 2: 1 tools \(echo\), schema \d+ bytes, skills prompt 0 bytes\n`
	assert.Regexp(t, `^model call 1: 2 tools \(cache_data, echo\), schema \d+ bytes, skills prompt 0 bytes\n`+
		`(`+change+call2+`|`+call2+change+`)$`, out.String())
}

// TestQuickstartManifest runs the loop on the quickstart manifest as
// README.md's example does, with its flags, and compares what it prints
// with the page (go test ./examples/embed -update rewrites the page's
// output). The manifest is a copy whose services are at free ports, so
// that a Redis or PostgreSQL of the machine's does not change the
// answer, and SERP_API_KEY is empty, so that nothing is sent to
// serpapi.com.
func TestQuickstartManifest(t *testing.T) {
	const command = "go run ./examples/embed -m examples/quickstart/gate.toml -calls 2 -every 100ms"
	t.Setenv("SERP_API_KEY", "")
	ports := doctest.Ports{}
	for _, p := range []string{"5432", "6379", "3333", "3334"} {
		ports.Free(t, p)
	}
	dir := t.TempDir()
	doctest.CopyTree(t, filepath.Join("..", "quickstart"), filepath.Join(dir, "examples", "quickstart"), ports.ToRun)

	var cfg config
	fs := flag.NewFlagSet("embed", flag.ContinueOnError)
	cfg.bind(fs)
	words := strings.Fields(command)
	require.Equal(t, []string{"go", "run", "./examples/embed"}, words[:3])
	require.NoError(t, fs.Parse(words[3:]))
	cfg.manifest = filepath.Join(dir, cfg.manifest)

	var out bytes.Buffer
	require.NoError(t, run(context.Background(), cfg, &out))
	doctest.Compare(t, filepath.Join("..", "..", "README.md"), 0, command, ports.FromRun(out.String()), golden.Update())
}
