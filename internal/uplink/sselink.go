package uplink

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// A url server with transport = "sse" speaks the HTTP+SSE transport of
// 2024-11-05: gate opens an event stream at its url (a GET), whose first
// event, "endpoint", names where gate posts its messages; every message
// of the server's comes on the stream. The SDK's SSEClientTransport
// speaks it, over the same HTTPLink (and so the same bounds) as a
// streamable server's: every body capped, every request but the stream
// bounded by the write timeout (here each POST too: the server answers
// it at once, and its answer comes on the stream), the stream read no
// further while what it brought waits for gate, progress counted as it
// is read.
//
// Every request goes to the url's origin (scheme, host and port), and
// no redirect is followed: what gate sends a url server (and, with
// headers, whatever credentials go with it) goes nowhere else. An
// endpoint event that names another origin ends the session, with that
// reason.

// UseSSE makes l speak the HTTP+SSE transport to its url.
func (l *HTTPLink) UseSSE() error {
	u, err := url.Parse(l.url)
	if err != nil {
		return fmt.Errorf("bad url %s: %v", quote(l.url), err)
	}
	l.sse = u
	return nil
}

// connectSSE opens the event stream; the SDK reads the endpoint event
// from it before it returns. The SDK (v1.8.0) makes the stream's request
// with the context it is given, and the context of a handshake ends with
// it: the stream gets one without its end. The handshake is bounded all
// the same: one that runs out of time kills the link (serve), which ends
// every request of it.
func (l *HTTPLink) connectSSE(ctx context.Context) (mcp.Connection, error) {
	ctx = context.WithoutCancel(ctx)
	return (&mcp.SSEClientTransport{
		Endpoint: l.url,
		HTTPClient: &http.Client{
			Transport: fitTransport{base: l, max: l.lim.MaxMessage},
			CheckRedirect: func(req *http.Request, _ []*http.Request) error {
				return http.ErrUseLastResponse
			},
		},
		// gate's cap is on each line of the stream (sseBody), which
		// reports a message over it; the SDK's, on a whole event, is
		// left room for the event's other lines, so that gate's is met
		// first.
		MaxEventSize: l.lim.MaxMessage + MaxAnswer,
	}).Connect(ctx)
}

// errOtherOrigin is why a request to another origin than the url's is
// refused.
var errOtherOrigin = errors.New("gate sends a url server's messages only to the origin of its url")

// sameOrigin refuses a request that does not go to the url's origin,
// and fails the session for it.
func (l *HTTPLink) sameOrigin(req *http.Request) error {
	if got, want := OriginOf(req.URL), OriginOf(l.sse); got != want {
		err := fmt.Errorf("it had gate send a request to %s, not %s: %w", got, want, errOtherOrigin)
		l.g.Fail(err)
		return err
	}
	return nil
}

// checkEndpoint checks the data of the server's endpoint event: a URL,
// resolved against the url as the SDK resolves it, on the url's origin.
func (l *HTTPLink) checkEndpoint(data []byte, cut bool) error {
	if cut {
		return fmt.Errorf("its endpoint event is over %d bytes", MaxAnswer)
	}
	ep, err := l.sse.Parse(string(data))
	if err != nil {
		return fmt.Errorf("its endpoint event names %s, which is not a URL", quote(string(data)))
	}
	if got, want := OriginOf(ep), OriginOf(l.sse); got != want {
		return fmt.Errorf("its endpoint event names %s, on %s, not the origin of its url (%s): %w", quote(ep.String()), got, want, errOtherOrigin)
	}
	return nil
}
