// Package statusview is the JSON form of a tool's or server's status
// that gatectl check --json and the HTTP API's /v1/status and /v1/refresh
// print: one type, so that the views cannot drift apart.
package statusview

import (
	"time"

	"github.com/gate-dev/gate/runtime"
)

// Info is a runtime.Status as reports show it: each tool or server of
// `gatectl check --json` and of the HTTP API's /v1/status and
// /v1/refresh. It is one type so that the views cannot drift apart;
// docs/CLI.md and docs/HTTP.md describe its fields.
type Info struct {
	Name      string `json:"name"`
	State     string `json:"state"` // available | unavailable | error
	Available bool   `json:"available"`
	Reason    string `json:"reason"`
	// Probe is the probe as the manifest writes it: the standard
	// shorthand, the module's path, or "" for none (runtime.Status.Probe).
	Probe string `json:"probe"`
	// Source is where the answer came from: "probed" (the probe ran for
	// it), "cached", "graced" or "none" (no probe); Graced and Cached say
	// the same as two flags.
	Source string `json:"source"`
	Graced bool   `json:"graced"`
	Cached bool   `json:"cached"`
	// CheckedAt and AgeSeconds say when the probe run behind the answer
	// started, and how long before the view was made; null for a tool
	// without a probe.
	CheckedAt  *time.Time `json:"checked_at"`
	AgeSeconds *float64   `json:"age_seconds"`
	LatencyMS  float64    `json:"latency_ms"`
	Error      *ErrorInfo `json:"error"`
	// Pending is a flip under way (see Policy); left out when there is
	// none.
	Pending *runtime.Pending `json:"pending,omitempty"`
	// CodeInfo adds "code", "retryable" and "action" to an answer that is
	// not available.
	*CodeInfo
}

// New describes st, its probe as st.Probe names it, with its age as of
// now.
func New(st runtime.Status, now time.Time) Info {
	info := Info{
		Name:      st.Name,
		State:     string(st.State),
		Available: st.Available(),
		Reason:    st.Reason,
		Probe:     st.Probe,
		Source:    "probed",
		Graced:    st.Graced,
		Cached:    st.Cached,
		LatencyMS: float64(st.Latency.Microseconds()) / 1000,
		Error:     Error(st.Err),
		Pending:   st.Pending,
	}
	switch {
	case !st.HasProbe:
		info.Source = "none"
	case st.Graced:
		info.Source = "graced"
	case st.Cached:
		info.Source = "cached"
	}
	if !st.CheckedAt.IsZero() {
		at := st.CheckedAt.UTC()
		age := now.Sub(st.CheckedAt).Seconds()
		info.CheckedAt, info.AgeSeconds = &at, &age
	}
	if !st.Available() {
		info.CodeInfo = Code(st.Code)
	}
	return info
}
