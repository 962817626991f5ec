package server

import (
	"context"
	"fmt"
	"net/http"
	"time"

	"github.com/gate-dev/gate/internal/statusview"
)

// statusAnswer is the shape of /v1/status.
type statusAnswer struct {
	Service    serviceJSON       `json:"service"`
	Generation uint64            `json:"generation"`
	Tools      []statusview.Info `json:"tools"`
	Servers    []statusview.Info `json:"servers"`
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

// status answers every tool and server with its latest answer, and the
// service's own state, rendered once per change (statusCache).
func (s *server) status(w http.ResponseWriter, r *http.Request) {
	s.hook("enter")
	body, err := s.statuses.render(s.statusState, s.now, func(st statusState) ([]byte, time.Time, bool, error) {
		s.hook("encode")
		return s.renderStatus(r.Context(), st)
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
// the time it returns, read once the answers are: a read before every
// tool has answered waits for probe runs that begin after the request
// came, and an age as of a time read before them would be negative. The
// body may be kept unless ctx ended meanwhile (an answer may then say
// that the read gave up waiting for a probe).
func (s *server) renderStatus(ctx context.Context, st statusState) ([]byte, time.Time, bool, error) {
	out := statusAnswer{
		Service:    serviceJSON{Ready: st.ready, LastReload: st.reloadedAt.UTC()},
		Generation: st.gen,
	}
	if st.reloadErr != nil {
		msg := s.problems.text(st.reloadErr)
		out.Service.ReloadError = &msg
	}
	g := st.gate
	out.Service.Manifest = g.ManifestPath()
	tools, err := g.Tools().Status(ctx)
	if err != nil {
		return nil, time.Time{}, false, err
	}
	servers, err := g.Servers().Status(ctx)
	if err != nil {
		return nil, time.Time{}, false, err
	}
	now := s.now()
	out.Tools, out.Servers = views(tools, now), views(servers, now)
	body, err := encodeJSON(out)
	if err != nil {
		return nil, time.Time{}, false, fmt.Errorf("encoding the answer: %w", err)
	}
	return body, now, ctx.Err() == nil, nil
}
