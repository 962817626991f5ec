package gateway

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// keepAlive pings the upstream every interval until ctx is done, and fails
// the session (through its guard) when a ping is not answered before the
// next is due. Any answer shows it alive, an error too: the SDK v1.8.0
// pings only sessions older than the 2026-07-28 protocol, which has no
// ping method (its servers answer "method not found"), so gate pings
// every session itself, and counts that answer as one.
func keepAlive(ctx context.Context, cs *mcp.ClientSession, g *guard, every time.Duration) {
	if every <= 0 {
		return
	}
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		pctx, cancel := context.WithTimeout(ctx, every)
		err := cs.Ping(pctx, nil)
		timedOut := errors.Is(pctx.Err(), context.DeadlineExceeded)
		cancel()
		var answered *jsonrpc.Error
		switch {
		case err == nil, errors.As(err, &answered):
		case ctx.Err() != nil:
			return
		case timedOut:
			g.fail(fmt.Errorf("no answer to a ping within %v%s", every, g.flow.throttled()))
			return
		default:
			// The session may be breaking for another reason, which its
			// end reports (and ends ctx); or the error was the transport's
			// alone (an HTTP upstream's 503). Either way the pings go on:
			// an upstream that errs once must still be found out if it
			// then hangs.
		}
	}
}
