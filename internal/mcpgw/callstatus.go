package mcpgw

import (
	"bytes"
	"fmt"
	"io"
	"net/http"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"

	"github.com/gate-dev/gate/internal/uplink"
)

// forwardedMethods are the requests gate sends an upstream on a client's
// behalf (a subscription too, when gate makes it again for its clients
// after a reconnection). An HTTP status the upstream answers one of them with is that
// request's (callStatusError): a 403 for a scope the token lacks, a 413
// from a proxy, a 429 from a rate limit are about the request, not the
// session, its credentials or the server's health. The requests gate
// sends for itself (initialize, ping, the listings, its subscriptions)
// are not here: what they are answered with is about the session.
var forwardedMethods = map[string]bool{
	"tools/call":            true,
	"resources/read":        true,
	"prompts/get":           true,
	"completion/complete":   true,
	"resources/subscribe":   true,
	"resources/unsubscribe": true,
}

// forwardedMethod says whether method is one of forwardedMethods.
func forwardedMethod(method string) bool { return forwardedMethods[method] }

// callStatusError is an HTTP status an upstream answered a forwarded
// request with, instead of a JSON-RPC answer. It names the status by its
// number and Go's standard text, never by the upstream's words.
type callStatusError struct {
	status int
	// challenge says the answer carried a WWW-Authenticate header (MCP's
	// step-up authorization asks for more scope so).
	challenge bool
}

func (e *callStatusError) Error() string {
	return fmt.Sprintf("HTTP %d %s", e.status, http.StatusText(e.status))
}

// serverError reports whether the status is the server's own failure
// (5xx), not a refusal of the request.
func (e *callStatusError) serverError() bool { return e.status >= 500 }

// busy reports whether the status asks the client to come back later.
func (e *callStatusError) busy() bool { return e.status == http.StatusTooManyRequests }

// describe says what the status means for the call of what to server,
// for the client whose call it was.
func (e *callStatusError) describe(server, what string) string {
	switch {
	case e.busy():
		return fmt.Sprintf("server %s is busy: it answered %s with %v (too many requests); try again later", server, what, e)
	case e.serverError():
		return fmt.Sprintf("server %s failed %s: it answered %v", server, what, e)
	case e.status == http.StatusForbidden && e.challenge:
		return fmt.Sprintf("server %s refused %s with %v: it asks for authorization gate's credentials for it lack (a WWW-Authenticate challenge); the server's other calls go on", server, what, e)
	}
	return fmt.Sprintf("server %s refused %s with %v; the server's other calls go on", server, what, e)
}

// statusOfCall turns the answer resp to a forwarded request into a
// callStatusError when it is an HTTP error the SDK would otherwise make
// the session's end (a 4xx without a JSON-RPC answer) or the transport's
// failure (a 5xx, a 429): nil when resp is to be passed on. A 4xx whose
// body is a JSON-RPC error is the upstream's answer, and goes on to the
// SDK, which fails only the call with it.
func statusOfCall(resp *http.Response) error {
	if resp.StatusCode < 400 {
		return nil
	}
	e := &callStatusError{status: resp.StatusCode, challenge: resp.Header.Get("WWW-Authenticate") != ""}
	if e.serverError() || e.busy() {
		discard(resp)
		return e
	}
	// A JSON-RPC error is short: a longer body is not one, and is not
	// held.
	data, err := io.ReadAll(io.LimitReader(resp.Body, uplink.MaxAnswer+1))
	_ = resp.Body.Close()
	if err == nil && len(data) <= uplink.MaxAnswer {
		if msg, derr := jsonrpc.DecodeMessage(data); derr == nil {
			if r, ok := msg.(*jsonrpc.Response); ok && r.Error != nil {
				resp.Body = io.NopCloser(bytes.NewReader(data))
				return nil
			}
		}
	}
	return e
}
