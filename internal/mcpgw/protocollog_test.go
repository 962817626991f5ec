package mcpgw_test

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestProtocolVersionLoggedAtDebug: at debug level, gate logs the
// protocol version each client session speaks, once per session: a
// 2025-11-25 session by its ID however many requests it makes, and each
// 2026-07-28 request (a session of its own) as served without a session.
// The log is a queue written in order: once the 2026-07-28 client's
// lines, logged after every request of the older session, are in, the
// older session's would be too.
func TestProtocolVersionLoggedAtDebug(t *testing.T) {
	log := &lockedLog{}
	h := start(t, "[[tools]]\nname = \"plain\"\n", fastConfig().WithStateless(true).WithLog(log).WithDebug(true))

	old := h.clientAt("2025-11-25")
	for range 3 {
		old.Tools(t)
	}
	c := h.client26()
	c.Tools(t)

	const stateless = "gate mcp: MCP client without a session (stateless): protocol 2026-07-28\n"
	require.Eventually(t, func() bool { return strings.Count(log.String(), stateless) >= 2 }, waitFor, 10*time.Millisecond,
		"the 2026-07-28 client's requests are logged as served without a session:\n%s", log.String())
	oldLine := "gate mcp: MCP session " + old.Session.ID()[:8] + "…: protocol 2025-11-25\n"
	assert.Equal(t, 1, strings.Count(log.String(), oldLine), "the older session is logged once:\n%s", log.String())
	assert.Equal(t, 1, strings.Count(log.String(), "protocol 2025-11-25"), "no other session speaks it:\n%s", log.String())
}
