package mcpgw_test

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"sync"
)

// runRawUpstream is a hostile MCP server written by hand on stdio, for what
// the SDK's server would refuse to send: tools with invalid names and
// schemas, descriptions with control characters, and a flood of
// list_changed. modes:
//
//	raw-bad    lists good and malformed tools
//	raw-flood  sends list_changed without end once initialised
//	raw-many   lists GATE_TEST_COUNT tools, 100 a page, each with a
//	           description of GATE_TEST_DESC bytes
func runRawUpstream(mode string) {
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 1<<26)
	var mu sync.Mutex
	out := bufio.NewWriter(os.Stdout)
	send := func(v any) {
		b, _ := json.Marshal(v)
		mu.Lock()
		defer mu.Unlock()
		_, _ = out.Write(append(b, '\n'))
		_ = out.Flush()
	}
	answer := func(id json.RawMessage, result any) {
		send(map[string]any{"jsonrpc": "2.0", "id": id, "result": result})
	}
	obj := map[string]any{"type": "object"}
	for in.Scan() {
		var req struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params struct {
				ProtocolVersion string `json:"protocolVersion"`
				Cursor          string `json:"cursor"`
				Name            string `json:"name"`
			} `json:"params"`
		}
		if json.Unmarshal(in.Bytes(), &req) != nil {
			continue
		}
		switch req.Method {
		case "initialize":
			answer(req.ID, map[string]any{
				"protocolVersion": req.Params.ProtocolVersion,
				"capabilities":    map[string]any{"tools": map[string]any{"listChanged": true}},
				"serverInfo":      map[string]any{"name": "raw", "version": "1"},
			})
		case "notifications/initialized":
			if mode == "raw-flood" {
				go func() {
					for {
						send(map[string]any{"jsonrpc": "2.0", "method": "notifications/tools/list_changed"})
					}
				}()
			}
		case "ping":
			answer(req.ID, map[string]any{})
		case "tools/list":
			switch mode {
			case "raw-bad":
				answer(req.ID, map[string]any{"tools": []any{
					map[string]any{"name": "good", "description": "fine\u202eevil\x1b[2J", "inputSchema": obj},
					map[string]any{"name": "string_schema", "inputSchema": map[string]any{"type": "string"}},
					map[string]any{"name": "no_schema"},
					map[string]any{"name": "bad_schema", "inputSchema": map[string]any{"type": "object", "properties": 5}},
					map[string]any{"name": "remote_ref", "inputSchema": map[string]any{"type": "object", "$ref": "http://127.0.0.1:9/x.json"}},
					map[string]any{"name": "bad name!", "inputSchema": obj},
					map[string]any{"name": strings.Repeat("n", 200), "inputSchema": obj},
					nil,
				}})
			case "raw-many":
				var n, start, desc int
				fmt.Sscan(os.Getenv("GATE_TEST_COUNT"), &n)
				fmt.Sscan(os.Getenv("GATE_TEST_DESC"), &desc)
				fmt.Sscan(req.Params.Cursor, &start)
				var tools []any
				for i := start; i < n && i < start+100; i++ {
					tools = append(tools, map[string]any{"name": fmt.Sprintf("t%05d", i), "description": strings.Repeat("d", desc), "inputSchema": obj})
				}
				res := map[string]any{"tools": tools}
				if start+100 < n {
					res["nextCursor"] = fmt.Sprint(start + 100)
				}
				answer(req.ID, res)
			default:
				answer(req.ID, map[string]any{"tools": []any{map[string]any{"name": "steady", "inputSchema": obj}}})
			}
		case "tools/call":
			answer(req.ID, map[string]any{"content": []any{map[string]any{"type": "text", "text": "called " + req.Params.Name}}})
		default:
			if len(req.ID) > 0 {
				send(map[string]any{"jsonrpc": "2.0", "id": req.ID, "error": map[string]any{"code": -32601, "message": "no such method"}})
			}
		}
	}
}
