package main

import (
	"bytes"
	"context"
	"io"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gate-dev/gate/internal/mcpgw"
)

// mcp and serve take the gateway's flags alike, and refuse a value out of
// range before they start anything.
func TestGatewayFlags(t *testing.T) {
	manifest := filepath.Join(t.TempDir(), "gate.toml")
	writeFile(t, manifest, "")
	commands := map[string]func(args []string, stderr io.Writer) int{
		"gatectl mcp": func(args []string, stderr io.Writer) int {
			return mcpContext(context.Background(), args, strings.NewReader(""), nil, io.Discard, stderr)
		},
		"gatectl serve": func(args []string, stderr io.Writer) int {
			return serveContext(context.Background(), args, nil, io.Discard, stderr, nil)
		},
	}
	for name, run := range commands {
		for _, tc := range []struct {
			flag, value, want string
		}{
			{"--list-changed-interval", "-1s", name + ": --list-changed-interval -1s: want 0 (a notice at each change) or more\n"},
			{"--list-changed-interval", "soon", `invalid value "soon" for flag --list-changed-interval: parse error`},
			{"--startup-wait", "-1s", name + ": --startup-wait -1s: want 0 (answer at once) to 1m0s\n"},
			{"--startup-wait", "2m", name + ": --startup-wait 2m0s: want 0 (answer at once) to 1m0s\n"},
		} {
			var stderr bytes.Buffer
			code := run([]string{"-m", manifest, tc.flag, tc.value}, &stderr)
			assert.Equal(t, exitUsage, code, "%s %s", name, tc.value)
			assert.Contains(t, stderr.String(), tc.want, "%s %s", name, tc.value)
		}
	}

	var f gatewayFlags
	fs := newCommand("gatectl mcp", "", io.Discard, io.Discard)
	f.bind(fs.FlagSet)
	require.NoError(t, fs.Parse([]string{"--list-changed-interval", "30s"}))
	cfg, ok := f.config("gatectl mcp", io.Discard)
	require.True(t, ok)
	assert.Equal(t, mcpgw.NewConfig().WithListChangedInterval(30*time.Second), cfg)

	for value, want := range map[string]mcpgw.Config{
		"0":  mcpgw.NewConfig().WithStartupWait(-1),
		"3s": mcpgw.NewConfig().WithStartupWait(3 * time.Second),
		"5s": mcpgw.NewConfig(),
	} {
		var f gatewayFlags
		fs := newCommand("gatectl mcp", "", io.Discard, io.Discard)
		f.bind(fs.FlagSet)
		require.NoError(t, fs.Parse([]string{"--startup-wait", value}))
		cfg, ok := f.config("gatectl mcp", io.Discard)
		require.True(t, ok)
		assert.Equal(t, want, cfg, "--startup-wait %s", value)
	}
}
