package mcpgw_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/gate-dev/gate/internal/mcptest"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// stdioSession is a client of the gateway's server over a connection of
// its own, as gatectl mcp serves one over its stdin and stdout.
func (h *harness) stdioSession() *mcp.ClientSession {
	h.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), waitFor)
	defer cancel()
	ct, st := mcp.NewInMemoryTransports()
	ss, err := h.gw.Server().Connect(ctx, st, nil)
	require.NoError(h.t, err)
	h.t.Cleanup(func() { _ = ss.Close() })
	cl, _ := mcptest.New("stdio-client")
	cs, err := cl.Connect(ctx, ct, nil)
	require.NoError(h.t, err)
	h.t.Cleanup(func() { _ = cs.Close() })
	return cs
}

// A listing the first look held until the startup wait ran out, with a
// server still connecting, is answered without that server's tools, and
// says so in gate's log, once, naming the server: over stdio (gatectl
// mcp) and over streamable HTTP (gatectl serve's /mcp) alike.
func TestStartupWaitRunOutIsLogged(t *testing.T) {
	const wait = 300 * time.Millisecond
	tests := []struct {
		name    string
		session func(*harness) *mcp.ClientSession
	}{
		{"over stdio", (*harness).stdioSession},
		{"over /mcp", func(h *harness) *mcp.ClientSession { return h.client().Session }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			log := openLog()
			h := start(t, "[[servers]]\nname = \"stuck\"\n"+stdioCommand("hang", ""),
				fastConfig().WithConnectTimeout(time.Hour).WithStartupWait(wait).WithLog(log))
			cs := tt.session(h)
			ctx, cancel := context.WithTimeout(context.Background(), waitFor)
			defer cancel()
			res, err := cs.ListTools(ctx, nil)
			require.NoError(t, err)
			assert.Empty(t, res.Tools)

			const line = "gate mcp: warning: tools/list answered without the servers still connecting after the startup wait of 300ms: stuck (what they offer comes once they are ready, with a list_changed notification)\n"
			require.Eventually(t, func() bool { return strings.Contains(log.String(), line) }, waitFor, 10*time.Millisecond, "log:\n%s", log.String())
			assert.Equal(t, 1, strings.Count(log.String(), "startup wait"), "one line for one listing:\n%s", log.String())
		})
	}
}
