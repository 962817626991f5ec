//lint:file-ignore SA1019 MCP deprecates logging as of 2026-07-28 (SEP-2577); clients and servers of the earlier versions gate speaks use it

package mcpgw_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// loggingUpstream is a real Go SDK server that records every level a
// client asked it for, and whose tool "log" sends one message at each of
// the levels in "text" (comma-separated), logger "db", data {"n": i,
// "level": LEVEL}, and "pad" of "bytes" bytes when that is set.
type loggingUpstream struct {
	s      *mcp.Server
	mu     sync.Mutex
	levels []mcp.LoggingLevel
}

func newLoggingUpstream() *loggingUpstream {
	u := &loggingUpstream{s: mcp.NewServer(&mcp.Implementation{Name: "logger", Version: "1"}, nil)}
	u.s.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			if p, ok := req.GetParams().(*mcp.SetLoggingLevelParams); ok && method == "logging/setLevel" {
				u.mu.Lock()
				u.levels = append(u.levels, p.Level)
				u.mu.Unlock()
			}
			return next(ctx, method, req)
		}
	})
	u.s.AddTool(&mcp.Tool{Name: "log", InputSchema: objectSchema}, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		a := parse(req)
		for i, l := range strings.Split(a.Text, ",") {
			data := map[string]any{"n": i, "level": l}
			if a.Bytes > 0 {
				data["pad"] = strings.Repeat("x", a.Bytes)
			}
			_ = req.Session.Log(ctx, &mcp.LoggingMessageParams{Level: mcp.LoggingLevel(l), Logger: "db", Data: data})
		}
		return text("logged"), nil
	})
	return u
}

// asked returns the levels asked of the upstream so far.
func (u *loggingUpstream) asked() []mcp.LoggingLevel {
	u.mu.Lock()
	defer u.mu.Unlock()
	return slices.Clone(u.levels)
}

// logClient is a client session with gate that records the log messages
// it gets.
type logClient struct {
	cs   *mcp.ClientSession
	mu   sync.Mutex
	msgs []string // "level logger data"
}

func (h *harness) logClient() *logClient {
	h.t.Helper()
	lc := &logClient{}
	cl := mcp.NewClient(&mcp.Implementation{Name: "log-client", Version: "1"}, &mcp.ClientOptions{
		LoggingMessageHandler: func(_ context.Context, r *mcp.LoggingMessageRequest) {
			data, _ := json.Marshal(r.Params.Data)
			lc.mu.Lock()
			lc.msgs = append(lc.msgs, fmt.Sprintf("%s %s %s", r.Params.Level, r.Params.Logger, data))
			lc.mu.Unlock()
		},
	})
	ctx, cancel := context.WithTimeout(context.Background(), waitFor)
	defer cancel()
	cs, err := cl.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: h.url}, nil)
	require.NoError(h.t, err)
	h.t.Cleanup(func() { _ = cs.Close() })
	lc.cs = cs
	return lc
}

func (lc *logClient) got() []string {
	lc.mu.Lock()
	defer lc.mu.Unlock()
	return slices.Clone(lc.msgs)
}

func (lc *logClient) setLevel(t *testing.T, l mcp.LoggingLevel) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), waitFor)
	defer cancel()
	require.NoError(t, lc.cs.SetLoggingLevel(ctx, &mcp.SetLoggingLevelParams{Level: l}))
}

func (lc *logClient) call(t *testing.T, name, arg string, pad ...int) {
	t.Helper()
	lc.callWithin(t, waitFor, name, arg, pad...)
}

// callWithin is call, waiting up to d for the answer.
func (lc *logClient) callWithin(t *testing.T, d time.Duration, name, arg string, pad ...int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	args := map[string]any{"text": arg}
	if len(pad) > 0 {
		args["bytes"] = pad[0]
	}
	res, err := lc.cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
	require.NoError(t, err)
	require.False(t, res.IsError, textOf(res))
}

// An upstream's log messages reach each client whose level admits them,
// the logger naming the server, the data unchanged; the upstream is asked
// for the most verbose level any open session asked for, and for nothing
// before one did; the level follows the sessions, and is sent again to a
// new upstream session.
func TestLogMessagesPassThrough(t *testing.T) {
	up := newLoggingUpstream()
	url, stop := httpUpstream(t, up.s)
	h := start(t, fmt.Sprintf("[[servers]]\nname = \"web\"\nurl = %q\nprefix = \"w_\"\n", url), fastConfig())
	quiet, loud := h.logClient(), h.logClient()
	waitTools(t, quiet.cs, "w_log")

	// No level asked: the upstream is asked for none, and logs nothing.
	quiet.call(t, "w_log", "error")
	assert.Empty(t, up.asked(), "a level was sent before any client asked for one")

	quiet.setLevel(t, "warning")
	require.Eventually(t, func() bool { return slices.Equal(up.asked(), []mcp.LoggingLevel{"warning"}) }, waitFor, time.Millisecond, "asked %v", up.asked())
	loud.setLevel(t, "debug")
	require.Eventually(t, func() bool { return slices.Equal(up.asked(), []mcp.LoggingLevel{"warning", "debug"}) }, waitFor, time.Millisecond, "asked %v", up.asked())

	loud.call(t, "w_log", "debug,info,warning,error")
	want := func(levels ...string) []string {
		var out []string
		all := []string{"debug", "info", "warning", "error"}
		for i, l := range all {
			if slices.Contains(levels, l) {
				out = append(out, fmt.Sprintf(`%s web/db {"level":%q,"n":%d}`, l, l, i))
			}
		}
		return out
	}
	require.Eventually(t, func() bool { return len(loud.got()) == 4 && len(quiet.got()) == 2 }, waitFor, time.Millisecond, "loud %v, quiet %v", loud.got(), quiet.got())
	assert.Equal(t, want("debug", "info", "warning", "error"), loud.got())
	assert.Equal(t, want("warning", "error"), quiet.got())

	// The most verbose session ends: the upstream is asked for the next.
	require.NoError(t, loud.cs.Close())
	require.Eventually(t, func() bool { return slices.Equal(up.asked(), []mcp.LoggingLevel{"warning", "debug", "warning"}) }, waitFor, time.Millisecond, "asked %v", up.asked())

	// A new upstream session is told the level at its start.
	stop()
	waitTools(t, quiet.cs)
	serveUpstream(t, listenOn(t, url), up.s)
	waitTools(t, quiet.cs, "w_log")
	require.Eventually(t, func() bool { return len(up.asked()) == 4 && up.asked()[3] == "warning" }, waitFor, time.Millisecond, "asked %v", up.asked())

	// The last session that asked for a level ends: the upstream is
	// asked for the quietest, not left sending what no one reads.
	require.NoError(t, quiet.cs.Close())
	require.Eventually(t, func() bool { return len(up.asked()) == 5 && up.asked()[4] == "emergency" }, waitFor, time.Millisecond, "asked %v", up.asked())
}

// A level MCP does not define is refused, and asks nothing of upstreams.
func TestLogLevelUnknownRefused(t *testing.T) {
	up := newLoggingUpstream()
	url, _ := httpUpstream(t, up.s)
	h := start(t, fmt.Sprintf("[[servers]]\nname = \"web\"\nurl = %q\n", url), fastConfig())
	lc := h.logClient()
	ctx, cancel := context.WithTimeout(context.Background(), waitFor)
	defer cancel()
	err := lc.cs.SetLoggingLevel(ctx, &mcp.SetLoggingLevelParams{Level: "verbose"})
	require.ErrorContains(t, err, `unknown log level "verbose"`)
	assert.Empty(t, up.asked())
}

// waitTools waits until the session lists want.
func waitTools(t *testing.T, cs *mcp.ClientSession, want ...string) {
	t.Helper()
	var names []string
	require.Eventually(t, func() bool {
		ctx, cancel := context.WithTimeout(context.Background(), waitFor)
		defer cancel()
		res, err := cs.ListTools(ctx, nil)
		if err != nil {
			return false
		}
		names = names[:0]
		for _, tl := range res.Tools {
			names = append(names, tl.Name)
		}
		slices.Sort(names)
		return slices.Equal(names, want)
	}, waitFor, 5*time.Millisecond, "tools %v, want %v", names, want)
}

// A client that reads nothing of its stream while an upstream floods log
// messages loses log messages, counted, and keeps its session: its queue
// is bounded, and log messages are what it lets go.
func TestLogFloodToAStalledSession(t *testing.T) {
	up := newLoggingUpstream()
	url, _ := httpUpstream(t, up.s)
	reg := prometheus.NewRegistry()
	h := start(t, fmt.Sprintf("[[servers]]\nname = \"web\"\nurl = %q\nprefix = \"w_\"\n", url),
		fastConfig().WithSessionQueue(8).WithWriteTimeout(4*waitFor).WithMetrics(reg))
	honest := h.logClient()
	waitTools(t, honest.cs, "w_log")
	stalled := h.rawClient()
	code, body := stalled.Ask(`{"jsonrpc":"2.0","id":3,"method":"logging/setLevel","params":{"level":"debug"}}`)
	require.Equal(t, http.StatusOK, code, body)
	stalled.Stall(http.MethodGet, "")
	require.Eventually(t, func() bool { return slices.Equal(up.asked(), []mcp.LoggingLevel{"debug"}) }, waitFor, time.Millisecond, "asked %v", up.asked())

	// 24 MB of messages: more than the kernel buffers of the stalled
	// stream hold. They cross two SDK sessions before the call returns,
	// 2 s on an idle machine and over 15 s under the suite's load; no
	// bound of gate's is about that time, so the call may take as long as
	// the write timeout. What is tested is what the sessions get.
	honest.callWithin(t, 4*waitFor, "w_log", strings.TrimSuffix(strings.Repeat("debug,", 3000), ","), 8<<10)
	require.Eventually(t, func() bool { return counterValue(t, reg, "gate_mcp_log_messages_dropped_total", "") > 0 }, waitFor, 10*time.Millisecond)
	assert.Equal(t, 0.0, counterValue(t, reg, "gate_mcp_sessions_dropped_total", "overflow"), "a session was dropped for log messages")
	assert.False(t, stalled.Gone(), "the stalled session was closed")
	assert.Empty(t, honest.got(), "a session that asked for no level got log messages")
}

// A log message whose data is over the cap reaches the client as a note
// that says how large it was, not whole: a session's queue of log
// messages holds at most the cap times its length.
func TestLogMessageDataIsCapped(t *testing.T) {
	up := newLoggingUpstream()
	url, _ := httpUpstream(t, up.s)
	h := start(t, fmt.Sprintf("[[servers]]\nname = \"web\"\nurl = %q\nprefix = \"w_\"\n", url), fastConfig())
	lc := h.logClient()
	waitTools(t, lc.cs, "w_log")
	lc.setLevel(t, "info")
	// The level reaches the upstream on its own: until it has, the
	// upstream drops the info message, and only the warning comes.
	require.Eventually(t, func() bool { return slices.Contains(up.asked(), "info") }, waitFor, time.Millisecond, "asked %v", up.asked())
	lc.call(t, "w_log", "info", 64<<10)
	lc.call(t, "w_log", "warning", 100)
	require.Eventually(t, func() bool { return len(lc.got()) == 2 }, waitFor, time.Millisecond, "got %v", lc.got())
	got := lc.got()
	assert.Regexp(t, `^info web/db "gate: server web sent a log message whose data has \d+ bytes, over the 65536 gate passes on"$`, got[0])
	assert.Contains(t, got[1], `"pad":"`+strings.Repeat("x", 100)+`"`)
}
