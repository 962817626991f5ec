package server

import (
	"context"
	"fmt"
	"net/http"
	"time"

	"github.com/gate-dev/gate/runtime"
)

// statusAnswer is the shape of /v1/status.
type statusAnswer struct {
	Service    serviceJSON  `json:"service"`
	Generation uint64       `json:"generation"`
	Tools      []statusJSON `json:"tools"`
	Servers    []statusJSON `json:"servers"`
}

type serviceJSON struct {
	// Ready: the first round of probes has answered.
	Ready    bool   `json:"ready"`
	Manifest string `json:"manifest"`
	// LastReload is when the manifest was last read successfully (or
	// first opened).
	LastReload time.Time `json:"last_reload"`
	// ReloadError is why the last reload failed (the configuration read
	// before keeps serving), null when it worked; its first problems only
	// (shortProblems).
	ReloadError *string `json:"reload_error"`
}

// statusJSON is one tool or server; the fields follow `gatectl check
// --json` where they overlap.
type statusJSON struct {
	Name      string `json:"name"`
	State     string `json:"state"`
	Available bool   `json:"available"`
	Reason    string `json:"reason"`
	Probe     string `json:"probe"`
	Graced    bool   `json:"graced"`
	Cached    bool   `json:"cached"`
	// CheckedAt and AgeSeconds say when the probe run behind the answer
	// started, and how long ago; null for a tool without a probe.
	CheckedAt  *time.Time         `json:"checked_at"`
	AgeSeconds *float64           `json:"age_seconds"`
	LatencyMS  float64            `json:"latency_ms"`
	Error      *runtime.ErrorInfo `json:"error"`
	// Pending is a flip under way (failure_threshold, success_threshold,
	// hold_down): the latest answers disagree with the one served; left
	// out when there is none.
	Pending *runtime.Pending `json:"pending,omitempty"`
	// CodeInfo adds "code", "retryable" and "action" to an answer that is
	// not available.
	*runtime.CodeInfo
}

// status answers every tool and server with its latest answer, and the
// service's own state, rendered once per change (statusCache).
func (s *server) status(w http.ResponseWriter, r *http.Request) {
	s.hook("enter")
	body, err := s.statuses.render(s.statusState, s.now, func(st statusState, now time.Time) ([]byte, bool, error) {
		s.hook("encode")
		return s.renderStatus(r.Context(), st, now)
	})
	if err != nil {
		writeError(w, http.StatusInternalServerError, err.Error())
		return
	}
	writeBody(w, http.StatusOK, "application/json", body)
}

// statusState reads what /v1/status tells besides the answers, and the
// registries' versions; the generation first, as /v1/tools does: the
// answer is at least as new as that event.
func (s *server) statusState() statusState {
	st := statusState{gen: s.hub.generation(), gate: s.svc.Gate()}
	st.tools, st.servers = st.gate.Tools().Version(), st.gate.Servers().Version()
	st.ready = s.svc.Ready()
	st.reloadedAt, st.reloadErr = s.svc.LastReload()
	return st
}

// renderStatus renders st and the answers of its Gate, with ages as of
// now; the body may be kept unless ctx ended meanwhile (an answer may
// then say that the read gave up waiting for a probe).
func (s *server) renderStatus(ctx context.Context, st statusState, now time.Time) ([]byte, bool, error) {
	out := statusAnswer{
		Service:    serviceJSON{Ready: st.ready, LastReload: st.reloadedAt.UTC()},
		Generation: st.gen,
		Tools:      []statusJSON{},
		Servers:    []statusJSON{},
	}
	if st.reloadErr != nil {
		msg := s.problems.text(st.reloadErr)
		out.Service.ReloadError = &msg
	}
	g := st.gate
	if m := g.Manifest(); m != nil {
		out.Service.Manifest = m.Path
	}
	probes := probeLabels(g)
	for _, part := range []struct {
		kind string
		reg  *runtime.Registry
		out  *[]statusJSON
	}{{"tool", g.Tools(), &out.Tools}, {"server", g.Servers(), &out.Servers}} {
		sts, err := part.reg.Status(ctx)
		if err != nil {
			return nil, false, err
		}
		for _, a := range sts {
			*part.out = append(*part.out, statusOf(a, probes[part.kind+"/"+a.Name], now))
		}
	}
	body, err := encodeJSON(out)
	if err != nil {
		return nil, false, fmt.Errorf("encoding the answer: %w", err)
	}
	return body, ctx.Err() == nil, nil
}

// probeLabels is the probe of every tool and server of g's manifest, as
// the manifest writes it, by "tool/NAME" and "server/NAME".
func probeLabels(g *runtime.Gate) map[string]string {
	probes := map[string]string{}
	if m := g.Manifest(); m != nil {
		for _, t := range m.Tools {
			probes["tool/"+t.Name] = t.Probe.Label()
		}
		for _, sv := range m.Servers {
			probes["server/"+sv.Name] = sv.Probe.Label()
		}
	}
	return probes
}

func statusOf(st runtime.Status, probe string, now time.Time) statusJSON {
	e := statusJSON{
		Name:      st.Name,
		State:     string(st.State),
		Available: st.Available(),
		Reason:    st.Reason,
		Probe:     probe,
		Graced:    st.Graced,
		Cached:    st.Cached,
		LatencyMS: float64(st.Latency.Microseconds()) / 1000,
		Pending:   st.Pending,
	}
	if !st.CheckedAt.IsZero() {
		at := st.CheckedAt.UTC()
		age := now.Sub(st.CheckedAt).Seconds()
		e.CheckedAt, e.AgeSeconds = &at, &age
	}
	e.Error = runtime.NewErrorInfo(st.Err)
	if !st.Available() {
		e.CodeInfo = st.Code.Info()
	}
	return e
}
