package main

import (
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/gate-dev/gate/internal/manifest"
	"github.com/gate-dev/gate/internal/mcpgw"
)

// clientInput is the client's input as the SDK reads it. It counts the
// requests in what the SDK reads, and holds the end of the input back
// from the SDK until each of them has its answer, or bound (asked at the
// end) has passed, or the session is closed: at the end of its input the
// SDK ends the session, and the requests still in flight then are never
// answered. So a client that writes its requests and closes gate's stdin
// (printf ... | gatectl mcp) gets every answer.
type clientInput struct {
	r       io.Reader
	counter *requestCounter
	answers *answerCount
	bound   func() time.Duration
	log     io.Writer

	end       error // what ended the input, once read
	held      sync.Once
	closed    chan struct{}
	closeOnce sync.Once
}

func newClientInput(r io.Reader, answers *answerCount, bound func() time.Duration, log io.Writer) *clientInput {
	return &clientInput{
		r: r, counter: newRequestCounter(answers.found), answers: answers,
		bound: bound, log: log, closed: make(chan struct{}),
	}
}

// Read is the SDK's read of the input; the SDK reads from one goroutine.
func (in *clientInput) Read(p []byte) (int, error) {
	if in.end == nil {
		n, err := in.r.Read(p)
		if n > 0 {
			in.counter.feed(p[:n])
		}
		in.end = err
		if n > 0 || err == nil {
			return n, nil
		}
	}
	in.held.Do(in.holdEnd)
	return 0, in.end
}

// holdEnd waits, at the end of the input, for the answers to the
// requests read.
func (in *clientInput) holdEnd() {
	in.counter.end()
	bound := in.bound()
	if left := in.answers.wait(time.Now().Add(bound), in.closed); left > 0 {
		select {
		case <-in.closed:
		default:
			fmt.Fprintf(in.log, "gatectl mcp: the input ended with %d request(s) unanswered %v later; the session ends without their answers\n", left, bound)
		}
	}
}

// Close is the session's close: it ends a hold at once.
func (in *clientInput) Close() error {
	in.closeOnce.Do(func() { close(in.closed) })
	in.counter.close()
	return nil
}

// inputEndBound is the longest the end of the client's input is held for
// the answers to its requests: the longest a request may take, which is
// the startup wait (a listing, or a call of a tool not yet offered, waits
// for the first look), then the longest call_timeout of the manifest's
// servers (a forwarded request), and a second (mcpSessionClose) for gate
// to write the answer.
func inputEndBound(m *manifest.Manifest, startupWait time.Duration) time.Duration {
	var longest time.Duration
	if m != nil {
		for _, s := range m.Servers {
			if s.Upstream == nil {
				continue
			}
			call := mcpgw.DefaultCallTimeout
			if s.Upstream.CallTimeout != nil {
				call = *s.Upstream.CallTimeout
			}
			longest = max(longest, call)
		}
	}
	return startupWait + longest + mcpSessionClose
}
