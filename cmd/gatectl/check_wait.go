package main

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/gate-dev/gate/internal/safetext"
	"github.com/gate-dev/gate/runtime"
)

// The bounds of check --wait's pause between two reads of the answers.
// A read takes the runtime's cached answer while it is fresh and probes
// only once it is due (its TTL, or its retry while it fails), so a read
// costs a cache look-up unless the runtime would probe anyway: the pause
// is the time until the earliest answer is due, at least minWaitPoll (a
// TTL of 0 re-probes at every read, and that must not become a busy
// loop) and at most maxWaitPoll (should the due time computed here be
// late, the runtime's cache still decides when a probe runs).
const (
	minWaitPoll = 100 * time.Millisecond
	maxWaitPoll = time.Second
)

// answers reads the answers check reports: those of the named tools and
// servers, or all of them when none is named.
type answers struct {
	g                    *runtime.Gate
	tools, servers       []string
	allTools, allServers bool
}

func (a answers) read(ctx context.Context) (tools, servers []runtime.Status) {
	if a.allTools || len(a.tools) > 0 {
		tools, _ = a.g.Tools().Status(ctx, a.tools...)
	}
	if a.allServers || len(a.servers) > 0 {
		servers, _ = a.g.Servers().Status(ctx, a.servers...)
	}
	return tools, servers
}

// waitAvailable reads the answers until every one is available or wait
// has passed, and returns the last read: at the deadline it reads once
// more, so that an answer due then is seen. It says on stderr, once,
// what it waits for.
func waitAvailable(ctx context.Context, a answers, wait time.Duration, stderr io.Writer) (tools, servers []runtime.Status) {
	deadline := time.Now().Add(wait)
	said := false
	for {
		tools, servers = a.read(ctx)
		hidden := notAvailable(tools, servers)
		left := time.Until(deadline)
		if len(hidden) == 0 || left <= 0 || ctx.Err() != nil {
			return tools, servers
		}
		if !said {
			fmt.Fprintf(stderr, "gatectl check: waiting up to %v for %s\n", wait, safetext.Terminal(strings.Join(hidden, ", ")))
			said = true
		}
		pause := min(max(time.Until(nextDue(tools, servers)), minWaitPoll), maxWaitPoll, left)
		t := time.NewTimer(pause)
		select {
		case <-t.C:
		case <-ctx.Done():
			t.Stop()
		}
	}
}

// notAvailable names the answers that are not available.
func notAvailable(lists ...[]runtime.Status) []string {
	var names []string
	for _, l := range lists {
		for _, st := range l {
			if !st.Available() {
				names = append(names, st.Name)
			}
		}
	}
	return names
}

// nextDue is when the runtime will next probe one of the answers that
// are not available (their Status.NextProbe, which holds their TTL,
// retry and hold-down); the zero time when none says.
func nextDue(tools, servers []runtime.Status) time.Time {
	var due time.Time
	for _, sts := range [][]runtime.Status{tools, servers} {
		for _, st := range sts {
			if st.Available() || st.NextProbe.IsZero() {
				continue
			}
			if due.IsZero() || st.NextProbe.Before(due) {
				due = st.NextProbe
			}
		}
	}
	return due
}
