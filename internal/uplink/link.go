// Package uplink holds the transports of the gateway's sessions with its
// upstream MCP servers, and what bounds them: a stdio server's command in
// a process group of its own (Stdio), a streamable-HTTP or HTTP+SSE
// server's requests over an http.RoundTripper (HTTP), messages fitted to
// the depth the MCP SDK decodes, the upstream's requests on a call's
// event stream tied to that call (Ties), and the Guard that says why a
// session broke and holds back reading while what the upstream sent
// waits.
//
// It takes plain values (an *exec.Cmd, a RoundTripper, a log writer, the
// Limits) and tells the gateway what it must hear through the Guard and
// the callbacks it is given; it knows nothing of the gateway's policy
// (which tools are offered, breakers, credentials).
package uplink

import (
	"io"
	"strconv"
	"time"

	"github.com/gate-dev/gate/internal/safetext"
)

// Limits are the gateway's bounds on one upstream session.
type Limits struct {
	// MaxMessage is the most bytes of one message the upstream sends.
	MaxMessage int
	// WriteTimeout bounds each write to the upstream, and each HTTP
	// request that is not a call.
	WriteTimeout time.Duration
	// MaxCalls is the most requests the gateway forwards to the upstream
	// at once (its call slots); it sizes the idle pool of an HTTP
	// upstream (transport) and the streams let end after their answer
	// (answertail.go).
	MaxCalls int
	// StopGrace is how long a stdio upstream's command is given at each
	// step of its stop.
	StopGrace time.Duration
}

// StderrLog is where a stdio upstream's stderr goes, a line at a time.
type StderrLog interface {
	io.Writer
	// Flush logs a last line that ended without a newline.
	Flush()
	// LastLine is the last line the command wrote, escaped for a
	// terminal.
	LastLine() string
}

// methodCancelled is MCP's cancellation notification.
const methodCancelled = "notifications/cancelled"

// quote writes a value an upstream sent for an error message.
func quote(s string) string {
	if len(s) > 200 {
		s = s[:200] + "…"
	}
	return safetext.Terminal(strconv.Quote(s))
}
