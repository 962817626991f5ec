package server

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"

	"github.com/gate-dev/gate/runtime"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// server answers the HTTP API over one runtime.Service.
type server struct {
	svc     *runtime.Service
	metrics *Metrics
	opts    Options
	token   *tokenCheck
	hub     *hub
	schemas schemaCache
	routes  map[string]http.HandlerFunc
}

// New returns the HTTP API over svc (docs/HTTP.md): read-only JSON under
// /v1, the event stream, /healthz, /readyz and, when metrics is not nil,
// /metrics. It subscribes to svc's events until opts.Done is closed.
// Requests never run a probe once svc has answered every tool (see the
// package documentation).
func New(svc *runtime.Service, metrics *Metrics, opts Options) http.Handler {
	opts = opts.withDefaults()
	s := &server{svc: svc, metrics: metrics, opts: opts, token: newTokenCheck(opts.Token)}
	s.hub = newHub(svc, metrics, opts)
	s.routes = map[string]http.HandlerFunc{
		"/v1/tools":         s.tools,
		"/v1/schema":        s.schema,
		"/v1/status":        s.status,
		"/v1/skills":        s.skills,
		"/v1/skills/prompt": s.prompt,
		"/v1/diagnostics":   s.diagnostics,
		"/v1/events":        s.hub.serve,
		"/healthz":          healthz,
		"/readyz":           s.readyz,
	}
	if metrics != nil {
		s.routes["/metrics"] = promhttp.HandlerFor(metrics.Registry, promhttp.HandlerOpts{}).ServeHTTP
	}
	return s
}

// ServeHTTP checks, in this order, the token (before anything else, so an
// unauthenticated caller cannot tell an endpoint that exists from one that
// does not, nor which methods it takes), the method, then routes.
func (s *server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	// Every answer is about "now": no cache may keep one.
	h.Set("Cache-Control", "no-store")
	h.Set("X-Content-Type-Options", "nosniff")
	if r.URL.Path != "/healthz" && !s.token.allows(r) {
		unauthorized(w)
		return
	}
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		h.Set("Allow", "GET, HEAD")
		writeError(w, http.StatusMethodNotAllowed, fmt.Sprintf("method %s not allowed: the API is read-only (GET, HEAD)", r.Method))
		return
	}
	route, ok := s.routes[r.URL.Path]
	if !ok {
		writeError(w, http.StatusNotFound, fmt.Sprintf("no endpoint %s (docs/HTTP.md lists them)", r.URL.Path))
		return
	}
	route(w, r)
}

// writeJSON answers v as JSON, indented as gatectl's --json output (so
// that /v1/diagnostics is byte for byte `gatectl doctor skills
// --requirements --json`).
func writeJSON(w http.ResponseWriter, code int, v any) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		writeError(w, http.StatusInternalServerError, "encoding the answer: "+err.Error())
		return
	}
	writeBody(w, code, "application/json", b.Bytes())
}

// writeBody answers body with its length, so that HEAD tells it too.
func writeBody(w http.ResponseWriter, code int, contentType string, body []byte) {
	h := w.Header()
	h.Set("Content-Type", contentType)
	h.Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(code)
	_, _ = w.Write(body)
}

// apiError is the shape of every error: {"error": "..."}.
type apiError struct {
	Error string `json:"error"`
}

func writeError(w http.ResponseWriter, code int, msg string) {
	writeJSON(w, code, apiError{Error: msg})
}
