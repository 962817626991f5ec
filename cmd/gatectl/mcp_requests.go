package main

import (
	"encoding/json"
	"errors"
	"io"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// methodListen is a request (2026-07-28) that is answered only when it
// ends: a client's input that ends does not wait for it.
const methodListen = "subscriptions/listen"

// requestCounter finds the requests in the bytes the SDK reads from the
// client, framed as the SDK frames them: a json.Decoder over the stream,
// each value one message or, as a JSON array, a batch. It decodes on a
// goroutine of its own, in step with the reads: feed returns only once
// every message whole in what was fed is counted, so a request the SDK
// can have read is counted before the SDK has the bytes.
type requestCounter struct {
	found func(asked int, listens []jsonrpc.ID)

	chunks   chan []byte   // the bytes the SDK read, to the decoder
	taken    chan struct{} // the decoder has counted what it was fed and wants more
	stop     chan struct{} // closed by close: the session is over
	stopOnce sync.Once
	done     chan struct{} // closed once the decoder has returned
	ended    bool          // end was called: no more chunks
	rest     []byte        // the decoder's side: what is left of its chunk
	owes     bool          // the decoder's side: a chunk not yet reported taken
}

// maxCountedFrame bounds the bytes the counter holds of one message:
// twice the SDK's frame limit (IOTransport's default, which gatectl mcp
// keeps), since its decoder reads ahead by up to a frame more than the
// counter's may. A message the SDK reads whole, the counter does too;
// past the bound the SDK has refused the stream and ends the session.
const maxCountedFrame = 2 * mcp.DefaultMaxLineLength

func newRequestCounter(found func(asked int, listens []jsonrpc.ID)) *requestCounter {
	c := &requestCounter{
		found:  found,
		chunks: make(chan []byte),
		taken:  make(chan struct{}),
		stop:   make(chan struct{}),
		done:   make(chan struct{}),
	}
	go c.decode()
	return c
}

// feed counts the requests whole in what has been fed so far and p,
// before it returns; p is not kept. Once the stream is past what the SDK
// reads (it fails there too and ends the session), feed counts nothing.
// One goroutine feeds (the SDK's reader).
func (c *requestCounter) feed(p []byte) {
	select {
	case c.chunks <- p:
	case <-c.done:
		return
	}
	select {
	case <-c.taken:
	case <-c.done:
	}
}

// end says the stream has ended, and returns once what it held is
// counted (a value the end completes). The goroutine that feeds calls it.
func (c *requestCounter) end() {
	if !c.ended {
		c.ended = true
		close(c.chunks)
	}
	<-c.done
}

// close stops the decoder whether or not the stream has ended; any
// goroutine may call it, more than once.
func (c *requestCounter) close() {
	c.stopOnce.Do(func() { close(c.stop) })
	<-c.done
}

func (c *requestCounter) decode() {
	defer close(c.done)
	limit := &frameLimit{r: chunkReader{c}, left: maxCountedFrame}
	dec := json.NewDecoder(limit)
	for {
		var raw json.RawMessage
		if dec.Decode(&raw) != nil {
			return // the end, or a stream the SDK stops reading at the same value
		}
		asked, listens := requestsIn(raw)
		if asked > 0 || len(listens) > 0 {
			c.found(asked, listens)
		}
		limit.left = maxCountedFrame
	}
}

// chunkReader is the decoder's side of feed.
type chunkReader struct{ c *requestCounter }

func (r chunkReader) Read(p []byte) (int, error) {
	c := r.c
	for len(c.rest) == 0 {
		if c.owes {
			// The decoder wants more: every value whole in the chunks fed
			// so far is counted.
			select {
			case c.taken <- struct{}{}:
			case <-c.stop:
				return 0, errCounterStopped
			}
			c.owes = false
		}
		select {
		case chunk, ok := <-c.chunks:
			if !ok {
				return 0, io.EOF
			}
			c.rest, c.owes = chunk, true
		case <-c.stop:
			return 0, errCounterStopped
		}
	}
	n := copy(p, c.rest)
	c.rest = c.rest[n:]
	return n, nil
}

var (
	errCounterStopped = errors.New("the session is over")
	errFrameTooLarge  = errors.New("a message past the bound on one message")
)

// frameLimit bounds what a json.Decoder reads for one value: left is
// reset after each.
type frameLimit struct {
	r    io.Reader
	left int
}

func (f *frameLimit) Read(p []byte) (int, error) {
	if f.left <= 0 {
		return 0, errFrameTooLarge
	}
	if len(p) > f.left {
		p = p[:f.left]
	}
	n, err := f.r.Read(p)
	f.left -= n
	return n, err
}

// requestsIn says how many requests one value the SDK reads holds that
// gate answers (a request with an id, as jsonrpc.DecodeMessage reads it),
// and the ids of those answered only when they end (subscriptions/listen).
// A value the SDK refuses holds none: the SDK ends the session on it.
func requestsIn(raw json.RawMessage) (asked int, listens []jsonrpc.ID) {
	msgs := []json.RawMessage{raw}
	if len(raw) > 0 && raw[0] == '[' { // a json.Decoder's value starts at its first byte
		var batch []json.RawMessage
		if json.Unmarshal(raw, &batch) == nil {
			msgs = batch
		}
	}
	for _, m := range msgs {
		msg, err := jsonrpc.DecodeMessage(m)
		if err != nil {
			return 0, nil
		}
		req, ok := msg.(*jsonrpc.Request)
		switch {
		case !ok || !req.ID.IsValid(): // an answer to gate, or a notification
		case req.Method == methodListen:
			listens = append(listens, req.ID)
		default:
			asked++
		}
	}
	return asked, listens
}
