package server

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"time"

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
	list    toolsCache
	// statuses keeps the last rendering of /v1/status.
	statuses statusCache
	// pages keeps the last rendering of the status page (GET /).
	pages statusCache
	// now is the clock of /v1/status's ages and of how long its
	// rendering is reused; time.Now but in tests, which set it before
	// the first request.
	now func() time.Time
	// problems keeps the last reload error as /v1/status shows it.
	problems problemCache
	// testHook, when not nil, is told of steps of /v1/tools, /v1/schema
	// and /v1/status: "enter" as a request starts, "encode" as it
	// renders; "enter page" and "encode page" for the status page.
	// Tests only; set before the first request.
	testHook func(step string)
	// routes answer GET and HEAD; actions, which change what gate does,
	// answer POST only.
	routes  map[string]http.HandlerFunc
	actions map[string]http.HandlerFunc
	// allowed serves a request that passed the Host and token checks
	// (serveAllowed, within Options.Trace).
	allowed http.Handler
}

// New returns the HTTP API over svc (docs/HTTP.md): read-only JSON under
// /v1, the event stream, /healthz, /readyz and, when metrics is not nil,
// /metrics. It subscribes to svc's events until opts.Done is closed.
// Requests never run a probe once svc has answered every tool (see the
// package documentation).
func New(svc *runtime.Service, metrics *Metrics, opts Options) http.Handler {
	opts = opts.withDefaults()
	s := &server{svc: svc, metrics: metrics, opts: opts, token: newTokenCheck(opts.Token), now: time.Now}
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
		"/":                 s.page,
		pageScriptPath:      s.pageAsset,
		pageStylePath:       s.pageAsset,
	}
	s.actions = map[string]http.HandlerFunc{
		"/v1/refresh": s.refresh,
	}
	if metrics != nil {
		s.routes["/metrics"] = promhttp.HandlerFor(metrics.Registry, promhttp.HandlerOpts{}).ServeHTTP
	}
	s.allowed = http.HandlerFunc(s.serveAllowed)
	if opts.Trace != nil {
		s.allowed = opts.Trace(s.allowed)
	}
	return s
}

// ServeHTTP checks, in this order: without a token, that the Host is
// loopback (on every path, /healthz included: a page reading the API
// through DNS rebinding learns nothing, not even that gate runs); with
// one, the token (before anything else, so an unauthenticated caller
// cannot tell an endpoint that exists from one that does not, nor which
// methods it takes); then /mcp goes to the MCP gateway, when there is
// one; for the rest, the method; that there is no body; then routes.
// Every refusal closes the connection, so a refused client holds no
// connection slot (Listen) once answered.
func (s *server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	// Every answer is about "now": no cache may keep one.
	h.Set("Cache-Control", "no-store")
	h.Set("X-Content-Type-Options", "nosniff")
	if s.token == nil && !loopbackHost(r.Host) {
		misdirected(w, r.Host)
		return
	}
	shown := s.token.allows(r)
	if r.URL.Path != "/healthz" && !shown {
		unauthorized(w)
		return
	}
	if !shown {
		// /healthz without the token: answered, but no token holder's
		// request, so not traced (Options.Trace): anyone could fill the
		// API's share of the span queue with it, in traces of their
		// choosing.
		s.serveAllowed(w, r)
		return
	}
	if s.token == nil || r.URL.Path != "/healthz" {
		// It showed the token (or none is needed): its connection keeps
		// its slot when the listener is full, unless its peer has its
		// share of such connections already.
		if !proveConn(r) {
			h.Set("Retry-After", "1")
			writeError(w, http.StatusTooManyRequests, "this client has its share of the server's connections open already: close one, or try again later")
			return
		}
	}
	s.allowed.ServeHTTP(w, r)
}

// serveAllowed serves a request that passed ServeHTTP's Host and token
// checks.
func (s *server) serveAllowed(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	if r.URL.Path == "/mcp" && s.opts.MCP != nil {
		s.opts.MCP.ServeHTTP(w, r)
		return
	}
	action, isAction := s.actions[r.URL.Path]
	switch {
	case isAction && r.Method != http.MethodPost:
		h.Set("Allow", "POST")
		writeError(w, http.StatusMethodNotAllowed, fmt.Sprintf("method %s not allowed: %s takes POST", r.Method, r.URL.Path))
		return
	case !isAction && r.Method != http.MethodGet && r.Method != http.MethodHead:
		h.Set("Allow", "GET, HEAD")
		writeError(w, http.StatusMethodNotAllowed, fmt.Sprintf("method %s not allowed: %s answers GET and HEAD", r.Method, r.URL.Path))
		return
	}
	// No endpoint reads a body. Refusing one (rather than letting the
	// server skip it) means none is ever read: ContentLength is -1 for a
	// chunked one.
	if r.ContentLength != 0 {
		writeError(w, http.StatusRequestEntityTooLarge, "a request body is not accepted: no endpoint takes one")
		return
	}
	if isAction {
		action(w, r)
		return
	}
	route, ok := s.routes[r.URL.Path]
	if !ok {
		writeError(w, http.StatusNotFound, fmt.Sprintf("no endpoint %s (docs/HTTP.md lists them)", r.URL.Path))
		return
	}
	route(w, r)
}

func (s *server) hook(step string) {
	if s.testHook != nil {
		s.testHook(step)
	}
}

// writeJSON answers v as JSON, indented as gatectl's --json output (so
// that /v1/diagnostics is byte for byte `gatectl doctor skills
// --requirements --json`).
func writeJSON(w http.ResponseWriter, code int, v any) {
	b, err := encodeJSON(v)
	if err != nil {
		writeError(w, http.StatusInternalServerError, "encoding the answer: "+err.Error())
		return
	}
	writeBody(w, code, "application/json", b)
}

// encodeJSON is the JSON of every answer (see writeJSON).
func encodeJSON(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
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

// writeError answers an error and closes the connection after it: a
// refused client must not keep a connection slot on keep-alive, and one
// that is merely wrong reconnects at little cost.
func writeError(w http.ResponseWriter, code int, msg string) {
	w.Header().Set("Connection", "close")
	writeJSON(w, code, apiError{Error: msg})
}
