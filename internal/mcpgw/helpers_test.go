package mcpgw_test

import (
	"context"
	"net"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gate-dev/gate/internal/mcpgw"
	"github.com/gate-dev/gate/internal/mcptest"
	"github.com/gate-dev/gate/runtime"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/require"
)

// waitFor bounds every wait of these tests: long enough for a machine
// loaded with other work, and failing rather than hanging when the
// gateway never gets there.
const waitFor = mcptest.Wait

// harness is a running gateway over a manifest written for the test, and
// served over streamable HTTP on loopback.
type harness struct {
	t        *testing.T
	dir      string
	manifest string
	svc      *runtime.Service
	gw       *mcpgw.Gateway
	url      string
	// stop ends the gateway's Run (and the service's), and returns once
	// they have; the test's end does it too.
	stop func()
	// states records every upstream state change, as published.
	states *stateLog
}

// stateLog records the upstream events of a service.
type stateLog struct {
	mu     sync.Mutex
	events []runtime.Event
}

func (l *stateLog) add(e runtime.Event) {
	if e.Type == "upstream" {
		l.mu.Lock()
		l.events = append(l.events, e)
		l.mu.Unlock()
	}
}

// find returns the first state change of server to state whose reason
// has want.
func (l *stateLog) find(server, state, want string) (runtime.Event, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, e := range l.events {
		if e.Name == server && e.State == state && strings.Contains(e.Reason, want) {
			return e, true
		}
	}
	return runtime.Event{}, false
}

// of lists server's states and reasons, each once, for a failure message.
func (l *stateLog) of(server string) []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []string
	for _, e := range l.events {
		if s := e.State + ": " + e.Reason; e.Name == server && !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return out
}

// fastConfig reconnects quickly, so that tests of an upstream coming back
// do not wait for the production backoff.
func fastConfig() mcpgw.Config {
	return mcpgw.NewConfig().WithBackoff(20*time.Millisecond, 200*time.Millisecond).WithKeepAlive(0)
}

// manifestHead makes probe answers short-lived, so that a flip is seen
// within a tick.
const manifestHead = `[runtime]
ttl = "30ms"
grace = "0s"
`

func start(t *testing.T, toml string, cfg mcpgw.Config) *harness {
	t.Helper()
	h := &harness{t: t, dir: t.TempDir()}
	h.manifest = filepath.Join(h.dir, "gate.toml")
	require.NoError(t, os.WriteFile(h.manifest, []byte(manifestHead+toml), 0o600))
	ctx, cancel := context.WithCancel(context.Background())
	svc, err := runtime.OpenService(ctx, h.manifest, runtime.NewServiceConfig().WithTick(10*time.Millisecond).WithWatchInterval(0))
	require.NoError(t, err)
	h.svc = svc
	h.states = &stateLog{}
	t.Cleanup(svc.Subscribe(h.states.add))
	h.gw = mcpgw.New(svc, cfg)
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); _ = svc.Run(ctx) }()
	go func() { defer wg.Done(); _ = h.gw.Run(ctx) }()
	srv := httptest.NewServer(h.gw.Handler())
	h.url = srv.URL
	var once sync.Once
	h.stop = func() {
		once.Do(func() {
			cancel()
			wg.Wait()
		})
	}
	t.Cleanup(func() {
		h.gw.CloseSessions()
		srv.CloseClientConnections()
		srv.Close()
		h.stop()
		_ = svc.Close(context.Background())
	})
	return h
}

// rewrite replaces the manifest and reloads it.
func (h *harness) rewrite(toml string) {
	h.t.Helper()
	require.NoError(h.t, os.WriteFile(h.manifest, []byte(manifestHead+toml), 0o600))
	require.NoError(h.t, h.svc.Reload(context.Background()))
}

// client is a downstream client: the Go SDK's, over streamable HTTP.
type client struct{ *mcptest.Client }

func (h *harness) client() *client {
	h.t.Helper()
	cl, c := mcptest.New("test-client")
	ctx, cancel := context.WithTimeout(context.Background(), waitFor)
	defer cancel()
	cs, err := cl.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: h.url}, nil)
	require.NoError(h.t, err)
	h.t.Cleanup(func() { _ = cs.Close() })
	c.Session = cs
	return &client{c}
}

func (c *client) call(t *testing.T, name string, args map[string]any) (*mcp.CallToolResult, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), waitFor)
	defer cancel()
	return c.Session.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
}

var textOf = mcptest.Text

// listener is a loopback TCP listener a tcp: probe can watch; close and
// reopen flip the probe.
type listener struct {
	t    *testing.T
	addr string
	l    net.Listener
}

func newListener(t *testing.T) *listener {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	ln := &listener{t: t, addr: l.Addr().String(), l: l}
	go acceptAll(l)
	t.Cleanup(func() { ln.close() })
	return ln
}

func acceptAll(l net.Listener) {
	for {
		c, err := l.Accept()
		if err != nil {
			return
		}
		_ = c.Close()
	}
}

func (l *listener) close() {
	if l.l != nil {
		_ = l.l.Close()
		l.l = nil
	}
}

func (l *listener) reopen() {
	l.t.Helper()
	nl, err := net.Listen("tcp", l.addr)
	require.NoError(l.t, err)
	l.l = nl
	go acceptAll(nl)
}

// stdioCommand is the manifest lines of a stdio upstream: this test
// binary in upstream mode.
func stdioCommand(mode, extraTools string) string {
	exe, _ := os.Executable()
	return `command = ["` + exe + `"]
env = { GATE_TEST_UPSTREAM = "` + mode + `", GATE_TEST_TOOLS = "` + extraTools + `" }
`
}

func exe(t *testing.T) string {
	t.Helper()
	p, err := os.Executable()
	require.NoError(t, err)
	return p
}
