package mcpgw_test

import (
	"context"
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/gate-dev/gate/internal/mcpgw"
	gateruntime "github.com/gate-dev/gate/runtime"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Malformed tools are hidden, each with why; the well-formed one is
// offered with its text cleaned of characters that hide or rewrite text.
func TestMalformedUpstreamToolsAreHidden(t *testing.T) {
	h := start(t, "[[servers]]\nname = \"raw\"\nprefix = \"r_\"\n"+stdioCommand("raw-bad", ""), fastConfig())
	c := h.client()
	c.WaitTools(t, "r_good")
	ctx, cancel := context.WithTimeout(context.Background(), waitFor)
	defer cancel()
	res, err := c.Session.ListTools(ctx, nil)
	require.NoError(t, err)
	require.Len(t, res.Tools, 1)
	assert.Equal(t, "fine\uFFFDevil\uFFFD[2J", res.Tools[0].Description)

	hidden := h.gw.Hidden()
	for name, why := range map[string]string{
		"r_string_schema": `has type "string": MCP wants "object"`,
		"r_no_schema":     "is not a JSON object",
		"r_bad_schema":    "is not a valid JSON Schema",
		"r_remote_ref":    "is not a valid JSON Schema",
	} {
		assert.Contains(t, hidden[name], why, name)
	}
	assert.Contains(t, hidden["r_bad name!"], "a character MCP tool names cannot have")
	assert.Contains(t, hidden["r_"+strings.Repeat("n", 200)], "MCP tool names have 1 to 128")
	got, err := c.call(t, "r_good", nil)
	require.NoError(t, err)
	assert.Equal(t, "called good", textOf(got))
	_, err = c.call(t, "r_string_schema", nil)
	notAvailable(t, err, "malformed", gateruntime.CodeNotOffered)
}

// An upstream that floods list_changed costs relistings, not
// notifications: clients hear of a change only when the offered set
// changes, and tools/list stays quick.
func TestUpstreamFloodingNotifications(t *testing.T) {
	h := start(t, "[[servers]]\nname = \"flood\"\nprefix = \"f_\"\n"+stdioCommand("raw-flood", ""), fastConfig())
	c := h.client()
	c.WaitTools(t, "f_steady")
	c.settle()
	before := h.gw.Changes()
	listings := func() uint64 { return h.gw.Upstreams()[0].Listings }
	flooded := listings()
	// The flood is real: the gateway keeps listing again.
	require.Eventually(t, func() bool { return listings() > flooded+3 }, waitFor, 10*time.Millisecond)
	assert.Equal(t, before, h.gw.Changes(), "the offered set changed while only notifications came")
	assert.Equal(t, 0, c.Drain(), "clients were notified of a flood that changed nothing")
	res, err := c.call(t, "f_steady", nil)
	require.NoError(t, err)
	assert.Equal(t, "called steady", textOf(res))
}

// An upstream listing more tools than the cap has the rest dropped, and
// says so; the others are offered.
func TestHugeToolListIsCapped(t *testing.T) {
	h := start(t, "[[servers]]\nname = \"many\"\nprefix = \"\"\ncommand = [\""+exe(t)+"\"]\nenv = { GATE_TEST_UPSTREAM = \"raw-many\", GATE_TEST_COUNT = \"2500\" }\n",
		fastConfig().WithMaxTools(1000))
	c := h.client()
	require.Eventually(t, func() bool { return len(c.Tools(t)) == 1000 }, waitFor, 50*time.Millisecond)
	ups := h.gw.Upstreams()
	require.Len(t, ups, 1)
	assert.Equal(t, 1000, ups[0].Tools)
	assert.True(t, ups[0].Truncated)
}

// What gate keeps of one upstream's tools is bounded in bytes too: each
// tool may be 256 KiB, and 10,000 of them would be gigabytes, held and
// sent to every client that lists (without the bound, 2,000 tools of 200
// KiB took 1.2 GiB, and each tools/list page 195 MiB). Those past the bound are
// not offered, and the upstream is reported truncated.
func TestToolDefinitionsAreCappedInBytes(t *testing.T) {
	h := start(t, "[[servers]]\nname = \"fat\"\nprefix = \"\"\ncommand = [\""+exe(t)+"\"]\nenv = { GATE_TEST_UPSTREAM = \"raw-many\", GATE_TEST_COUNT = \"250\", GATE_TEST_DESC = \"20000\" }\n",
		fastConfig().WithMaxListingBytes(1<<20))
	var ups []mcpgw.Upstream
	require.Eventually(t, func() bool {
		ups = h.gw.Upstreams()
		return len(ups) == 1 && ups[0].State == mcpgw.StateReady
	}, waitFor, 20*time.Millisecond, "%+v", &ups)
	// Each definition is some 20 KB: about 52 fit in 1 MiB.
	assert.True(t, ups[0].Truncated)
	assert.InDelta(t, 52, ups[0].Tools, 2, "tools kept")
	// The offered set follows the listing in the background.
	require.Eventually(t, func() bool { return len(h.gw.Offered()) == ups[0].Tools }, waitFor, 20*time.Millisecond,
		"the tools kept are offered")
}

// A result over the cap is not passed on: the client gets a tool error
// that says so, and the gateway goes on serving. (The cap is set to 1 MiB
// so that the results stay small enough for a loaded machine under the
// race detector; the default is 4 MiB.)
func TestLargeResultIsRefused(t *testing.T) {
	require.Equal(t, 4<<20, mcpgw.DefaultMaxResultBytes)
	url, _ := httpUpstream(t, newUpstreamServer(""))
	h := start(t, fmt.Sprintf("[[servers]]\nname = \"web\"\nurl = %q\nprefix = \"w_\"\n", url), fastConfig().WithMaxResultBytes(1<<20))
	c := h.client()
	c.WaitTools(t, prefixed("w_", upstreamTools...)...)
	res, err := c.call(t, "w_big", map[string]any{"bytes": 2 << 20})
	require.NoError(t, err)
	assert.True(t, res.IsError)
	assert.Contains(t, textOf(res), "over the gateway's cap of 1048576 bytes")
	res, err = c.call(t, "w_big", map[string]any{"bytes": 512 << 10})
	require.NoError(t, err)
	assert.False(t, res.IsError)
	assert.Len(t, textOf(res), 512<<10)
}

// An upstream that never answers initialize is reported down and never
// offered, and tools/list does not wait for it; a call that is never
// answered ends at the server's call_timeout.
func TestNeverAnsweringUpstreams(t *testing.T) {
	url, _ := httpUpstream(t, newUpstreamServer(""))
	h := start(t, "[[servers]]\nname = \"mute\"\n"+stdioCommand("hang", "")+fmt.Sprintf(`
[[servers]]
name = "web"
url = %q
prefix = "w_"
call_timeout = "300ms"
`, url), fastConfig().WithConnectTimeout(200*time.Millisecond))
	c := h.client()
	c.WaitTools(t, prefixed("w_", upstreamTools...)...)
	require.Eventually(t, func() bool {
		for _, u := range h.gw.Upstreams() {
			if u.Server == "mute" && strings.Contains(u.Error, "no answer to initialize within 200ms") {
				return true
			}
		}
		return false
	}, waitFor, 20*time.Millisecond)

	started := time.Now()
	_, err := c.call(t, "w_hang", nil)
	var je *jsonrpc.Error
	require.ErrorAs(t, err, &je)
	assert.Contains(t, je.Message, "did not answer the call of w_hang within 300ms")
	assert.Less(t, time.Since(started), waitFor/2)
}

// Stopping the gateway ends every upstream: no goroutine of it is left.
func TestRunEndsEverything(t *testing.T) {
	before := runtime.NumGoroutine()
	t.Run("gateway", func(t *testing.T) {
		url, _ := httpUpstream(t, newUpstreamServer(""))
		h := start(t, fmt.Sprintf("[[servers]]\nname = \"web\"\nurl = %q\n\n[[servers]]\nname = \"local\"\n", url)+stdioCommand("plain", ""), fastConfig())
		c := h.client()
		c.WaitTools(t, append(prefixed("web_", upstreamTools...), prefixed("local_", upstreamTools...)...)...)
	})
	require.Eventually(t, func() bool { return runtime.NumGoroutine() <= before+2 }, waitFor, 20*time.Millisecond,
		"goroutines: %d before, %d after", before, runtime.NumGoroutine())
}
