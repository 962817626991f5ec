package server

import (
	"bytes"
	"encoding/json"
	"net/http"
	"sync/atomic"

	"github.com/gate-dev/gate/runtime"
	"github.com/gate-dev/gate/runtime/schema"
)

// toolsAnswer is the shape of /v1/tools.
type toolsAnswer struct {
	Tools []toolJSON `json:"tools"`
	// Generation counts the events published so far (see hub); the list
	// is at least as new as that event.
	Generation uint64 `json:"generation"`
}

type toolJSON struct {
	Name        string `json:"name"`
	Description string `json:"description"`
	// Parameters is the tool's JSON Schema, null when it takes none.
	Parameters json.RawMessage `json:"parameters"`
}

// tools answers the tools a model may be offered now.
func (s *server) tools(w http.ResponseWriter, r *http.Request) {
	gen := s.hub.generation() // before the list: the list is at least this new
	list := s.svc.Gate().AvailableTools(r.Context())
	out := toolsAnswer{Tools: make([]toolJSON, len(list)), Generation: gen}
	for i, t := range list {
		out.Tools[i] = toolJSON{Name: t.Name, Description: t.Description, Parameters: t.Parameters}
	}
	writeJSON(w, http.StatusOK, out)
}

// schema answers the available tools in a model API's format, exactly as
// Gate.Schema renders them.
func (s *server) schema(w http.ResponseWriter, r *http.Request) {
	format := schema.OpenAI
	if q := r.URL.Query().Get("format"); q != "" {
		f, err := schema.ParseFormat(q)
		if err != nil {
			writeError(w, http.StatusBadRequest, err.Error())
			return
		}
		format = f
	}
	body, err := s.schemas.render(format, s.svc.Gate().AvailableTools(r.Context()))
	if err != nil {
		writeError(w, http.StatusInternalServerError, err.Error())
		return
	}
	writeBody(w, http.StatusOK, "application/json", body)
}

// schemaCache keeps the last rendering of each format. Rendering a
// thousand tools takes about a millisecond, far more than the rest of a
// request; the list changes only when a tool flips, so the rendering is
// reused while the tools are the same ones. The registry hands out a new
// slice whenever any answer was refreshed, so tools are compared by
// content, which costs little when the strings are the same ones.
type schemaCache struct {
	last [3]atomic.Pointer[rendered] // by format: openai, anthropic, mcp
}

type rendered struct {
	tools []schema.Tool // what was rendered; holds no probe, so no Gate
	body  []byte
}

func formatIndex(f schema.Format) int {
	switch f {
	case schema.Anthropic:
		return 1
	case schema.MCP:
		return 2
	}
	return 0
}

// render returns tools in format f, rendered by schema.JSON (as
// Gate.Schema does) or reused from the last call with the same tools.
func (c *schemaCache) render(f schema.Format, tools []runtime.Tool) ([]byte, error) {
	slot := &c.last[formatIndex(f)]
	if last := slot.Load(); last != nil && sameTools(last.tools, tools) {
		return last.body, nil
	}
	st := make([]schema.Tool, len(tools))
	for i, t := range tools {
		st[i] = schema.Tool{Name: t.Name, Description: t.Description, Parameters: t.Parameters}
	}
	body, err := schema.JSON(f, st)
	if err != nil {
		return nil, err
	}
	slot.Store(&rendered{tools: st, body: body})
	return body, nil
}

func sameTools(a []schema.Tool, b []runtime.Tool) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Name != b[i].Name || a[i].Description != b[i].Description || !sameRaw(a[i].Parameters, b[i].Parameters) {
			return false
		}
	}
	return true
}

// sameRaw compares two JSON texts, by address first: a Gate's tools keep
// the parameters they were registered with.
func sameRaw(a, b json.RawMessage) bool {
	if len(a) != len(b) {
		return false
	}
	return len(a) == 0 || &a[0] == &b[0] || bytes.Equal(a, b)
}
