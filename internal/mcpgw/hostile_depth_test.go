package mcpgw_test

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/gate-dev/gate/internal/mcpgw"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func init() {
	upstreamModes["deep-tool"] = newDeepToolServer
	rawModes["raw-deep"] = runDeepRawUpstream
}

// rawModes are hand-written stdio upstreams of GATE_TEST_UPSTREAM, beside
// runRawUpstream's.
var rawModes = map[string]func(){}

// newDeepToolServer is an upstream on the Go SDK's server that lists one
// tool whose schema nests 998 deep, which its server takes (the SDK's
// limit is 1000) but which puts the tools/list answer at 1002: past what
// the SDK's client decodes. Its other tools are ordinary.
func newDeepToolServer() *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "deep", Version: "1"}, nil)
	s.AddTool(&mcp.Tool{Name: "echo", InputSchema: objectSchema}, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return text("called echo"), nil
	})
	s.AddTool(&mcp.Tool{Name: "deep", InputSchema: json.RawMessage(deepSchema(0, 995))}, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return text("called deep"), nil
	})
	s.AddTool(&mcp.Tool{Name: "last", InputSchema: objectSchema}, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return text("called last"), nil
	})
	return s
}

// One tool nested deeper than the MCP SDK's decoder takes is hidden alone,
// with why: the listing's other tools are offered and the session lives on
// (unguarded, the SDK failed the whole answer, the session, and every session
// after it, so that none of the server's tools was ever offered); over
// stdio and streamable HTTP.
func TestToolNestedPastTheSDKIsHiddenAlone(t *testing.T) {
	h := startBoth(t, newDeepToolServer(), "deep-tool")
	c := h.client()
	c.WaitTools(t, "p_echo", "p_last", "w_echo", "w_last")
	hidden := h.gw.Hidden()
	for _, name := range []string{"p_deep", "w_deep"} {
		assert.Contains(t, hidden[name], "its definition nests 999 deep: the listing was over the 1000 levels the MCP SDK decodes", name)
	}
	for _, u := range h.gw.Upstreams() {
		assert.Equal(t, mcpgw.StateReady, u.State, u.Server)
		assert.Equal(t, uint64(1), u.Listings, "%s: the session was not kept", u.Server)
	}
	got, err := c.call(t, "w_last", nil)
	require.NoError(t, err)
	assert.Equal(t, "called last", textOf(got))
}

// runDeepRawUpstream answers "deep_answer" calls with a result nested
// 100,000 deep and sends a notification as deep before each answer: past
// what the SDK's decoders take (its stdio decoder stops at 10,000, its
// message check at 1,000).
func runDeepRawUpstream() {
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 1<<26)
	out := bufio.NewWriter(os.Stdout)
	send := func(s string) {
		_, _ = out.WriteString(s + "\n")
		_ = out.Flush()
	}
	deep := strings.Repeat("[", 100000) + strings.Repeat("]", 100000)
	for in.Scan() {
		var req struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params struct {
				ProtocolVersion string `json:"protocolVersion"`
				Name            string `json:"name"`
			} `json:"params"`
		}
		if json.Unmarshal(in.Bytes(), &req) != nil {
			continue
		}
		answer := func(result string) { send(`{"jsonrpc":"2.0","id":` + string(req.ID) + `,"result":` + result + `}`) }
		switch req.Method {
		case "initialize":
			answer(`{"protocolVersion":"` + req.Params.ProtocolVersion + `","capabilities":{"tools":{}},"serverInfo":{"name":"raw-deep","version":"1"}}`)
		case "ping":
			answer(`{}`)
		case "tools/list":
			answer(`{"tools":[{"name":"deep_answer","inputSchema":{"type":"object"}},{"name":"fine","inputSchema":{"type":"object"}}]}`)
		case "tools/call":
			if req.Params.Name == "fine" {
				answer(`{"content":[{"type":"text","text":"fine"}]}`)
				continue
			}
			send(`{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":` + deep + `}}`)
			answer(`{"content":[{"type":"text","text":"x"}],"structuredContent":{"v":` + deep + `}}`)
		default:
			if len(req.ID) > 0 { // server/discover among them: the client then initializes
				send(`{"jsonrpc":"2.0","id":` + string(req.ID) + `,"error":{"code":-32601,"message":"no such method"}}`)
			}
		}
	}
}

// An answer or a notification nested past the SDK's decoders fails only
// the call it answers: the call gets an error that says why, the session
// lives on and the next call is answered (unguarded, the session failed, and
// every call in flight with it).
func TestAnswerNestedPastTheSDKFailsOnlyItsCall(t *testing.T) {
	h := start(t, "[[servers]]\nname = \"raw\"\nprefix = \"r_\"\ncommand = [\""+exe(t)+"\"]\nenv = { GATE_TEST_UPSTREAM = \"raw-deep\" }\n", fastConfig())
	c := h.client()
	c.WaitTools(t, "r_deep_answer", "r_fine")
	for range 3 {
		_, err := c.call(t, "r_deep_answer", nil)
		var je *jsonrpc.Error
		require.ErrorAs(t, err, &je)
		assert.Contains(t, je.Message, "the server's answer nests 100003 deep, over the 1000 levels the MCP SDK decodes")
		got, err := c.call(t, "r_fine", nil)
		require.NoError(t, err)
		assert.Equal(t, "fine", textOf(got))
	}
	ups := h.gw.Upstreams()
	require.Len(t, ups, 1)
	assert.Equal(t, mcpgw.StateReady, ups[0].State)
	assert.Equal(t, uint64(1), ups[0].Listings, "the session was not kept")
}
