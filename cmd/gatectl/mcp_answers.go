package main

import (
	"bytes"
	"encoding/json"
	"io"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// answerCount counts the client's requests that the SDK has read (a
// requestCounter finds them) and gate's answers to them (written to the
// client), so that the session is closed, at the end of the client's
// input or on SIGTERM, only once each request has its answer: the SDK
// v1.8.0 writes nothing on a session being closed, so the answers a
// Close finds in flight are lost.
type answerCount struct {
	mu              sync.Mutex
	asked, answered int
	// listens are the ids of the subscriptions/listen read and not yet
	// answered: such a request is answered only when it ends, so it is
	// not waited for, and its answer is not counted.
	listens map[jsonrpc.ID]int
	changed chan struct{} // closed, and made anew, at each answer
}

func newAnswerCount() *answerCount {
	return &answerCount{listens: map[jsonrpc.ID]int{}, changed: make(chan struct{})}
}

// found notes requests the SDK has read.
func (a *answerCount) found(asked int, listens []jsonrpc.ID) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.asked += asked
	for _, id := range listens {
		a.listens[id]++
	}
}

// answer notes answers written, by their ids (an invalid id for one
// without).
func (a *answerCount) answer(ids []jsonrpc.ID) {
	a.mu.Lock()
	defer a.mu.Unlock()
	for _, id := range ids {
		if n := a.listens[id]; n > 0 {
			if n == 1 {
				delete(a.listens, id)
			} else {
				a.listens[id] = n - 1
			}
			continue
		}
		a.answered++
	}
	close(a.changed)
	a.changed = make(chan struct{})
}

// unanswered is how many of the requests read have no answer yet, and a
// channel closed at the next answer.
func (a *answerCount) unanswered() (int, <-chan struct{}) {
	a.mu.Lock()
	defer a.mu.Unlock()
	return max(a.asked-a.answered, 0), a.changed
}

// wait returns once every request counted has its answer, or at
// deadline, or once stop is closed (nil: never), with how many are still
// unanswered.
func (a *answerCount) wait(deadline time.Time, stop <-chan struct{}) int {
	t := time.NewTimer(time.Until(deadline))
	defer t.Stop()
	for {
		left, changed := a.unanswered()
		if left == 0 {
			return 0
		}
		select {
		case <-changed:
		case <-t.C:
			return left
		case <-stop:
			return left
		}
	}
}

// writer counts the answers written to out: the SDK writes one message,
// or one batch of answers, a Write.
func (a *answerCount) writer(out io.Writer) io.WriteCloser {
	return answerWriter{out, a}
}

type answerWriter struct {
	io.Writer
	a *answerCount
}

func (w answerWriter) Write(p []byte) (int, error) {
	n, err := w.Writer.Write(p)
	if ids := answersIn(p); len(ids) > 0 {
		w.a.answer(ids)
	}
	return n, err
}

func (answerWriter) Close() error { return nil }

// answersIn returns the ids of the answers in msg, a message or a batch
// the SDK wrote (an invalid id for an answer without one).
func answersIn(msg []byte) []jsonrpc.ID {
	if body := bytes.TrimLeft(msg, " \t\r\n"); len(body) == 0 || body[0] != '[' {
		if id, ok := answerID(msg); ok {
			return []jsonrpc.ID{id}
		}
		return nil
	}
	var batch []json.RawMessage
	if json.Unmarshal(msg, &batch) != nil {
		return nil
	}
	var ids []jsonrpc.ID
	for _, m := range batch {
		if id, ok := answerID(m); ok {
			ids = append(ids, id)
		}
	}
	return ids
}

// answerID reports whether msg, one JSON-RPC message the SDK wrote, is an
// answer, and its id: it reads no further than the key that tells,
// "method" or "result" or "error", which the SDK writes after the id.
func answerID(msg []byte) (jsonrpc.ID, bool) {
	dec := json.NewDecoder(bytes.NewReader(msg))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return jsonrpc.ID{}, false
	}
	var id jsonrpc.ID
	for dec.More() {
		key, err := dec.Token()
		if err != nil {
			return jsonrpc.ID{}, false
		}
		switch key {
		case "method":
			return jsonrpc.ID{}, false
		case "result", "error":
			return id, true
		case "id":
			var v any
			if dec.Decode(&v) != nil {
				return jsonrpc.ID{}, false
			}
			id, _ = jsonrpc.MakeID(v)
			continue
		}
		var skip json.RawMessage
		if dec.Decode(&skip) != nil {
			return jsonrpc.ID{}, false
		}
	}
	return jsonrpc.ID{}, false
}
