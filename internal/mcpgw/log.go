package mcpgw

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

// logPrefix starts each line the gateway logs (docs/MCP.md and
// docs/CLI.md name it; gatectl's own lines about the same gateway start
// with the command's name).
const logPrefix = "gate mcp: "

// logf writes one line to the configured log, escaped for a terminal. It
// never blocks: a log nobody reads (gate's stderr, not drained) holds up
// no upstream, listing or session; past logq.Max waiting lines, new ones
// are dropped and counted, and the count is written once the log takes
// lines again.
func (g *Gateway) logf(format string, args ...any) {
	if g.logq == nil {
		return
	}
	_, _ = io.WriteString(g.logq, logPrefix+safetext.Terminal(fmt.Sprintf(format, args...))+"\n")
}

// debugf is logf for a debug line: written only when the configuration
// asks for them (Config.WithDebug).
func (g *Gateway) debugf(format string, args ...any) {
	if g.cfg.debug {
		g.logf(format, args...)
	}
}

// upstreamState records an upstream's new state: the state gauge, and an
// event of type "upstream" on the service, so that gatectl's event log and
// serve's event stream carry it like a tool's flip.
func (g *Gateway) upstreamState(u *upstream, state, why string) {
	g.metrics.state(u.name, state)
	ev := runtime.Event{Type: "upstream", Name: u.name, State: state, Available: state == StateReady, Reason: why, At: time.Now()}
	if !ev.Available {
		ev.Code = runtime.CodeUpstreamDown
	}
	g.svc.Publish(ev)
}

// maxLogLine caps one line of an upstream's stderr in gate's log: the rest
// of the line is dropped and said to be.
const maxLogLine = 4 << 10

// lineLog returns the writer an upstream command's stderr goes to: each
// line, escaped and capped, prefixed with the upstream's name. A command
// that writes without newlines cannot make gate buffer more than a line.
// The writer keeps the last line, which says why a command that ended
// did.
func (g *Gateway) lineLog(prefix string) *lineWriter {
	return &lineWriter{g: g, prefix: prefix}
}

type lineWriter struct {
	g       *Gateway
	prefix  string
	buf     []byte
	dropped int
	// secrets, when not nil, are taken out of each whole line before it is
	// cut: the line is kept as far as a secret that starts within the cap
	// reaches (redact.go).
	secrets *redactor

	mu   sync.Mutex
	last string
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
		if w.secrets != nil {
			room += max(w.secrets.longest()-1, 0)
		}
		if len(chunk) > room {
			w.dropped += len(chunk) - room
			chunk = chunk[:room]
		}
		w.buf = append(w.buf, chunk...)
		if i < 0 {
			break
		}
		w.line()
		p = p[i+1:]
	}
	return n, nil
}

// Flush logs a last line that ended without a newline.
func (w *lineWriter) Flush() {
	if len(w.buf) > 0 || w.dropped > 0 {
		w.line()
	}
}

func (w *lineWriter) line() {
	line := string(bytes.TrimSuffix(w.buf, []byte("\r")))
	if w.secrets != nil {
		line = w.secrets.text(line)
		if len(line) > maxLogLine {
			w.dropped += len(line) - maxLogLine
			line = line[:maxLogLine]
		}
	}
	if w.dropped > 0 {
		line += " [" + strconv.Itoa(w.dropped) + " more bytes dropped]"
	}
	w.g.logf("%s%s", w.prefix, line)
	w.mu.Lock()
	w.last = safetext.Terminal(line)
	w.mu.Unlock()
	w.buf, w.dropped = w.buf[:0], 0
}

// LastLine is the last line the command wrote, escaped for a terminal.
func (w *lineWriter) LastLine() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.last
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
