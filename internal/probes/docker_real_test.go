package probes_test

import (
	"net/http"
	"path/filepath"
	"testing"

	"github.com/gate-dev/gate/runtime"
)

// TestDockerProbeReal asks a fake Docker API on a unix socket: one that
// pings, one that hangs, one that fails, and a socket that is not there.
func TestDockerProbeReal(t *testing.T) {
	e := newEngine(t)
	ping := unixServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/_ping" || r.Method != http.MethodGet {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Api-Version", "1.45")
		_, _ = w.Write([]byte("OK"))
	}))
	hung := unixServer(t, hang(t))
	broken := unixServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "daemon is shutting down", http.StatusInternalServerError)
	}))
	old := unixServer(t, http.HandlerFunc(http.NotFound))
	missing := filepath.Join(t.TempDir(), "nothing.sock")
	runReal(t, e, runtime.ProbeConfig{}, []realCase{
		{shorthand: "docker:unix:" + ping, outcome: runtime.Available},
		{shorthand: "docker:unix:" + hung + " timeout_ms=20", outcome: runtime.Failed, reason: "Docker unavailable: " + hung + ": timed out"},
		{shorthand: "docker:unix:" + broken, outcome: runtime.Failed, reason: "Docker unavailable: " + broken + ": HTTP 500 (transient)"},
		{shorthand: "docker:unix:" + old, outcome: runtime.Unavailable, reason: "Docker unavailable: " + old + ": HTTP 404"},
		{shorthand: "docker:unix:" + missing, outcome: runtime.Unavailable,
			reason: "Docker unavailable: " + missing + ": connection refused (is the daemon running?)"},
	})
}
