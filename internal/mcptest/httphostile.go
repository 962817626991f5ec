package mcptest

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strings"
)

// HostileHTTP wraps an HTTP MCP upstream (Next) with a twist on its
// answers to a tools/call of the tool named Tool, once the upstream has
// been listed; every other request goes to Next:
//
//	endless  a JSON answer that never ends
//	stall    a JSON answer of Size bytes (short of its end), then nothing
//	         until the caller goes away
type HostileHTTP struct {
	Next http.Handler
	Mode string
	Tool string
	Size int
}

func (h *HostileHTTP) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if RPCMethod(r) != "tools/call" || calledTool(r) != h.Tool {
		h.Next.ServeHTTP(w, r)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusOK)
	_, _ = io.WriteString(w, `{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"`)
	chunk := strings.Repeat("x", 64<<10)
	switch h.Mode {
	case "endless":
		for {
			if _, err := io.WriteString(w, chunk); err != nil {
				return
			}
		}
	case "stall":
		for range h.Size / len(chunk) {
			if _, err := io.WriteString(w, chunk); err != nil {
				return
			}
		}
		_ = http.NewResponseController(w).Flush()
		<-r.Context().Done()
	}
}

// calledTool is the tool a tools/call request calls; the body is put
// back for the next handler.
func calledTool(r *http.Request) string {
	body, _ := io.ReadAll(r.Body)
	r.Body = io.NopCloser(bytes.NewReader(body))
	var m struct{ Params struct{ Name string } }
	_ = json.Unmarshal(body, &m)
	return m.Params.Name
}
