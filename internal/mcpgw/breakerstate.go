package mcpgw

import (
	"context"
	"fmt"
	"time"

	"github.com/gate-dev/gate/runtime"
)

// refreshTimeout bounds the fresh probe of a server whose breaker opened.
const refreshTimeout = 10 * time.Second

// breakerChanged records a change of u's breaker: the state gauge, an
// event of type "breaker" on the service (so that gatectl's event log and
// serve's event stream carry it), and a new computation of the offered
// set. When it opens, the server's probe is asked for a fresh answer: a
// probe that sees the failure keeps the tools hidden until it says
// available again.
func (g *Gateway) breakerChanged(u *upstream, c breakerChange) {
	g.metrics.breakerState(u.name, c.state)
	ev := runtime.Event{Type: "breaker", Name: u.name, State: c.state, Available: c.state != BreakerOpen, Reason: c.why, At: time.Now()}
	if !ev.Available {
		ev.Code = runtime.CodeBreakerOpen
	}
	g.svc.Publish(ev)
	if c.state == BreakerOpen {
		g.refreshServer(u.name)
	}
	g.poke()
}

// refreshServer probes server now, in the background, and has the offered
// set computed again with its answer. Run waits for it before it returns.
func (g *Gateway) refreshServer(server string) {
	g.refreshes.Add(1)
	go func() {
		defer g.refreshes.Done()
		ctx, cancel := context.WithTimeout(g.background, refreshTimeout)
		defer cancel()
		// An error is a server the serving manifest no longer names: the
		// computation below drops its upstream.
		_, _ = g.svc.Gate().Servers().Refresh(ctx, server)
		g.poke()
	}()
}

// breakerHides settles u's breaker with what the computation of the
// offered set knows, and returns why it hides the server's tools, or "".
func (g *Gateway) breakerHides(u *upstream, p breakerPolicy, st runtime.Status, known, ready bool) string {
	u.breakerPolicy.Store(&p)
	probe := probeAnswer{has: known && st.HasProbe, available: st.Available(), at: st.CheckedAt}
	change, changed, wake := u.breaker.settle(time.Now(), p, probe, ready)
	if changed {
		g.breakerChanged(u, change)
	}
	if !wake.IsZero() {
		g.wakeAt(wake)
	}
	if why := u.breaker.hiding(); why != "" {
		return fmt.Sprintf("server %s's breaker is open: %s", u.name, why)
	}
	return ""
}

// wakeAt has the offered set computed again at t (a breaker's cool-down
// ends then).
func (g *Gateway) wakeAt(t time.Time) {
	time.AfterFunc(time.Until(t), g.poke)
}
