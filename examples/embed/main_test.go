package main

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
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

// TestQuickstartManifest runs the loop once on the quickstart manifest, as
// the doc comment shows.
func TestQuickstartManifest(t *testing.T) {
	var out bytes.Buffer
	err := run(context.Background(), config{manifest: filepath.Join("..", "quickstart", "gate.toml"), calls: 1}, &out)
	require.NoError(t, err)
	assert.Regexp(t, `^model call 1: \d+ tools \(.*search_content.*\), schema \d+ bytes, skills prompt \d+ bytes\n$`, out.String())
}
