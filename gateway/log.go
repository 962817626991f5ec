package gateway

import (
	"bytes"
	"fmt"
	"io"
	"strconv"
	"sync"
	"time"

	"github.com/gate-dev/gate/internal/safetext"
	"github.com/gate-dev/gate/runtime"
)

// logf writes one line to the configured log, escaped for a terminal.
func (g *Gateway) logf(format string, args ...any) {
	if g.cfg.log == nil {
		return
	}
	line := safetext.Terminal(fmt.Sprintf(format, args...))
	logMu.Lock()
	defer logMu.Unlock()
	_, _ = io.WriteString(g.cfg.log, "gate mcp: "+line+"\n")
}

// logMu keeps the lines of every gateway and upstream whole.
var logMu sync.Mutex

// upstreamState records an upstream's new state: the state gauge, and an
// event of type "upstream" on the service, so that gatectl's event log and
// serve's event stream carry it like a tool's flip.
func (g *Gateway) upstreamState(u *upstream, state, why string) {
	g.metrics.state(u.name, state)
	g.svc.Publish(runtime.Event{Type: "upstream", Name: u.name, State: state, Available: state == StateReady, Reason: why, At: time.Now()})
}

// maxLogLine caps one line of an upstream's stderr in gate's log: the rest
// of the line is dropped and said to be.
const maxLogLine = 4 << 10

// lineLog returns the writer an upstream command's stderr goes to: each
// line, escaped and capped, prefixed with the upstream's name. A command
// that writes without newlines cannot make gate buffer more than a line.
func (g *Gateway) lineLog(prefix string) io.Writer {
	if g.cfg.log == nil {
		return io.Discard
	}
	return &lineWriter{g: g, prefix: prefix}
}

type lineWriter struct {
	g       *Gateway
	prefix  string
	buf     []byte
	dropped int
}

func (w *lineWriter) Write(p []byte) (int, error) {
	n := len(p)
	for len(p) > 0 {
		i := bytes.IndexByte(p, '\n')
		chunk := p
		if i >= 0 {
			chunk = p[:i]
		}
		room := maxLogLine - len(w.buf)
		if len(chunk) > room {
			w.dropped += len(chunk) - room
			chunk = chunk[:room]
		}
		w.buf = append(w.buf, chunk...)
		if i < 0 {
			break
		}
		line := string(w.buf)
		if w.dropped > 0 {
			line += " [" + strconv.Itoa(w.dropped) + " more bytes dropped]"
		}
		w.g.logf("%s%s", w.prefix, line)
		w.buf, w.dropped = w.buf[:0], 0
		p = p[i+1:]
	}
	return n, nil
}

// cleanMessage makes an upstream's text safe for a client that shows it:
// no control or bidirectional formatting characters, and capped.
func cleanMessage(s string) string {
	const max = 4 << 10
	if len(s) > max {
		s = s[:max] + "…"
	}
	return safetext.Clean(s, true)
}

// quote writes a name a client sent for an error message.
func quote(s string) string {
	if len(s) > 200 {
		s = s[:200] + "…"
	}
	return safetext.Terminal(strconv.Quote(s))
}
