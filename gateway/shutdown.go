package gateway

import (
	"errors"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// Shutdown ends every forwarded call in flight now, each with a JSON-RPC
// error that says gate is shutting down, and answers every later call so:
// a client waiting on an upstream is answered rather than cut off. The
// end of Run's context does it too, first; a host that stops serving
// before it ends Run (an HTTP server's Shutdown waits for handlers to
// return) calls it first, so that those handlers return at once. It may
// be called more than once.
func (g *Gateway) Shutdown() { g.shutdown() }

// errShutdown is the cause of a call ended by Shutdown.
var errShutdown = errors.New("gate is shutting down")

// shuttingDown is the client's answer to a call Shutdown ended or
// refused.
func shuttingDown(tool string) error {
	return &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: fmt.Sprintf("gate is shutting down: the call of %s was not answered", tool)}
}
