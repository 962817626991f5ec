package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gate-dev/gate/internal/mcptest"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The tests of gatectl mcp, and of serve's /mcp, run the real gatectl
// binary against real MCP servers written with the Go SDK: over
// streamable HTTP in this process, or over stdio as this test binary run
// again with GATECTL_TEST_UPSTREAM set (TestMain). The downstream clients
// are the Go SDK's and the official TypeScript SDK's (testdata/tsclient,
// installed by scripts/test).

// mcpWait bounds every wait of these tests: long enough for a loaded
// machine, and failing rather than hanging when gatectl never gets there.
const mcpWait = 15 * time.Second

func TestMain(m *testing.M) {
	if mcptest.RunHostile(os.Getenv(mcptest.HostileEnv)) {
		return
	}
	if os.Getenv("GATECTL_TEST_UPSTREAM") != "" {
		runMCPTestUpstream()
		return
	}
	// A compile that takes longer than gate's default on a loaded machine
	// is not what these tests test (runtime's tests test the bound).
	compileTimeout = 10 * time.Minute
	os.Exit(withGatectlBinaryDir(m))
}

// runMCPTestUpstream serves the test upstream on stdin and stdout until
// stdin ends, having written its pid to $GATECTL_TEST_PIDFILE (when set)
// so that a test can tell whether it is still running.
func runMCPTestUpstream() {
	if f := os.Getenv("GATECTL_TEST_PIDFILE"); f != "" {
		if err := os.WriteFile(f, []byte(strconv.Itoa(os.Getpid())), 0o600); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
	}
	_ = newMCPTestUpstream().Run(context.Background(), &mcp.StdioTransport{})
}

type mcpTextArgs struct {
	Text string `json:"text"`
}

// newMCPTestUpstream is an MCP server with two tools: echo answers
// "echo: TEXT", shout answers TEXT in capitals.
func newMCPTestUpstream() *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "gatectl-test-upstream", Version: "1"}, nil)
	mcp.AddTool(s, &mcp.Tool{Name: "echo", Description: "Echoes its text."},
		func(_ context.Context, _ *mcp.CallToolRequest, in mcpTextArgs) (*mcp.CallToolResult, any, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "echo: " + in.Text}}}, nil, nil
		})
	mcp.AddTool(s, &mcp.Tool{Name: "shout", Description: "Shouts its text."},
		func(_ context.Context, _ *mcp.CallToolRequest, in mcpTextArgs) (*mcp.CallToolResult, any, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: strings.ToUpper(in.Text)}}}, nil, nil
		})
	return s
}

// mcpHTTPUpstream serves the test upstream over streamable HTTP on
// loopback until the test ends, and returns its URL.
func mcpHTTPUpstream(t *testing.T) string {
	t.Helper()
	s := newMCPTestUpstream()
	srv := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, nil))
	t.Cleanup(func() {
		srv.CloseClientConnections()
		srv.Close()
	})
	return srv.URL
}

// mcpListener is a loopback TCP listener that a tcp: probe watches;
// close and reopen flip the probe.
type mcpListener struct {
	t    *testing.T
	addr string
	l    net.Listener
}

func newMCPListener(t *testing.T) *mcpListener {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	ml := &mcpListener{t: t, addr: l.Addr().String(), l: l}
	go mcpAcceptAll(l)
	t.Cleanup(ml.close)
	return ml
}

func mcpAcceptAll(l net.Listener) {
	for {
		c, err := l.Accept()
		if err != nil {
			return
		}
		_ = c.Close()
	}
}

func (l *mcpListener) close() {
	if l.l != nil {
		_ = l.l.Close()
		l.l = nil
	}
}

func (l *mcpListener) reopen() {
	l.t.Helper()
	var nl net.Listener
	require.Eventually(l.t, func() bool {
		var err error
		nl, err = net.Listen("tcp", l.addr)
		return err == nil
	}, mcpWait, 10*time.Millisecond, "listening again on %s", l.addr)
	l.l = nl
	go mcpAcceptAll(nl)
}

// mcpManifest writes a manifest in a temporary directory: short-lived
// probe answers, so that a flip is seen within a tick, then servers.
func mcpManifest(t *testing.T, servers string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "gate.toml")
	writeFile(t, path, "[runtime]\nttl = \"30ms\"\ngrace = \"0s\"\n"+servers)
	return path
}

// webServer is the manifest entry of the HTTP test upstream, its tools
// prefixed w_, with echo offered only while rule accepts connections.
func webServer(url string, rule *mcpListener) string {
	return fmt.Sprintf(`
[[servers]]
name = "web"
url = %q
prefix = "w_"

[[servers.tools]]
name = "echo"
probe = "tcp:%s"
`, url, rule.addr)
}

// mcpEnv is the environment of a gatectl process: this one's, with a
// private compilation cache.
func mcpEnv(t *testing.T, extra ...string) []string {
	t.Helper()
	return append(append(os.Environ(), "GATE_CACHE_DIR="+t.TempDir()), extra...)
}

// tsClient is testdata/tsclient/client.mjs running under node: the
// official TypeScript SDK's client, which launches gatectl mcp itself.
type tsClient struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	events chan tsEvent
	stderr *syncBuffer
	done   chan struct{} // closed once the process has exited; err then says how
	err    error
}

type tsEvent struct {
	Event   string   `json:"event"`
	Names   []string `json:"names"`
	Text    string   `json:"text"`
	IsError bool     `json:"isError"`
	Message string   `json:"message"`
}

const tsClientDir = "testdata/tsclient"

// tsNode returns the path of node, having checked that the TypeScript SDK
// is installed. A missing node or SDK fails the test: scripts/test
// installs them, and a skipped test would hide that they are missing.
func tsNode(t *testing.T) string {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		t.Fatalf("node is not installed (%v): run ./scripts/test, which installs Node.js, npm and the TypeScript MCP SDK this test drives gatectl with", err)
	}
	if _, err := os.Stat(filepath.Join(tsClientDir, "node_modules", "@modelcontextprotocol", "sdk", "package.json")); err != nil {
		t.Fatalf("the TypeScript MCP SDK is not installed in %s (%v): run ./scripts/test, which installs it (npm ci)", tsClientDir, err)
	}
	return node
}

// startTSClient runs the TypeScript client under node against gatectl
// bin and the manifest.
func startTSClient(t *testing.T, node, bin, manifest string) *tsClient {
	t.Helper()
	var err error
	c := &tsClient{events: make(chan tsEvent, 1000), stderr: &syncBuffer{}, done: make(chan struct{})}
	c.cmd = exec.Command(node, filepath.Join(tsClientDir, "client.mjs"), bin, manifest)
	c.cmd.Env = mcpEnv(t)
	c.cmd.Stderr = c.stderr // gatectl's stderr too: the client inherits it
	c.stdin, err = c.cmd.StdinPipe()
	require.NoError(t, err)
	stdout, err := c.cmd.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, c.cmd.Start())
	go func() {
		sc := bufio.NewScanner(stdout)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			var e tsEvent
			if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
				e = tsEvent{Event: "error", Message: "not an event: " + sc.Text()}
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

// send writes one command to the client.
func (c *tsClient) send(t *testing.T, cmd map[string]any) {
	t.Helper()
	b, err := json.Marshal(cmd)
	require.NoError(t, err)
	_, err = c.stdin.Write(append(b, '\n'))
	require.NoError(t, err)
}

// next returns the next event, failing the test on an error event or
// when none comes in time.
func (c *tsClient) next(t *testing.T, what string) tsEvent {
	t.Helper()
	select {
	case e, ok := <-c.events:
		if !ok {
			t.Fatalf("waiting for %s: the TypeScript client ended:\n%s", what, c.stderr.String())
		}
		if e.Event == "error" {
			t.Fatalf("waiting for %s: the TypeScript client says: %s\nstderr:\n%s", what, e.Message, c.stderr.String())
		}
		return e
	case <-time.After(mcpWait):
		t.Fatalf("waiting for %s: nothing from the TypeScript client in %v\nstderr:\n%s", what, mcpWait, c.stderr.String())
	}
	return tsEvent{}
}

// expect returns the next event of kind ("tools", "result", "closed"),
// past any "changed" event: a list_changed may come just after a listing
// that already saw the change.
func (c *tsClient) expect(t *testing.T, kind, what string) tsEvent {
	t.Helper()
	for {
		e := c.next(t, what)
		if e.Event == kind {
			return e
		}
		require.Equal(t, "changed", e.Event, "waiting for %s, got %+v", what, e)
	}
}

// waitChanged waits for a "changed" event (each one is a
// notifications/tools/list_changed) whose list is want.
func (c *tsClient) waitChanged(t *testing.T, want ...string) {
	t.Helper()
	slices.Sort(want)
	for {
		e := c.next(t, fmt.Sprintf("list_changed to %v", want))
		require.Equal(t, "changed", e.Event, "event %+v", e)
		if slices.Equal(e.Names, want) {
			return
		}
	}
}

// TestTypeScriptClientSeesOnlyWhatCanRun drives gatectl mcp with the
// official TypeScript SDK's client over stdio: it sees the upstream's
// tools under their prefix, calls one, and sees a tool go and come back,
// with notifications/tools/list_changed, as its rule's probe flips.
func TestTypeScriptClientSeesOnlyWhatCanRun(t *testing.T) {
	t.Parallel()
	node := tsNode(t)
	bin := buildGatectlBinary(t)
	rule := newMCPListener(t)
	manifest := mcpManifest(t, webServer(mcpHTTPUpstream(t), rule))
	all := []string{"w_echo", "w_shout"}

	c := startTSClient(t, node, bin, manifest)
	// The first tools/list, made right after connecting, waits for the
	// upstream's first connection (the startup wait): a client that lists
	// once sees every tool that can run.
	first := c.next(t, "the tools after connecting")
	require.Equal(t, "tools", first.Event, "event %+v", first)
	require.Equal(t, all, first.Names, "the first tools/list")

	c.send(t, map[string]any{"op": "list"})
	e := c.expect(t, "tools", "tools/list")
	assert.Equal(t, all, e.Names)

	c.send(t, map[string]any{"op": "call", "name": "w_echo", "arguments": map[string]any{"text": "hi from TypeScript"}})
	e = c.expect(t, "result", "the result of w_echo")
	assert.Equal(t, "echo: hi from TypeScript", e.Text)
	assert.False(t, e.IsError)

	rule.close()
	c.waitChanged(t, "w_shout")
	c.send(t, map[string]any{"op": "call", "name": "w_shout", "arguments": map[string]any{"text": "still here"}})
	e = c.expect(t, "result", "the result of w_shout")
	assert.Equal(t, "STILL HERE", e.Text)

	rule.reopen()
	c.waitChanged(t, all...)

	// The end of the client's stdin closes the session; gatectl stops.
	require.NoError(t, c.stdin.Close())
	c.expect(t, "closed", "the session closed")
	select {
	case <-c.done:
		require.NoError(t, c.err, "the TypeScript client:\n%s", c.stderr.String())
	case <-time.After(mcpWait):
		t.Fatalf("the TypeScript client did not exit:\n%s", c.stderr.String())
	}
	assert.Contains(t, c.stderr.String(), "gatectl mcp: stopped")
}

// goClient is the Go SDK's client on a session with gatectl.
type goClient struct{ *mcptest.Client }

func newGoClient() (*mcp.Client, *goClient) {
	cl, c := mcptest.New("gatectl-test-client")
	return cl, &goClient{c}
}

func (c *goClient) call(t *testing.T, name, text string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), mcpWait)
	defer cancel()
	res, err := c.Session.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: map[string]any{"text": text}})
	require.NoError(t, err)
	require.False(t, res.IsError, "%s: %+v", name, res.Content)
	return mcptest.Text(res)
}

// TestMCPStdioGoClient drives the gatectl binary with the Go SDK's client
// over stdio: the tools, a call, and a flip with list_changed.
func TestMCPStdioGoClient(t *testing.T) {
	t.Parallel()
	bin := buildGatectlBinary(t)
	rule := newMCPListener(t)
	manifest := mcpManifest(t, webServer(mcpHTTPUpstream(t), rule))

	cmd := exec.Command(bin, "mcp", "-m", manifest)
	cmd.Env = mcpEnv(t)
	var stderr syncBuffer
	cmd.Stderr = &stderr
	cl, c := newGoClient()
	ctx, cancel := context.WithTimeout(context.Background(), mcpWait)
	defer cancel()
	cs, err := cl.Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	require.NoError(t, err)
	c.Session = cs
	closed := false
	defer func() {
		if !closed {
			_ = cs.Close()
		}
	}()

	c.WaitTools(t, "w_echo", "w_shout")
	assert.Equal(t, "echo: hi from Go", c.call(t, "w_echo", "hi from Go"))
	time.Sleep(100 * time.Millisecond) // past the SDK's notification debounce
	c.Drain()

	rule.close()
	c.WaitChanged(t)
	c.WaitTools(t, "w_shout")
	ctx2, cancel2 := context.WithTimeout(context.Background(), mcpWait)
	defer cancel2()
	_, err = cs.CallTool(ctx2, &mcp.CallToolParams{Name: "w_echo", Arguments: map[string]any{"text": "x"}})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "is not available now")

	rule.reopen()
	c.WaitChanged(t)
	c.WaitTools(t, "w_echo", "w_shout")

	// Closing the session ends gatectl's stdin: it stops, cleanly.
	closed = true
	require.NoError(t, cs.Close(), "stderr:\n%s", stderr.String())
	require.NotNil(t, cmd.ProcessState)
	assert.Equal(t, 0, cmd.ProcessState.ExitCode())
	assert.Contains(t, stderr.String(), "gatectl mcp: stopped")
}

// TestMCPStdioSIGTERM sends SIGTERM to gatectl mcp while a client's
// session is open and a stdio upstream runs: gatectl exits 0 within 10 s,
// says it stopped, and the upstream process is gone.
func TestMCPStdioSIGTERM(t *testing.T) {
	t.Parallel()
	bin := buildGatectlBinary(t)
	exe, err := os.Executable()
	require.NoError(t, err)
	pidFile := filepath.Join(t.TempDir(), "upstream.pid")
	manifest := mcpManifest(t, fmt.Sprintf(`
[[servers]]
name = "local"
command = [%q]
env = { GATECTL_TEST_UPSTREAM = "stdio", GATECTL_TEST_PIDFILE = %q }
prefix = "s_"
`, exe, pidFile))

	cmd := exec.Command(bin, "mcp", "-m", manifest)
	cmd.Env = mcpEnv(t)
	g := startMCP(t, cmd)
	c := g.client
	c.WaitTools(t, "s_echo", "s_shout")
	assert.Equal(t, "echo: over stdio", c.call(t, "s_echo", "over stdio"))

	b, err := os.ReadFile(pidFile)
	require.NoError(t, err, "the stdio upstream never wrote its pid")
	pid, err := strconv.Atoi(string(b))
	require.NoError(t, err)
	require.False(t, mcptest.ProcessGone(pid), "the upstream (pid %d) is not running", pid)

	g.terminate(t)
	assert.Equal(t, 0, g.cmd.ProcessState.ExitCode())
	// gatectl closes its upstreams before it exits; the kernel's
	// parent-death signal is only the backstop. Either way, none is left.
	require.Eventually(t, func() bool { return mcptest.ProcessGone(pid) }, 5*time.Second, 10*time.Millisecond,
		"the stdio upstream (pid %d) still runs after gatectl mcp exited", pid)
}

// bearerTransport adds a bearer token to every request.
// bearerTransport sends the token with every request, over connections
// of its own, as a client in a process of its own would: a client that
// shared http.DefaultTransport with the tests' hostile clients would take
// connections they dialed and never used from the pool, which a server
// under a connection flood closes to make room (they never showed the
// token), and fail a POST that no HTTP client retries.
type bearerTransport struct {
	token string
	base  *http.Transport
}

func newBearerTransport(token string) bearerTransport {
	return bearerTransport{token: token, base: http.DefaultTransport.(*http.Transport).Clone()}
}

func (b bearerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return b.base.RoundTrip(r)
}

// postMCP posts an initialize request to url with the given Host header
// and token (none when empty), and returns the status.
func postMCP(t *testing.T, url, host, token string) int {
	t.Helper()
	body := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"probe","version":"1"}}}`
	req, err := http.NewRequest("POST", url, strings.NewReader(body))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if host != "" {
		req.Host = host
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	client := &http.Client{Timeout: mcpWait}
	resp, err := client.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, resp.Body)
	return resp.StatusCode
}

// TestServeMCPEndpointAndSIGTERM runs gatectl serve as a real process and
// uses its /mcp endpoint with the Go SDK's streamable HTTP client: the
// endpoint has the API's Host check (without a token) and token check
// (with one), and SIGTERM stops serve within 10 s with a session open.
func TestServeMCPEndpointAndSIGTERM(t *testing.T) {
	t.Parallel()
	bin := buildGatectlBinary(t)
	rule := newMCPListener(t)
	manifest := mcpManifest(t, webServer(mcpHTTPUpstream(t), rule))

	for _, token := range []string{"", "s3cret-mcp-token"} {
		name := "without a token"
		if token != "" {
			name = "with a token"
		}
		t.Run(name, func(t *testing.T) {
			var env []string
			if token != "" {
				env = mcpEnv(t, "GATE_TOKEN="+token)
			} else {
				env = mcpEnv(t)
			}
			s := startServeArgs(t, bin, env, "-m", manifest, "--addr", "127.0.0.1:0")
			t.Cleanup(func() {
				if s.cmd.ProcessState == nil {
					_ = s.cmd.Process.Kill()
				}
			})
			endpoint := "http://" + s.addr + "/mcp"

			if token == "" {
				assert.Equal(t, http.StatusMisdirectedRequest, postMCP(t, endpoint, "evil.example", ""),
					"/mcp without a token, for a Host that is not loopback")
				assert.Equal(t, http.StatusMisdirectedRequest, postMCP(t, endpoint, "evil.example:"+strings.Split(s.addr, ":")[1], ""))
			} else {
				assert.Equal(t, http.StatusUnauthorized, postMCP(t, endpoint, "", ""), "/mcp without the bearer token")
				assert.Equal(t, http.StatusUnauthorized, postMCP(t, endpoint, "", "wrong"), "/mcp with a wrong bearer token")
				assert.Equal(t, http.StatusOK, postMCP(t, endpoint, "", token), "/mcp with the bearer token")
				// With a token /mcp serves any Host, as the rest of the
				// API does: a reverse proxy on the same machine that
				// keeps the client's Host header is not refused.
				assert.Equal(t, http.StatusOK, postMCP(t, endpoint, "gate.example", token),
					"/mcp with the token, for a Host that is not loopback, arriving on loopback")
			}

			transport := &mcp.StreamableClientTransport{Endpoint: endpoint}
			if token != "" {
				transport.HTTPClient = &http.Client{Transport: newBearerTransport(token)}
			}
			cl, c := newGoClient()
			ctx, cancel := context.WithTimeout(context.Background(), mcpWait)
			defer cancel()
			cs, err := cl.Connect(ctx, transport, nil)
			require.NoError(t, err, "stderr:\n%s", s.stderr.String())
			c.Session = cs
			defer cs.Close()
			c.WaitTools(t, "w_echo", "w_shout")
			assert.Equal(t, "echo: over HTTP", c.call(t, "w_echo", "over HTTP"))

			// The session stays open (its standalone stream with it) while
			// serve gets SIGTERM.
			sent := time.Now()
			require.NoError(t, s.cmd.Process.Signal(syscall.SIGTERM))
			select {
			case err := <-s.done:
				require.NoError(t, err, "gatectl serve exited badly after SIGTERM:\n%s", s.stderr.String())
				t.Logf("gatectl serve stopped %v after SIGTERM", time.Since(sent).Round(time.Millisecond))
			case <-time.After(10 * time.Second):
				_ = s.cmd.Process.Signal(syscall.SIGQUIT) // a goroutine dump on stderr
				time.Sleep(time.Second)
				t.Fatalf("gatectl serve did not stop within 10 s of SIGTERM with an MCP session open:\n%s", s.stderr.String())
			}
			out := s.stderr.String()
			assert.Contains(t, out, "gatectl serve: stopped")
			for _, bad := range []string{"fatal error", "panic:", "DATA RACE"} {
				assert.NotContains(t, out, bad)
			}
		})
	}
}
