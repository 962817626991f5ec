package server

import "net/http"

// healthz answers 200 while the process serves: a liveness check, open
// even when a token is required (it tells nothing).
func healthz(w http.ResponseWriter, _ *http.Request) {
	writeBody(w, http.StatusOK, "text/plain; charset=utf-8", []byte("ok\n"))
}

// readyz answers 200 once the first round of probes has answered, 503
// before: until then a read may have to wait for a probe.
func (s *server) readyz(w http.ResponseWriter, _ *http.Request) {
	if !s.svc.Ready() {
		writeBody(w, http.StatusServiceUnavailable, "text/plain; charset=utf-8", []byte("not ready: the first round of probes is running\n"))
		return
	}
	writeBody(w, http.StatusOK, "text/plain; charset=utf-8", []byte("ready\n"))
}
