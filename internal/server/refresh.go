package server

import (
	"fmt"
	"github.com/gate-dev/gate/internal/statusview"
	"net/http"
	"time"

	"github.com/gate-dev/gate/runtime"
)

// refreshAnswer is the shape of POST /v1/refresh: the new answers of what
// was probed, as /v1/status shows them.
type refreshAnswer struct {
	Tools   []statusview.Info `json:"tools"`
	Servers []statusview.Info `json:"servers"`
}

// refresh probes now, whatever their cached answers, the tools and
// servers named by ?tool= and ?server= (each may repeat), or every one
// when none is named, and answers once the new answers are in. An
// operator asks for it after fixing what a tool needs, rather than
// waiting for its TTL or retry. Each answer counts as any other does
// toward a tool's thresholds, and a hold-down still holds. Concurrent
// refreshes of one tool share its probe run, so a burst costs one run per
// tool. It changes what gate does, so it needs the token: a serve without
// one refuses it.
func (s *server) refresh(w http.ResponseWriter, r *http.Request) {
	if s.token == nil {
		writeError(w, http.StatusForbidden, "POST /v1/refresh runs probes on request, and needs a token (gatectl serve: --token-file or $GATE_TOKEN; docs/HTTP.md)")
		return
	}
	q := r.URL.Query()
	for key := range q {
		if key != "tool" && key != "server" {
			writeError(w, http.StatusBadRequest, fmt.Sprintf("unknown parameter %q: want tool=NAME or server=NAME, or neither for everything", key))
			return
		}
	}
	tools, servers := q["tool"], q["server"]
	all := len(tools) == 0 && len(servers) == 0
	g := s.svc.Gate()
	// Every name is checked before anything is probed.
	for _, n := range tools {
		if _, ok := g.Tools().Get(n); !ok {
			writeError(w, http.StatusNotFound, fmt.Sprintf("no tool named %q", n))
			return
		}
	}
	for _, n := range servers {
		if _, ok := g.Servers().Get(n); !ok {
			writeError(w, http.StatusNotFound, fmt.Sprintf("no server named %q", n))
			return
		}
	}
	var answers [2][]runtime.Status
	for i, part := range []struct {
		reg   *runtime.Registry
		names []string
	}{{g.Tools(), tools}, {g.Servers(), servers}} {
		if !all && len(part.names) == 0 {
			continue
		}
		sts, err := part.reg.Refresh(r.Context(), once(part.names)...)
		if err != nil {
			writeError(w, http.StatusNotFound, err.Error())
			return
		}
		answers[i] = sts
	}
	// The ages are as of now, after the runs: each began (checked_at)
	// after the request came, so a time read before them would make
	// every age negative.
	now := s.now()
	writeJSON(w, http.StatusOK, refreshAnswer{Tools: views(answers[0], now), Servers: views(answers[1], now)})
}

// views is sts as the answer shows them, with their ages as of now;
// empty, not nil, so that the JSON says [].
func views(sts []runtime.Status, now time.Time) []statusview.Info {
	out := make([]statusview.Info, 0, len(sts))
	for _, st := range sts {
		out = append(out, statusview.New(st, now))
	}
	return out
}

// once is names without repeats, in the order first given.
func once(names []string) []string {
	seen := make(map[string]bool, len(names))
	out := names[:0:0]
	for _, n := range names {
		if !seen[n] {
			seen[n] = true
			out = append(out, n)
		}
	}
	return out
}
