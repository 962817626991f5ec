package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The reference MCP servers (testdata/tsservers), fronted by gatectl mcp
// and driven by the official TypeScript client: what a client gives and
// gets beyond tools passes through gate as it would directly.

// referenceServer is the manifest entry of a reference server: its
// command in testdata/tsservers, run with node from PATH.
func referenceServer(t *testing.T, name, bin, prefix string, args ...string) string {
	t.Helper()
	path, err := filepath.Abs(filepath.Join("testdata", "tsservers", "node_modules", ".bin", bin))
	require.NoError(t, err)
	_, err = os.Stat(path)
	require.NoError(t, err, "the reference servers are not installed in testdata/tsservers: run ./scripts/test, which installs them (npm ci)")
	argv, err := json.Marshal(append([]string{path}, args...))
	require.NoError(t, err)
	return fmt.Sprintf("\n[[servers]]\nname = %q\ncommand = %s\npass_env = [\"PATH\", \"HOME\"]\nprefix = %q\n", name, argv, prefix)
}

// waitTool waits until the client's tools include name.
func (c *tsClient) waitTool(t *testing.T, name string) {
	t.Helper()
	first := c.next(t, "the tools after connecting")
	names := first.Names
	for !slices.Contains(names, name) {
		e := c.next(t, "a list_changed with "+name)
		names = e.Names
	}
}

// server-filesystem started with no directory relies on its client's
// roots: through gate it is given the TypeScript client's, lists them as
// its allowed directories and reads a file in one, and never says it was
// given none while the client is there.
func TestFilesystemServerGetsTheClientsRoots(t *testing.T) {
	node := tsNode(t)
	bin := buildGatectlBinary(t)
	work, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	writeFile(t, filepath.Join(work, "hello.txt"), "hello from the root")
	manifest := mcpManifest(t, referenceServer(t, "fs", "mcp-server-filesystem", "fs_"))
	roots, err := json.Marshal([]map[string]string{{"uri": "file://" + work, "name": "work"}})
	require.NoError(t, err)
	t.Setenv("GATE_TS_ROOTS", string(roots))

	c := startTSClient(t, node, bin, manifest)
	c.waitTool(t, "fs_read_text_file")
	c.send(t, map[string]any{"op": "call", "name": "fs_list_allowed_directories"})
	e := c.expect(t, "result", "the allowed directories")
	require.False(t, e.IsError, e.Text)
	assert.Contains(t, e.Text, work)
	c.send(t, map[string]any{"op": "call", "name": "fs_read_text_file", "arguments": map[string]any{"path": filepath.Join(work, "hello.txt")}})
	e = c.expect(t, "result", "the file's text")
	require.False(t, e.IsError, e.Text)
	assert.Equal(t, "hello from the root", e.Text)

	// A new root, announced: the server follows it.
	other, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	c.send(t, map[string]any{"op": "roots", "roots": []map[string]string{{"uri": "file://" + other, "name": "other"}}})
	c.expect(t, "roots", "roots announced")
	for {
		c.send(t, map[string]any{"op": "call", "name": "fs_list_allowed_directories"})
		e = c.expect(t, "result", "the allowed directories")
		if strings.Contains(e.Text, other) {
			break
		}
	}
	assert.NotContains(t, e.Text, work)
	// While the client is there, the server never had no root. (Once it
	// leaves, the roots gate gives are none, and the server may say so
	// before gatectl stops it: that is the roots of no client, rightly.)
	served := c.stderr.String()

	require.NoError(t, c.stdin.Close())
	c.expect(t, "closed", "the session closed")
	<-c.done
	assert.Contains(t, c.stderr.String(), "Updated allowed directories from MCP roots")
	assert.NotContains(t, served, "No valid root directories")
}

// server-everything's log messages reach the TypeScript client once it
// has asked for a level, under the logger "everything" (or, for a message
// the server names a logger of its own for, "everything/" and that name).
func TestEverythingServerLogsReachTheClient(t *testing.T) {
	t.Parallel()
	node := tsNode(t)
	bin := buildGatectlBinary(t)
	manifest := mcpManifest(t, referenceServer(t, "everything", "mcp-server-everything", "ev_", "stdio"))

	c := startTSClient(t, node, bin, manifest)
	c.waitTool(t, "ev_toggle-simulated-logging")
	c.send(t, map[string]any{"op": "level", "level": "debug"})
	c.expect(t, "level", "logging/setLevel answered")
	c.send(t, map[string]any{"op": "call", "name": "ev_toggle-simulated-logging"})
	// The simulated messages ("... -level message"); the server may log
	// something else of its own first (that the client sent no roots,
	// when the machine is slow), which must come under its server's
	// name too.
	var log tsEvent
	for {
		log = c.next(t, "a simulated log message")
		if log.Event != "log" {
			continue
		}
		require.Len(t, log.Names, 2)
		assert.Contains(t, []string{"debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"}, log.Names[0])
		if strings.Contains(log.Text, "message") {
			break
		}
		assert.True(t, strings.HasPrefix(log.Names[1], "everything/"), "logger %q of %s", log.Names[1], log.Text)
	}
	assert.Equal(t, "everything", log.Names[1])
}
