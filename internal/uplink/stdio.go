package uplink

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// StdioLink is the transport of a stdio upstream's session: the SDK's
// newline-delimited JSON over pipes gate owns, with gate's bounds on both
// directions (see process, lineCap, stdinWriter, Inflow).
type StdioLink struct {
	g     *Guard
	cmd   *exec.Cmd
	argv0 string
	log   StderrLog
	lim   Limits

	proc      atomic.Pointer[process] // once Connect has started it
	killed    atomic.Bool
	connected atomic.Bool // the handshake succeeded: closing is graceful
}

// NewStdio returns the transport that starts cmd (made with exec.Command,
// not started) and speaks MCP over its stdin and stdout; its stderr goes
// to log.
func NewStdio(g *Guard, cmd *exec.Cmd, log StderrLog, lim Limits) *StdioLink {
	return &StdioLink{g: g, cmd: cmd, argv0: cmd.Args[0], log: log, lim: lim}
}

// Guard is the session's guard.
func (l *StdioLink) Guard() *Guard { return l.g }

// Connect starts the command, and the SDK's transport over its pipes.
func (l *StdioLink) Connect(ctx context.Context) (mcp.Connection, error) {
	p, err := startProcess(l.cmd, l.log)
	if err != nil {
		return nil, startError(l.argv0, err)
	}
	l.proc.Store(p)
	if l.killed.Load() { // killed while it started
		p.kill()
	}
	inner, err := (&mcp.IOTransport{
		// Each message within the cap is fitted to the SDK's depth
		// (fitLines), so that one nested too deep fails only what it
		// belongs to, not the session.
		Reader: io.NopCloser(fitLines(&lineCap{r: p.stdout, max: l.lim.MaxMessage, g: l.g}, l.lim.MaxMessage)),
		Writer: &stdinWriter{f: p.stdin, d: l.lim.WriteTimeout, g: l.g},
		// One past gate's own cap, so that lineCap, which names the cap,
		// is what stops a long line; the SDK's cap still bounds a JSON
		// value spread over many short lines.
		MaxLineLength: l.lim.MaxMessage + 1,
	}).Connect(ctx)
	if err != nil {
		p.kill()
		p.stop(l.lim.StopGrace)
		return nil, err
	}
	return &stdioConn{Connection: inner, l: l}, nil
}

// HandshakeDone marks the session open: from now on it is closed
// gracefully.
func (l *StdioLink) HandshakeDone() { l.connected.Store(true) }

// Ended says how the command ended on its own, with its last line on
// stderr: the zero Ending while it runs, or when gate ended it.
func (l *StdioLink) Ended() Ending {
	if p := l.proc.Load(); p != nil {
		return p.ended()
	}
	return Ending{}
}

// EndedWithin is Ended once the command has ended, waiting at most d for
// that: a session that failed on a closed pipe (a write to a command
// that exited) fails a moment before the command is waited for.
func (l *StdioLink) EndedWithin(d time.Duration) Ending {
	p := l.proc.Load()
	if p == nil {
		return Ending{}
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-p.exited:
	case <-t.C:
	}
	return p.ended()
}

// Stop stops the command: its stdin closed, then SIGTERM, then SIGKILL
// to its group.
func (l *StdioLink) Stop() {
	if p := l.proc.Load(); p != nil {
		p.stop(l.lim.StopGrace)
	}
}

// Kill ends the command's group at once.
func (l *StdioLink) Kill() {
	l.killed.Store(true)
	if p := l.proc.Load(); p != nil {
		p.kill()
	}
}

// stdioConn counts what the upstream sends and gate answers (inflow), and
// stops reading while too much of it waits. Notifications gate does not
// act on are dropped here, before they reach the SDK's queue.
type stdioConn struct {
	mcp.Connection // the SDK's, over the pipes
	l              *StdioLink
}

func (c *stdioConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	flow := &c.l.g.Flow
	for {
		if err := flow.wait(ctx); err != nil {
			return nil, c.readError(err)
		}
		msg, err := c.Connection.Read(ctx)
		if err != nil {
			return nil, c.readError(err)
		}
		req, ok := msg.(*jsonrpc.Request)
		switch {
		case !ok:
			return msg, nil
		case req.IsCall():
			flow.received(true)
			return msg, nil
		case c.l.g.counted(req.Method, req.Params):
			flow.received(false)
			return msg, nil
		}
	}
}

// readError prefers the guard's reason. The end of the upstream's stdout
// usually means it is ending: its exit is waited for (briefly), so that
// the session's end can say how it ended.
func (c *stdioConn) readError(err error) error {
	if r := c.l.g.Reason(); r != nil && r != ErrSessionOver {
		return r
	}
	if errors.Is(err, io.EOF) {
		c.l.proc.Load().waitExit(c.l.lim.StopGrace)
	}
	return err
}

func (c *stdioConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	err := c.Connection.Write(ctx, msg)
	switch m := msg.(type) {
	case *jsonrpc.Response:
		c.l.g.Flow.answered()
	case *jsonrpc.Request:
		if m.Method == methodCancelled {
			c.l.g.Cancels.sentOne()
		}
	}
	return err
}

// Close stops the command: gracefully once it has answered the
// handshake, at once when it never did (it has had its chance).
func (c *stdioConn) Close() error {
	p := c.l.proc.Load()
	if !c.l.connected.Load() {
		p.kill()
	}
	p.stop(c.l.lim.StopGrace)
	return c.Connection.Close()
}

// lineCap reads an upstream's stdout and fails once a line is longer than
// max, before the SDK has buffered more of it.
type lineCap struct {
	r    io.Reader
	max  int
	line int // bytes since the last newline
	g    *Guard
}

func (r *lineCap) Read(p []byte) (int, error) {
	n, err := r.r.Read(p)
	for rest := p[:n]; ; {
		i := bytes.IndexByte(rest, '\n')
		if i < 0 {
			r.line += len(rest)
		} else {
			r.line += i
		}
		if r.line > r.max {
			tooLarge := messageTooLarge(r.max)
			r.g.Fail(tooLarge)
			return 0, tooLarge
		}
		if i < 0 {
			break
		}
		r.line, rest = 0, rest[i+1:]
	}
	return n, err
}

// Close is the process's to do (process.stop).
func (r *lineCap) Close() error { return nil }

// stdinWriter writes to an upstream's stdin with a deadline on each
// write: an upstream that reads nothing for that long fails its session,
// rather than holding gate's writers (and the SDK's goroutines) for ever.
type stdinWriter struct {
	f *os.File
	d time.Duration
	g *Guard
}

func (w *stdinWriter) Write(p []byte) (int, error) {
	if r := w.g.Reason(); r != nil {
		return 0, r // the session is over: no write waits for its deadline
	}
	_ = w.f.SetWriteDeadline(time.Now().Add(w.d))
	n, err := w.f.Write(p)
	if errors.Is(err, os.ErrDeadlineExceeded) {
		err = fmt.Errorf("it read nothing of its stdin for %v (the write timeout)", w.d)
		w.g.Fail(err)
	}
	return n, err
}

// Close is the process's to do (process.stop).
func (w *stdinWriter) Close() error { return nil }
