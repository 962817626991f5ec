package server

import (
	"bytes"
	"encoding/json"
	"net/http"
	"sync"
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
	s.hook("enter")
	gen := s.hub.generation() // before the list: the list is at least this new
	list := s.svc.Gate().AvailableTools(r.Context())
	body, err := s.list.render(gen, list, func(st []schema.Tool) ([]byte, error) {
		out := toolsAnswer{Tools: make([]toolJSON, len(st)), Generation: gen}
		for i, t := range st {
			out.Tools[i] = toolJSON{Name: t.Name, Description: t.Description, Parameters: t.Parameters}
		}
		s.hook("encode")
		return encodeJSON(out)
	})
	if err != nil {
		writeError(w, http.StatusInternalServerError, "encoding the answer: "+err.Error())
		return
	}
	writeBody(w, http.StatusOK, "application/json", body)
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
	s.hook("enter")
	body, err := s.schemas[formatIndex(format)].render(0, s.svc.Gate().AvailableTools(r.Context()), func(st []schema.Tool) ([]byte, error) {
		s.hook("encode")
		return schema.JSON(format, st)
	})
	if err != nil {
		writeError(w, http.StatusInternalServerError, err.Error())
		return
	}
	writeBody(w, http.StatusOK, "application/json", body)
}

// schemaCache keeps the last rendering of each format (by formatIndex).
type schemaCache [3]toolsCache

// toolsCache keeps the last rendering of a tool list. Rendering a
// thousand tools takes about a millisecond, far more than the rest of a
// request, and a rendering is as large as the tools' descriptions and
// schemas (which may be megabytes): every reader of the same list gets
// the same bytes, rendered once. The list changes only when a tool flips,
// so the rendering is reused while the tools are the same ones. The
// registry hands out a new slice whenever any answer was refreshed, so
// tools are compared by content, which costs little when the strings are
// the same ones.
type toolsCache struct {
	last atomic.Pointer[rendered]
	// mu is held while rendering: readers that arrive meanwhile wait for
	// that rendering instead of each making (and holding) their own.
	mu sync.Mutex
}

type rendered struct {
	gen   uint64        // the generation the body tells, if it does
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

// render returns encode(tools) for generation gen, reused from an
// earlier call with the same gen and tools, or from one under way.
func (c *toolsCache) render(gen uint64, tools []runtime.Tool, encode func([]schema.Tool) ([]byte, error)) ([]byte, error) {
	if last := c.last.Load(); last != nil && last.gen == gen && sameTools(last.tools, tools) {
		return last.body, nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if last := c.last.Load(); last != nil && last.gen == gen && sameTools(last.tools, tools) {
		return last.body, nil
	}
	st := make([]schema.Tool, len(tools))
	for i, t := range tools {
		st[i] = schema.Tool{Name: t.Name, Description: t.Description, Parameters: t.Parameters}
	}
	body, err := encode(st)
	if err != nil {
		return nil, err
	}
	c.last.Store(&rendered{gen: gen, tools: st, body: body})
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
