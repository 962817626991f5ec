package probes

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// mcpServer scripts an MCP server's answers by JSON-RPC method, as the
// fake host's http function; an absent method gets 202 Accepted.
type mcpServer map[string]httpResp

func (s mcpServer) serve(req httpReq) httpResp {
	if req.method == "DELETE" {
		return httpResp{status: 204}
	}
	for m, resp := range s {
		if strings.Contains(req.body, `"method":"`+m+`"`) {
			return resp
		}
	}
	return httpResp{status: 202}
}

// rpc is a JSON answer holding a JSON-RPC result.
func rpc(id int, result string) httpResp {
	return httpResp{status: 200, headers: map[string]string{"Content-Type": "application/json", "Mcp-Session-Id": "s-123"},
		body: fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"result":%s}`, id, result)}
}

// sse is the same answer as an SSE stream.
func sse(id int, result string) httpResp {
	return httpResp{status: 200, headers: map[string]string{"Content-Type": "text/event-stream", "Mcp-Session-Id": "s-123"},
		body: fmt.Sprintf("event: message\nid: 1\ndata: {\"jsonrpc\":\"2.0\",\"id\":%d,\"result\":%s}\n\n", id, result)}
}

const (
	initResult = `{"protocolVersion":"2025-03-26","capabilities":{"tools":{"listChanged":true}},"serverInfo":{"name":"s","version":"1"}}`
	oneTool    = `{"tools": [ {"name":"search","inputSchema":{"type":"object","properties":{"error":{"type":"string"}}}}]}`
	noTools    = `{"tools":[]}`
)

func TestMCPProbe(t *testing.T) {
	const u = "http://127.0.0.1:8080/mcp"
	c := cfg("url", u)
	rpcErr := httpResp{status: 200, body: `{"jsonrpc":"2.0","id":2,"error":{"code":-32601,"message":"Method not found: \"tools/list\""}}`}
	with := func(m map[string]httpResp) func(httpReq) httpResp { return mcpServer(m).serve }
	good := map[string]httpResp{"initialize": rpc(1, initResult), "tools/list": rpc(2, oneTool)}
	override := func(method string, resp httpResp) func(httpReq) httpResp {
		m := map[string]httpResp{}
		for k, v := range good {
			m[k] = v
		}
		m[method] = resp
		return with(m)
	}
	runCases(t, MCP, []probeCase{
		{"JSON answers, one tool", &fakeGate{config: c, http: with(good)}, 0, ""},
		{"SSE answers, one tool", &fakeGate{config: c, http: with(map[string]httpResp{"initialize": sse(1, initResult), "tools/list": sse(2, oneTool)})}, 0, ""},
		{"no tools", &fakeGate{config: c, http: override("tools/list", rpc(2, noTools))}, 1, "MCP server at " + u + " lists no tools"},
		{"no tools (SSE, spaced)", &fakeGate{config: c, http: override("tools/list", sse(2, `{ "tools" : [ ] }`))}, 1, "MCP server at " + u + " lists no tools"},
		{"a result without tools", &fakeGate{config: c, http: override("tools/list", rpc(2, `{}`))}, 1, "MCP server at " + u + " lists no tools"},
		{"tools/list: JSON-RPC error", &fakeGate{config: c, http: override("tools/list", rpcErr)}, 1,
			`MCP server at ` + u + `: tools/list failed: Method not found: \"tools/list\"`},
		{"initialize: JSON-RPC error", &fakeGate{config: c, http: override("initialize",
			httpResp{status: 200, body: `{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"unsupported protocol version"}}`})}, 1,
			`MCP server at ` + u + `: initialize failed: unsupported protocol version`},
		{"initialize: error without a message", &fakeGate{config: c, http: override("initialize",
			httpResp{status: 200, body: `{"jsonrpc":"2.0","id":1,"error":{"code":1}}`})}, 1,
			`MCP server at ` + u + `: initialize failed: JSON-RPC error without a message`},
		{"initialize: not JSON-RPC", &fakeGate{config: c, http: override("initialize", httpResp{status: 200, body: "<html>hello</html>"})}, 1,
			"MCP server at " + u + ": no JSON-RPC result in the answer to initialize"},
		{"initialize: 202 with no body", &fakeGate{config: c, http: override("initialize", httpResp{status: 202})}, 1,
			"MCP server at " + u + ": no JSON-RPC result in the answer to initialize"},
		{"initialize: 401", &fakeGate{config: c, http: override("initialize", httpResp{status: 401})}, 1,
			"MCP server at " + u + ": credentials rejected (HTTP 401)"},
		{"initialize: 404", &fakeGate{config: c, http: override("initialize", httpResp{status: 404})}, 1,
			"MCP server at " + u + ": not found (HTTP 404)"},
		{"initialize: 405", &fakeGate{config: c, http: override("initialize", httpResp{status: 405})}, 1,
			"MCP server at " + u + ": HTTP 405"},
		{"initialize: 503 raises", &fakeGate{config: c, http: override("initialize", httpResp{status: 503})}, 2,
			"MCP server at " + u + ": HTTP 503 (transient)"},
		{"initialized: 400", &fakeGate{config: c, http: override("notifications/initialized", httpResp{status: 400})}, 1,
			"MCP server at " + u + ": HTTP 400"},
		{"initialized: timed out raises", &fakeGate{config: c, http: override("notifications/initialized", httpResp{fail: -4})}, 2,
			"MCP server at " + u + ": timed out"},
		{"tools/list: 429 raises", &fakeGate{config: c, http: override("tools/list", httpResp{status: 429})}, 2,
			"MCP server at " + u + ": HTTP 429 (transient)"},
		{"tools/list: reset raises", &fakeGate{config: c, http: override("tools/list", httpResp{fail: -9, lastErr: "unexpected EOF"})}, 2,
			"MCP server at " + u + ": connection reset or broken HTTP: unexpected EOF"},
		{"refused", &fakeGate{config: c}, 1, "MCP server at " + u + ": connection refused"},
		{"TLS failed", &fakeGate{config: c, http: answer(httpResp{fail: -8, lastErr: "x509: certificate has expired or is not yet valid"})}, 1,
			"MCP server at " + u + ": TLS: x509: certificate has expired or is not yet valid"},
		{"secret not set", &fakeGate{config: c, http: answer(httpResp{fail: -1, lastErr: "secret MCP_TOKEN is not set"})}, 1,
			"secret MCP_TOKEN is not set"},
		{"denied", &fakeGate{config: c, http: answer(httpResp{fail: -2})}, 1, ""},
		{"url not set", &fakeGate{}, 2, `mcp probe: config "url" is not set`},
		{"too long", &fakeGate{config: cfg("url", u, "headers", strings.Repeat("X: y\n", 3000))}, 2,
			`mcp probe: config "url" with the headers is too long (the limit is 12288 bytes)`},
	})
}

// TestMCPProbeConversation checks the requests: initialize with the
// config's headers, then the session id and the version the server chose
// on every later request, and the session deleted at the end unless the
// probe raises.
func TestMCPProbeConversation(t *testing.T) {
	sh, err := ParseShorthand("mcp:http://127.0.0.1:8080/mcp bearer=MCP_TOKEN timeout_ms=30")
	require.NoError(t, err)
	r := newFakeHost(t)
	compiled := compile(t, r, MCP)
	for _, tc := range []struct {
		name    string
		tools   httpResp
		result  int32
		methods []string
	}{
		{"available", rpc(2, oneTool), 0, []string{"POST initialize", "POST notifications/initialized", "POST tools/list", "DELETE"}},
		{"no tools", rpc(2, noTools), 1, []string{"POST initialize", "POST notifications/initialized", "POST tools/list", "DELETE"}},
		{"tools/list timed out: no DELETE", httpResp{fail: -4}, 2, []string{"POST initialize", "POST notifications/initialized", "POST tools/list"}},
		{"tools/list failed: DELETE", httpResp{status: 403}, 1, []string{"POST initialize", "POST notifications/initialized", "POST tools/list", "DELETE"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := &fakeGate{config: sh.Config, http: mcpServer{"initialize": rpc(1, initResult), "tools/list": tc.tools}.serve}
			got := run(t, r, compiled, g)
			assert.Equal(t, tc.result, got.result, got.reason)
			var methods []string
			for i, req := range g.httpCalls {
				m := req.method
				if _, rest, ok := strings.Cut(req.body, `"method":"`); ok {
					name, _, _ := strings.Cut(rest, `"`)
					m += " " + name
				}
				methods = append(methods, m)
				assert.Equal(t, "http://127.0.0.1:8080/mcp", req.url)
				assert.Equal(t, int32(30), req.timeoutMS)
				assert.Equal(t, "Bearer ${secret:MCP_TOKEN}", req.header("Authorization"))
				assert.Equal(t, "application/json, text/event-stream", req.header("Accept"))
				if i == 0 {
					assert.Equal(t, "application/json", req.header("Content-Type"))
					assert.Empty(t, req.header("Mcp-Session-Id"))
					assert.JSONEq(t, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18",`+
						`"capabilities":{},"clientInfo":{"name":"gate-probe","version":"2"}}}`, req.body)
				} else {
					assert.Equal(t, "s-123", req.header("Mcp-Session-Id"))
					assert.Equal(t, "2025-03-26", req.header("MCP-Protocol-Version"), "the version the server chose")
				}
			}
			assert.Equal(t, tc.methods, methods)
		})
	}

	// A server without sessions: no session header, no DELETE, and the
	// version the probe asked for when the server names none.
	g := &fakeGate{config: cfg("url", "http://h/mcp"), http: mcpServer{
		"initialize": {status: 200, body: `{"jsonrpc":"2.0","id":1,"result":{"capabilities":{}}}`},
		"tools/list": {status: 200, body: `{"jsonrpc":"2.0","id":2,"result":` + oneTool + `}`},
	}.serve}
	got := run(t, r, compiled, g)
	require.Equal(t, int32(0), got.result, got.reason)
	require.Len(t, g.httpCalls, 3)
	for i, req := range g.httpCalls {
		assert.Empty(t, req.header("Mcp-Session-Id"))
		if i > 0 {
			assert.Equal(t, "2025-06-18", req.header("MCP-Protocol-Version"))
		}
	}
}

// FuzzMCPProbe feeds the mcp probe arbitrary answers to initialize and
// tools/list: it never traps and answers 0, 1 or 2 with a reason the host
// can keep; it is available only if the tools answer holds a tool object.
func FuzzMCPProbe(f *testing.F) {
	f.Add(`{"jsonrpc":"2.0","id":1,"result":`+initResult+`}`, `{"jsonrpc":"2.0","id":2,"result":`+oneTool+`}`)
	f.Add(`data: {"result":{"protocolVersion":"`, `{"error":{"message":"\`)
	f.Add(`"result":{"protocolVersion":"2025-06-18"}`, `"result":{"tools":[`)
	f.Add(`{"result"  :  {}}`, `{"result":{"tools" : [ {`)
	r := newFakeHost(f)
	compiled := compile(f, r, MCP)
	f.Fuzz(func(t *testing.T, init, tools string) {
		g := &fakeGate{config: cfg("url", "http://h/mcp"), http: mcpServer{
			"initialize": {status: 200, body: init, headers: map[string]string{"Mcp-Session-Id": init[:min(len(init), 300)]}},
			"tools/list": {status: 200, body: tools},
		}.serve}
		got := run(t, r, compiled, g)
		require.Contains(t, []int32{0, 1}, got.result, got.reason)
		require.LessOrEqual(t, len(got.reason), 1024)
		if got.result == 0 {
			require.Contains(t, tools, "{")
			require.Contains(t, tools, `"tools"`)
		}
	})
}

// TestMCPProbeSendsBackOnlyVisibleASCII: a session id or version that
// could add a line to the probe's requests is not sent back.
func TestMCPProbeSendsBackOnlyVisibleASCII(t *testing.T) {
	r := newFakeHost(t)
	g := &fakeGate{config: cfg("url", "http://h/mcp"), http: mcpServer{
		"initialize": {status: 200, headers: map[string]string{"Mcp-Session-Id": "s\nX-Evil: 1"},
			body: "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"protocolVersion\":\"2025\nX-Evil: 2\"}}"},
		"tools/list": rpc(2, oneTool),
	}.serve}
	got := run(t, r, compile(t, r, MCP), g)
	require.Equal(t, int32(0), got.result, got.reason)
	require.Len(t, g.httpCalls, 3, "no session: no DELETE")
	for _, req := range g.httpCalls {
		assert.Empty(t, req.header("X-Evil"))
		assert.Empty(t, req.header("Mcp-Session-Id"))
	}
	assert.Equal(t, "2025-06-18", g.httpCalls[1].header("MCP-Protocol-Version"))
}
