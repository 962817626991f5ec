package uplink

import (
	"context"
	"sync"
	"sync/atomic"
	"time"
)

// answerTail is how long the end of a call's event stream may take to
// come once the call has its answer and is over. The SDK takes the
// answer and reads the rest of the stream (its last chunk) after the
// call has returned: were that read ended with the call, the connection
// would be closed with it instead of going back to the pool, and the
// next call would open another. An upstream that never ends the stream
// holds the connection no longer than this.
const answerTail = 250 * time.Millisecond

// callTail is what a call's HTTP request knows of its end: whether its
// answer has passed (set by its event stream, sseBody), and the time
// given to the rest of the stream after the call ended.
type callTail struct {
	answered atomic.Bool

	mu       sync.Mutex
	released bool        // the body was closed
	timer    *time.Timer // cuts the rest of the stream; nil if not started
}

// callOver ends the request of a call that is over (cause: why), at once
// when no answer has passed, and after answerTail otherwise: the stream
// then has that long to end on its own. The streams being finished so are
// as many as the calls that may be in flight, at most: past that, the
// request ends at once.
func (l *HTTPLink) callOver(t *callTail, cause error, cancel context.CancelCauseFunc) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.released {
		return
	}
	if !t.answered.Load() || l.tails.Add(1) > int64(l.lim.MaxCalls) {
		if t.answered.Load() {
			l.tails.Add(-1)
		}
		cancel(cause)
		return
	}
	t.timer = time.AfterFunc(answerTail, func() { cancel(cause) })
}

// release marks the body closed, and gives back its place among the
// streams being finished.
func (l *HTTPLink) releaseTail(t *callTail) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.released = true
	if t.timer != nil {
		t.timer.Stop()
		t.timer = nil
		l.tails.Add(-1)
	}
}
