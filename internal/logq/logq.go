// Package logq writes a process's log lines from a goroutine of its own,
// so that a log nobody reads (a stderr pipe not drained, a terminal
// scrolled back) never holds up the code that logs: a probe worker, an
// upstream's reader, a session, a shutdown.
//
// Past Max writes waiting, new ones are dropped and counted, and the count
// is written as a line of its own once the log takes writes again. Close
// writes what waits within a bound and returns at the bound whatever the
// log does, so that a process can promise how long it takes to stop.
package logq

import (
	"fmt"
	"io"
	"sync"
	"time"
)

// Max is how many writes may wait: 1,024 lines of a few hundred bytes
// each, a burst far larger than any the code logs in a second.
const Max = 1024

// Queue is an io.Writer that never blocks. Each Write is kept whole (one
// log line, as slog and fmt.Fprintln write them). Its zero value is not
// usable; New makes one. A Queue is safe for concurrent use.
type Queue struct {
	w      io.Writer
	prefix string // of the line that counts the dropped writes

	mu      sync.Mutex
	waiting [][]byte
	dropped int
	writing bool          // a drain goroutine runs
	idle    chan struct{} // closed when nothing waits and no drain runs
	closed  bool
}

// New returns a Queue over w. prefix starts the line that says how many
// writes were dropped ("gatectl serve" gives "gatectl serve: 3 line(s)
// not logged: the log was not keeping up").
func New(w io.Writer, prefix string) *Queue {
	idle := make(chan struct{})
	close(idle)
	return &Queue{w: w, prefix: prefix, idle: idle}
}

// Write queues a copy of p and returns at once. After Close it drops p.
func (q *Queue) Write(p []byte) (int, error) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.closed || len(q.waiting) >= Max {
		q.dropped++
		return len(p), nil
	}
	q.waiting = append(q.waiting, append([]byte(nil), p...))
	if !q.writing {
		q.writing = true
		q.idle = make(chan struct{})
		go q.drain(q.idle)
	}
	return len(p), nil
}

// drain writes what waits, and ends once nothing does.
func (q *Queue) drain(idle chan struct{}) {
	for {
		q.mu.Lock()
		lines, dropped := q.waiting, q.dropped
		q.waiting, q.dropped = nil, 0
		if len(lines) == 0 && dropped == 0 {
			q.writing = false
			close(idle)
			q.mu.Unlock()
			return
		}
		q.mu.Unlock()
		for _, l := range lines {
			_, _ = q.w.Write(l)
		}
		if dropped > 0 {
			_, _ = fmt.Fprintf(q.w, "%s: %d line(s) not logged: the log was not keeping up\n", q.prefix, dropped)
		}
	}
}

// Close stops taking writes and waits at most d for what waits to be
// written. It reports whether all of it was; what was not is left to a
// writer that may still finish it.
func (q *Queue) Close(d time.Duration) bool {
	q.mu.Lock()
	q.closed = true
	idle := q.idle
	q.mu.Unlock()
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-idle:
		return true
	case <-t.C:
		return false
	}
}
