package mcpgw_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gate-dev/gate/internal/mcptest"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/require"
)

// The upstream MCP servers of these tests are real ones, written with the
// Go SDK: over streamable HTTP on a loopback listener, or over stdio as
// this test binary run again with GATE_TEST_UPSTREAM set (see TestMain).

func TestMain(m *testing.M) {
	if mcptest.RunHostile(os.Getenv(mcptest.HostileEnv)) {
		return
	}
	if mode := os.Getenv(protectEnv); mode != "" {
		runProtectMode(mode)
		return
	}
	if mode := os.Getenv("GATE_TEST_UPSTREAM"); mode != "" {
		runStdioUpstream(mode)
		return
	}
	os.Exit(m.Run())
}

// runStdioUpstream serves the test upstream on stdin and stdout until
// stdin ends. mode "plain" is the ordinary server; "flood" also sends
// tools/list_changed without end once a client is initialised; "hang"
// never answers initialize.
func runStdioUpstream(mode string) {
	if mode == "hang" {
		select {}
	}
	if mode == "single" {
		mcptest.RunHostile(mode)
		return
	}
	if run, ok := rawModes[mode]; ok {
		run()
		return
	}
	if strings.HasPrefix(mode, "raw-") {
		runRawUpstream(mode)
		return
	}
	if newServer, ok := upstreamModes[mode]; ok {
		_ = newServer().Run(context.Background(), &mcp.StdioTransport{})
		return
	}
	s := newUpstreamServer(os.Getenv("GATE_TEST_TOOLS"))
	if mode == "flood" {
		s = newFloodServer()
	}
	_ = s.Run(context.Background(), &mcp.StdioTransport{})
}

type args struct {
	Text  string `json:"text,omitempty"`
	Steps int    `json:"steps,omitempty"`
	Bytes int    `json:"bytes,omitempty"`
	Name  string `json:"name,omitempty"`
}

var objectSchema = json.RawMessage(`{"type":"object","properties":{"text":{"type":"string"},"steps":{"type":"integer"},"bytes":{"type":"integer"},"name":{"type":"string"}}}`)

func parse(req *mcp.CallToolRequest) args {
	var a args
	_ = json.Unmarshal(req.Params.Arguments, &a)
	return a
}

func text(s string) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: s}}}
}

// cancelled counts calls of "slow" whose context the upstream saw
// cancelled, in this process (HTTP upstreams run in the test process).
var cancelled atomic.Int64

// newUpstreamServer returns the test upstream. tools, when not empty, is a
// comma-separated list of extra tool names (each an echo).
//
//	echo  answers its "text"
//	slow  sends "steps" progress notifications 20ms apart, then answers;
//	      counts a cancellation
//	big   answers "bytes" bytes of text
//	hang  never answers
//	exit  ends the process (stdio) mid-call
//	grow  adds a tool named "name" (the server then sends list_changed)
//	fail  answers a JSON-RPC error; with "bytes", one whose message (with
//	      a bidirectional override) and data have that many bytes
func newUpstreamServer(extra string) *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "test-upstream", Version: "1"}, nil)
	add := func(name, desc string, h mcp.ToolHandler) {
		s.AddTool(&mcp.Tool{Name: name, Description: desc, InputSchema: objectSchema}, h)
	}
	add("echo", "Echoes its text.", func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return text("echo: " + parse(req).Text), nil
	})
	add("slow", "Reports progress.", func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		a := parse(req)
		giveUp := time.After(waitFor) // as hang does
		for i := 1; i <= a.Steps; i++ {
			select {
			case <-ctx.Done():
				cancelled.Add(1)
				return nil, ctx.Err()
			case <-giveUp:
				return nil, errors.New("slow: never cancelled")
			case <-time.After(20 * time.Millisecond):
			}
			if tok := req.Params.GetProgressToken(); tok != nil {
				_ = req.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{ProgressToken: tok, Progress: float64(i), Total: float64(a.Steps), Message: fmt.Sprintf("step %d", i)})
			}
		}
		return text(fmt.Sprintf("done after %d steps", a.Steps)), nil
	})
	add("big", "Answers many bytes.", func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return text(strings.Repeat("x", parse(req).Bytes)), nil
	})
	add("hang", "Never answers.", func(ctx context.Context, _ *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		// Until cancelled, or for as long as a test waits: a cancellation
		// the SDK drops (one that arrives before the call is registered)
		// must not keep the test's server, whose Close waits for its
		// handlers, open for ever.
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(waitFor):
			return nil, errors.New("hang: never cancelled")
		}
	})
	add("exit", "Ends the server.", func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		os.Exit(3)
		return nil, nil
	})
	add("grow", "Adds a tool.", func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		name := parse(req).Name
		s.AddTool(&mcp.Tool{Name: name, InputSchema: objectSchema}, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return text(name), nil
		})
		return text("added " + name), nil
	})
	add("fail", "Answers an error.", func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		if n := parse(req).Bytes; n > 0 {
			data, _ := json.Marshal(map[string]string{"pad": strings.Repeat("d", n)})
			return nil, &jsonrpc.Error{Code: 4243, Message: "refused\u202e" + strings.Repeat("e", n), Data: data}
		}
		return nil, &jsonrpc.Error{Code: 4242, Message: "the upstream refuses"}
	})
	for _, name := range strings.Split(extra, ",") {
		if name != "" {
			add(name, "An extra echo.", func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				return text(name + ": " + parse(req).Text), nil
			})
		}
	}
	return s
}

// newFloodServer sends tools/list_changed as fast as it can once a
// client has initialised, without changing its tools.
func newFloodServer() *mcp.Server {
	var s *mcp.Server
	s = mcp.NewServer(&mcp.Implementation{Name: "flood", Version: "1"}, &mcp.ServerOptions{
		InitializedHandler: func(context.Context, *mcp.InitializedRequest) {
			go func() {
				for i := 0; ; i++ {
					// Adding and removing a tool is how the SDK's server
					// sends list_changed; the listed set stays the same
					// whenever the client lists between bursts.
					s.AddTool(&mcp.Tool{Name: "blip", InputSchema: objectSchema}, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) { return text("blip"), nil })
					s.RemoveTools("blip")
					time.Sleep(time.Millisecond)
				}
			}()
		},
	})
	s.AddTool(&mcp.Tool{Name: "steady", InputSchema: objectSchema}, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return text("steady"), nil
	})
	return s
}

// httpUpstream serves s over streamable HTTP on loopback; stop closes it
// (its sessions' streams with it).
func httpUpstream(t *testing.T, s *mcp.Server) (url string, stop func()) {
	t.Helper()
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, nil)
	srv := httptest.NewServer(h)
	var once atomic.Bool
	stop = func() {
		if once.CompareAndSwap(false, true) {
			srv.CloseClientConnections()
			srv.Close()
		}
	}
	t.Cleanup(stop)
	return srv.URL, stop
}

// listenOn listens again on the address of a URL httpUpstream served.
func listenOn(t *testing.T, url string) net.Listener {
	t.Helper()
	addr := strings.TrimPrefix(url, "http://")
	var l net.Listener
	require.Eventually(t, func() bool {
		var err error
		l, err = net.Listen("tcp", addr)
		return err == nil
	}, waitFor, 10*time.Millisecond)
	return l
}

// serveUpstream serves s over streamable HTTP on l until the test ends.
func serveUpstream(t *testing.T, l net.Listener, s *mcp.Server) {
	srv := &http.Server{Handler: mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, nil)}
	go func() { _ = srv.Serve(l) }()
	t.Cleanup(func() { _ = srv.Close() })
}
