package mcpgw

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gate-dev/gate/internal/uplink"
)

// keepAlive pings the upstream every interval until ctx is done, and fails
// the session (through its guard) when a ping is not answered before the
// next is due, unless the upstream is busy with calls (excused). Any
// answer shows it alive, an error too: the SDK v1.8.0 pings only sessions
// older than the 2026-07-28 protocol, which has no ping method (its
// servers answer "method not found"), so gate pings every session itself,
// and counts that answer as one. A ping that fails at the transport (a
// 5xx, a reset) is a failure of the server's for its breaker.
func (u *upstream) keepAlive(ctx context.Context, cs *mcp.ClientSession, g *uplink.Guard, every time.Duration) {
	if every <= 0 {
		return
	}
	t := time.NewTicker(every)
	defer t.Stop()
	answered := time.Now()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		busy := u.callsInFlight() > 0
		pctx, cancel := context.WithTimeout(ctx, every)
		err := cs.Ping(pctx, nil)
		timedOut := errors.Is(pctx.Err(), context.DeadlineExceeded)
		cancel()
		u.hookData("ping")
		var answer *jsonrpc.Error
		switch {
		case err == nil, errors.As(err, &answer) && !sdkTransportError(answer):
			answered = time.Now()
			u.breaker.alive()
		case ctx.Err() != nil:
			return
		case timedOut && u.excused(busy, answered):
			// Waiting behind a call: a server that handles one message
			// at a time answers it once the call is done.
		case timedOut:
			g.Fail(fmt.Errorf("no answer to a ping within %v%s", every, g.Flow.Throttled()))
			return
		default:
			// The session may be breaking for another reason, which its
			// end reports (and ends ctx); or the error was the transport's
			// alone (an HTTP upstream's 503), which the breaker counts.
			// Either way the pings go on: an upstream that errs once must
			// still be found out if it then hangs.
			u.gw.recordHealth(u, u.policy(), healthFault, errors.New(u.secrets.text("gate's ping failed: "+cleanMessage(err.Error()))), nil)
		}
	}
}

// excused reports whether a ping that timed out is not held
// against the upstream: a call was in flight when it was sent or is now
// (a server that handles one message at a time answers the ping after
// it), and no call has run past its call timeout since the last ping
// answered at answered. A call past its timeout with pings unanswered is
// a hung server; so is one silent with nothing in flight.
func (u *upstream) excused(busyAtSend bool, answered time.Time) bool {
	if !busyAtSend && u.callsInFlight() == 0 {
		return false
	}
	last := u.timedOutAt.Load()
	return last == 0 || time.Unix(0, last).Before(answered)
}

// callsInFlight is how many forwarded requests the upstream has now.
func (u *upstream) callsInFlight() int { return len(u.callSlots) }

// callTimedOut notes that a forwarded request ran past its call timeout.
func (u *upstream) callTimedOut() { u.timedOutAt.Store(time.Now().UnixNano()) }

// policy is the breaker policy the last computation of the offered set
// gave the upstream's server (the gateway's until then).
func (u *upstream) policy() breakerPolicy {
	if p := u.breakerPolicy.Load(); p != nil {
		return *p
	}
	return u.gw.cfg.policyFor(nil)
}
