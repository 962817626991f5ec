package mcpgw

import (
	"errors"
	"net/http"
	"os"
	"sync"
	"sync/atomic"
	"time"
)

// errWriteExpired is what a write to a dropped session's response fails
// with.
var errWriteExpired = errors.New("gate: the session was dropped")

// deadlineWriter is a /mcp response whose every write and flush must
// complete within the write timeout. The SDK writes a stream's events as
// they come, from whichever goroutine sends them; a write that misses the
// deadline fails, and the session it belongs to is dropped (missed).
type deadlineWriter struct {
	http.ResponseWriter
	rc      *http.ResponseController
	timeout time.Duration
	// request says the response answers a request (a POST), which
	// CloseSessionsContext lets finish before it closes the session; a GET is a
	// standalone stream, which lasts as long as the session.
	request bool
	expired atomic.Bool
	missed  func()
	once    sync.Once
	// opened, when set, runs at the response's first flush: for a
	// standalone stream, the SDK flushes its headers once the stream can
	// take messages (it holds the stream until it does).
	opened     func()
	openedOnce sync.Once
}

func newDeadlineWriter(w http.ResponseWriter, timeout time.Duration, request bool, missed func()) *deadlineWriter {
	return &deadlineWriter{ResponseWriter: w, rc: http.NewResponseController(w), timeout: timeout, request: request, missed: missed}
}

// arm sets the deadline of the next write, unless the writer has expired.
// The order (set, then look) makes an expire that runs meanwhile win.
func (w *deadlineWriter) arm() error {
	_ = w.rc.SetWriteDeadline(time.Now().Add(w.timeout))
	if w.expired.Load() {
		_ = w.rc.SetWriteDeadline(time.Unix(1, 0))
		return errWriteExpired
	}
	return nil
}

// check tells missed of a write that timed out, once.
func (w *deadlineWriter) check(err error) error {
	if err != nil && errors.Is(err, os.ErrDeadlineExceeded) && !w.expired.Load() {
		w.once.Do(w.missed)
	}
	return err
}

func (w *deadlineWriter) Write(p []byte) (int, error) {
	if err := w.arm(); err != nil {
		return 0, err
	}
	n, err := w.ResponseWriter.Write(p)
	return n, w.check(err)
}

// FlushError is what http.ResponseController.Flush calls.
func (w *deadlineWriter) FlushError() error {
	if err := w.arm(); err != nil {
		return err
	}
	err := w.check(w.rc.Flush())
	if w.opened != nil {
		w.openedOnce.Do(w.opened)
	}
	return err
}

func (w *deadlineWriter) Flush() { _ = w.FlushError() }

// Unwrap gives http.ResponseController the response underneath.
func (w *deadlineWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// expire makes every write from now on fail at once, one blocked now
// included.
func (w *deadlineWriter) expire() {
	w.expired.Store(true)
	_ = w.rc.SetWriteDeadline(time.Unix(1, 0))
}
