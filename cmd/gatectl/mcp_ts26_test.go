package main

import (
	"bufio"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The TypeScript SDK v2's client (testdata/tsclient26/client26.mjs, pinned
// to MCP 2026-07-28) through gatectl: over serve's /mcp with
// --mcp-stateless, and over stdio with gatectl mcp.

const tsClient26Dir = "testdata/tsclient26"

// ts26Client is client26.mjs running under node.
type ts26Client struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	events chan ts26Event
	stderr *syncBuffer
	done   chan struct{} // closed once the process has exited; err then says how
	err    error
}

type ts26Event struct {
	Event   string          `json:"event"`
	Version string          `json:"version"`
	Era     string          `json:"era"`
	Names   []string        `json:"names"`
	Text    string          `json:"text"`
	IsError bool            `json:"isError"`
	Message string          `json:"message"`
	Honored map[string]bool `json:"honored"`
}

// startTS26Client runs client26.mjs with args (http URL TOKEN, or stdio
// COMMAND ARG...) and env. A missing node or SDK fails the test:
// scripts/test installs them.
func startTS26Client(t *testing.T, env []string, args ...string) *ts26Client {
	t.Helper()
	node, err := exec.LookPath("node")
	require.NoError(t, err, "node is not installed: run ./scripts/test, which installs Node.js and npm")
	_, err = os.Stat(filepath.Join(tsClient26Dir, "node_modules", "@modelcontextprotocol", "client", "package.json"))
	require.NoError(t, err, "the TypeScript SDK v2 client is not installed in %s: run ./scripts/test, which installs it (npm ci)", tsClient26Dir)

	c := &ts26Client{events: make(chan ts26Event, 1000), stderr: &syncBuffer{}, done: make(chan struct{})}
	c.cmd = exec.Command(node, append([]string{filepath.Join(tsClient26Dir, "client26.mjs")}, args...)...)
	c.cmd.Env = env
	c.cmd.Stderr = c.stderr // gatectl mcp's too: the client passes it on
	c.stdin, err = c.cmd.StdinPipe()
	require.NoError(t, err)
	stdout, err := c.cmd.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, c.cmd.Start())
	go func() {
		sc := bufio.NewScanner(stdout)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			var e ts26Event
			if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
				e = ts26Event{Event: "error", Message: "not an event: " + sc.Text()}
			}
			c.events <- e
		}
		close(c.events)
		c.err = c.cmd.Wait()
		close(c.done)
	}()
	t.Cleanup(func() {
		_ = c.stdin.Close()
		select {
		case <-c.done:
		case <-time.After(mcpWait):
			_ = c.cmd.Process.Kill()
		}
	})
	return c
}

func (c *ts26Client) send(t *testing.T, cmd map[string]any) {
	t.Helper()
	b, err := json.Marshal(cmd)
	require.NoError(t, err)
	_, err = c.stdin.Write(append(b, '\n'))
	require.NoError(t, err)
}

// next returns the next event, whatever it is, failing the test when the
// client ends or says nothing in time.
func (c *ts26Client) next(t *testing.T, what string) ts26Event {
	t.Helper()
	select {
	case e, ok := <-c.events:
		if !ok {
			t.Fatalf("waiting for %s: the TypeScript client ended:\n%s", what, c.stderr.String())
		}
		return e
	case <-time.After(mcpWait):
		t.Fatalf("waiting for %s: nothing from the TypeScript client in %v\nstderr:\n%s", what, mcpWait, c.stderr.String())
	}
	return ts26Event{}
}

// expect returns the next event of kind, past any "changed" (a list
// change may come at any time once listening), failing on an error.
func (c *ts26Client) expect(t *testing.T, kind, what string) ts26Event {
	t.Helper()
	for {
		e := c.next(t, what)
		require.NotEqual(t, "error", e.Event, "waiting for %s: %s\nstderr:\n%s", what, e.Message, c.stderr.String())
		if e.Event == kind {
			return e
		}
		require.Equal(t, "changed", e.Event, "waiting for %s, got %+v", what, e)
	}
}

// waitList waits for a notifications/tools/list_changed after which a
// tools/list is want: each change heard is answered with a list, until
// one is want (a flip may be heard as more than one change, and one may
// come while a list is on its way).
func (c *ts26Client) waitList(t *testing.T, want ...string) {
	t.Helper()
	slices.Sort(want)
	heard := false
	for {
		if !heard {
			e := c.next(t, "a tools list change")
			require.Equal(t, "changed", e.Event, "waiting for a list change to %v, got %+v\nstderr:\n%s", want, e, c.stderr.String())
		}
		c.send(t, map[string]any{"op": "list"})
		heard = false
		for {
			e := c.next(t, "tools/list")
			if e.Event == "changed" {
				heard = true
				continue
			}
			require.Equal(t, "tools", e.Event, "waiting for tools/list: %+v\nstderr:\n%s", e, c.stderr.String())
			if slices.Equal(e.Names, want) {
				return
			}
			break
		}
	}
}

// driveTS26 is the scenario both transports run: connected at
// 2026-07-28, the client lists both tools and calls one on the upstream,
// listens for tool list changes, hears w_echo go as its probe's port
// closes and come back as it reopens (a list after each shows it), calls
// it again, and closes.
func driveTS26(t *testing.T, c *ts26Client, rule *mcpListener) {
	t.Helper()
	e := c.expect(t, "connected", "connecting")
	require.Equal(t, "2026-07-28", e.Version, "the version the client negotiated")
	require.Equal(t, "modern", e.Era)

	all := []string{"w_echo", "w_shout"}
	c.send(t, map[string]any{"op": "list"})
	assert.Equal(t, all, c.expect(t, "tools", "the first tools/list").Names)

	call := func(text string) ts26Event {
		c.send(t, map[string]any{"op": "call", "name": "w_echo", "arguments": map[string]any{"text": text}})
		return c.expect(t, "result", "the result of w_echo")
	}
	res := call("hi from TypeScript v2")
	assert.Equal(t, "echo: hi from TypeScript v2", res.Text)
	assert.False(t, res.IsError)

	c.send(t, map[string]any{"op": "listen"})
	e = c.expect(t, "listening", "the listen's acknowledgement")
	assert.True(t, e.Honored["toolsListChanged"], "the filter gate honours: %v", e.Honored)

	rule.close()
	c.waitList(t, "w_shout")
	rule.reopen()
	c.waitList(t, all...)
	res = call("back again")
	assert.Equal(t, "echo: back again", res.Text)
	assert.False(t, res.IsError)

	require.NoError(t, c.stdin.Close())
	c.expect(t, "closed", "the client closing")
	select {
	case <-c.done:
		require.NoError(t, c.err, "the TypeScript client:\n%s", c.stderr.String())
	case <-time.After(mcpWait):
		t.Fatalf("the TypeScript client did not exit:\n%s", c.stderr.String())
	}
}

// serveForTS26 runs gatectl serve with a token in front of the HTTP test
// upstream (webServer), with args added, and returns its /mcp URL.
func serveForTS26(t *testing.T, token string, rule *mcpListener, args ...string) string {
	t.Helper()
	manifest := mcpManifest(t, webServer(mcpHTTPUpstream(t), rule))
	s := startServeArgs(t, buildGatectlBinary(t), mcpEnv(t, "GATE_TOKEN="+token),
		append([]string{"-m", manifest, "--addr", "127.0.0.1:0"}, args...)...)
	t.Cleanup(func() {
		if s.cmd.ProcessState == nil {
			_ = s.cmd.Process.Kill()
		}
	})
	return "http://" + s.addr + "/mcp"
}

// TestTS26ClientOverServeStateless: the TypeScript SDK v2's client on
// serve's /mcp with --mcp-stateless speaks 2026-07-28 to the end.
func TestTS26ClientOverServeStateless(t *testing.T) {
	t.Parallel()
	const token = "ts26-token-0123456789abcdef"
	rule := newMCPListener(t)
	endpoint := serveForTS26(t, token, rule, "--mcp-stateless")
	driveTS26(t, startTS26Client(t, mcpEnv(t), "http", endpoint, token), rule)
}

// TestTS26ClientOverStdio: the same client launches gatectl mcp and
// speaks 2026-07-28 to it over stdio.
func TestTS26ClientOverStdio(t *testing.T) {
	t.Parallel()
	bin := buildGatectlBinary(t)
	rule := newMCPListener(t)
	manifest := mcpManifest(t, webServer(mcpHTTPUpstream(t), rule))
	c := startTS26Client(t, mcpEnv(t), "stdio", bin, "mcp", "-m", manifest)
	driveTS26(t, c, rule)
	assert.Contains(t, c.stderr.String(), "gatectl mcp: stopped")
}

// TestTS26ClientRefusedWithoutStateless: without --mcp-stateless, /mcp
// offers no 2026-07-28, so the client, pinned to it, fails to connect,
// saying so, rather than speaking an older version.
func TestTS26ClientRefusedWithoutStateless(t *testing.T) {
	t.Parallel()
	const token = "ts26-token-0123456789abcdef"
	endpoint := serveForTS26(t, token, newMCPListener(t))
	c := startTS26Client(t, mcpEnv(t), "http", endpoint, token)
	e := c.next(t, "the connect's failure")
	require.Equal(t, "error", e.Event, "event %+v", e)
	assert.Contains(t, e.Message, "connect:")
	assert.Contains(t, e.Message, "2026-07-28")
	select {
	case <-c.done:
		require.Error(t, c.err, "the client exits non-zero")
	case <-time.After(mcpWait):
		t.Fatalf("the TypeScript client did not exit:\n%s", c.stderr.String())
	}
}
