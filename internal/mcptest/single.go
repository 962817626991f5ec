package mcptest

import (
	"bufio"
	"encoding/json"
	"os"
	"time"
)

func init() { hostileModes["single"] = runSingleThreaded }

// runSingleThreaded is an MCP server on stdio that handles one message at
// a time, as a Python SDK server with a plain def tool does: "block"
// sleeps for its text (a duration) before it answers, reading nothing
// meanwhile, so that gate's pings wait behind it; "echo" answers its
// text.
func runSingleThreaded() {
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 1<<26)
	out := bufio.NewWriter(os.Stdout)
	send := func(v map[string]any) {
		v["jsonrpc"] = "2.0"
		b, _ := json.Marshal(v)
		_, _ = out.Write(append(b, '\n'))
		_ = out.Flush()
	}
	text := func(s string) map[string]any {
		return map[string]any{"content": []any{map[string]any{"type": "text", "text": s}}}
	}
	obj := map[string]any{"type": "object", "properties": map[string]any{"text": map[string]any{"type": "string"}}}
	for in.Scan() {
		var req struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params struct {
				ProtocolVersion string `json:"protocolVersion"`
				Name            string `json:"name"`
				Arguments       struct {
					Text string `json:"text"`
				} `json:"arguments"`
			} `json:"params"`
		}
		if json.Unmarshal(in.Bytes(), &req) != nil || len(req.ID) == 0 {
			continue
		}
		var result any
		switch req.Method {
		case "initialize":
			result = map[string]any{
				"protocolVersion": req.Params.ProtocolVersion,
				"capabilities":    map[string]any{"tools": map[string]any{}},
				"serverInfo":      map[string]any{"name": "single", "version": "1"},
			}
		case "ping":
			result = map[string]any{}
		case "tools/list":
			result = map[string]any{"tools": []any{
				map[string]any{"name": "block", "inputSchema": obj},
				map[string]any{"name": "echo", "inputSchema": obj},
			}}
		case "tools/call":
			a := req.Params.Arguments.Text
			result = text("echo: " + a)
			if req.Params.Name == "block" {
				d, _ := time.ParseDuration(a)
				time.Sleep(d)
				result = text("blocked " + a)
			}
		default:
			send(map[string]any{"id": req.ID, "error": map[string]any{"code": -32601, "message": "method not found"}})
			continue
		}
		send(map[string]any{"id": req.ID, "result": result})
	}
}
