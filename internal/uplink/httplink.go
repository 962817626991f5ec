package uplink

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"sync"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// HTTPLink is the transport of a streamable-HTTP upstream's session: the
// SDK's, over an http.RoundTripper of gate's that bounds what the upstream
// can make gate read, wait for or hold. The SDK v1.8.0 reads a JSON
// response body whole with no cap, waits for an answer's or a stream's
// headers without a deadline, and queues the upstream's requests without
// bound; here every body is capped (capBody, sseBody), every request that
// is not a call has the write timeout, an event stream is read no further
// while too much of what it brought waits (inflow), and what the bodies
// hold together of messages begun and not ended is bounded (unfinished).
type HTTPLink struct {
	g    *Guard
	url  string
	lim  Limits
	base *http.Transport
	next http.RoundTripper // base, or what wraps it
	// forwarded says whether a request method is one gate sends on a
	// client's behalf; callStatus makes the HTTP error answer to one that
	// request's error (nil: the answer is passed on).
	forwarded  func(method string) bool
	callStatus func(*http.Response) error
	// ties, when set, tie the upstream's requests on a call's event
	// stream to that call (tie.go).
	ties *Ties
	// sse is the url of a server spoken to over HTTP+SSE (sselink.go);
	// nil for streamable HTTP.
	sse *url.URL

	// closed ends every request of the session, and refuses new ones.
	closed context.Context
	close  context.CancelFunc

	// held bounds the bytes of the upstream's unfinished messages, across
	// all its answers (unfinished.go).
	held *unfinished
	// tails counts the calls over whose answered streams are let end
	// (answertail.go).
	tails atomic.Int64

	// panicked and read watch the bodies of the upstream's answers
	// (WatchBodies); nil until then.
	panicked func(v any) error
	read     func()

	mu      sync.Mutex
	refusal string // the last request the upstream refused, and how
}

// NewHTTP returns the transport of a session with the streamable-HTTP
// server at url (UseSSE: an HTTP+SSE one). forwarded says whether a
// request method is one gate sends on a client's behalf, and callStatus
// makes an HTTP error answer to one that request's error, or nil to pass
// the answer on to the SDK.
func NewHTTP(url string, g *Guard, lim Limits, forwarded func(method string) bool, callStatus func(*http.Response) error) *HTTPLink {
	l := &HTTPLink{g: g, url: url, lim: lim, base: transport(lim), held: newUnfinished(4 * int64(lim.MaxMessage)), forwarded: forwarded, callStatus: callStatus}
	l.next = l.base
	l.closed, l.close = context.WithCancel(context.Background())
	return l
}

// TieCalls has the upstream's requests that come on the event stream of
// a call's POST tied to that call in ties (tie.go). It is set before the
// session starts; an HTTP+SSE server's requests all come on its one
// stream, and are never tied.
func (l *HTTPLink) TieCalls(ties *Ties) { l.ties = ties }

// Base is the connection pool the link's requests end in.
func (l *HTTPLink) Base() *http.Transport { return l.base }

// SetNext makes next, which ends in Base, what the link sends its
// requests through, below its own bounds.
func (l *HTTPLink) SetNext(next http.RoundTripper) { l.next = next }

// URL is the server's url.
func (l *HTTPLink) URL() string { return l.url }

// Guard is the session's guard.
func (l *HTTPLink) Guard() *Guard { return l.g }

// Connect opens the session's transport: the SDK's, over the link.
func (l *HTTPLink) Connect(ctx context.Context) (mcp.Connection, error) {
	if l.sse != nil {
		return l.connectSSE(ctx)
	}
	return (&mcp.StreamableClientTransport{
		Endpoint: l.url,
		// Bodies are capped (l), then each message fitted to the SDK's
		// depth (fitTransport).
		HTTPClient: &http.Client{Transport: fitTransport{base: l, max: l.lim.MaxMessage, ties: l.ties}},
		// The gateway reconnects itself, with its own backoff, and hides
		// the tools meanwhile; retries inside the transport would only
		// keep a dead upstream's tools offered longer.
		MaxRetries:   -1,
		MaxEventSize: l.lim.MaxMessage,
	}).Connect(ctx)
}

// HandshakeDone does nothing: an HTTP session is always closed with its
// DELETE.
func (l *HTTPLink) HandshakeDone() {}

// Stop kills the requests of a session the upstream broke: a hung one
// would hold the SDK's Close for as long as it holds the cancellations
// the SDK sends it first. A healthy one is closed by the SDK's Close,
// with its DELETE.
func (l *HTTPLink) Stop() {
	if r := l.g.Reason(); r != nil && r != ErrSessionOver {
		l.Kill()
	}
}

// Ended is the zero Ending: there is no command.
func (l *HTTPLink) Ended() Ending { return Ending{} }

// Kill ends every request of the session, and refuses new ones.
func (l *HTTPLink) Kill() {
	l.close()
	l.base.CloseIdleConnections()
}

// refuse records how the upstream refused a request.
func (l *HTTPLink) refuse(how string) {
	l.mu.Lock()
	l.refusal = how
	l.mu.Unlock()
}

// Refused is how the upstream last refused a request ("" when it has
// not): the truest account of a failed handshake.
func (l *HTTPLink) Refused() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.refusal
}

// errLinkClosed fails the requests of a session gate has closed.
var errLinkClosed = errors.New("gate closed the session")

// errWriteTimeout is the cause of a request that ran past the write
// timeout.
var errWriteTimeout = errors.New("write timeout")

func (l *HTTPLink) RoundTrip(req *http.Request) (*http.Response, error) {
	if l.closed.Err() != nil {
		return nil, errLinkClosed
	}
	what := outgoingOf(req, l.forwarded)
	if l.sse != nil {
		if err := l.sameOrigin(req); err != nil {
			l.refuse(err.Error())
			return nil, err
		}
	}
	// A call's request is ended by the call's end through callOver, which
	// lets the rest of an answered stream come (answertail.go).
	parent := req.Context()
	var tail *callTail
	if what.kind == outCall && l.sse == nil {
		tail = &callTail{}
		parent = context.WithoutCancel(parent)
	}
	ctx, cancel := context.WithCancelCause(parent)
	stopClose := context.AfterFunc(l.closed, func() { cancel(errLinkClosed) })
	stopCall := func() bool { return false }
	if tail != nil {
		caller := req.Context()
		stopCall = context.AfterFunc(caller, func() { l.callOver(tail, context.Cause(caller), cancel) })
	}
	var timer *time.Timer
	if what.kind != outCall || l.sse != nil {
		// An HTTP+SSE server answers every POST at once: its answer to a
		// call comes on the stream.
		timer = time.AfterFunc(l.lim.WriteTimeout, func() { cancel(errWriteTimeout) })
	}
	release := func() {
		if timer != nil {
			timer.Stop()
		}
		stopClose()
		stopCall()
		if tail != nil {
			l.releaseTail(tail)
		}
		cancel(nil)
	}
	resp, err := l.next.RoundTrip(req.WithContext(ctx))
	switch {
	case what.kind == outAnswer:
		l.g.Flow.answered()
	case what.method == methodCancelled:
		l.g.Cancels.sentOne()
	}
	if err != nil {
		if context.Cause(ctx) == errWriteTimeout {
			err = fmt.Errorf("it did not take %s within %v (the write timeout)", what.desc, l.lim.WriteTimeout)
			l.g.Fail(err)
		}
		release()
		return nil, err
	}
	if what.kind == outStream && timer != nil {
		timer.Stop() // its headers came; the stream lasts as long as it may
	}
	if resp.StatusCode >= 400 {
		// A redirect never comes here: the credentials transport below
		// refuses every one (the gateway's credentials).
		l.refuse(fmt.Sprintf("%s answered %s with HTTP %s", l.url, what.desc, resp.Status))
	}
	if what.forwarded {
		// An HTTP error on a client's request is that request's: the SDK
		// would end the session for a 4xx (callStatus).
		if err := l.callStatus(resp); err != nil {
			release()
			return nil, err
		}
	}
	ct, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	if ct == "text/event-stream" {
		b := &sseBody{ctx: ctx, max: l.lim.MaxMessage, g: l.g, held: l.held}
		if tail != nil {
			b.answered = &tail.answered
		}
		if l.sse != nil && what.kind == outStream {
			b.endpoint = l.checkEndpoint
		}
		b.body = body{rc: resp.Body, release: func() { l.held.end(&b.event); release() }}
		resp.Body = l.watched(b)
	} else {
		b := &capBody{ctx: ctx, max: l.lim.MaxMessage, g: l.g, held: l.held}
		b.body = body{rc: resp.Body, release: func() { l.held.end(&b.msg); release() }}
		resp.Body = l.watched(b)
		if what.kind == outCall {
			// A call's JSON answer is read whole here, within the request:
			// the SDK v1.8.0 reads it after the request, and a read that
			// fails there (the call's end while the answer comes, for its
			// timeout or a client's cancellation) breaks its whole
			// connection, and with it every other call on the upstream.
			// Failing here fails only the call.
			data, err := io.ReadAll(resp.Body)
			_ = resp.Body.Close()
			if err != nil {
				return nil, err
			}
			resp.Body = io.NopCloser(bytes.NewReader(data))
		}
	}
	return resp, nil
}

// Kinds of request the SDK's transport sends.
const (
	outCall   = iota // a request of gate's: bounded by its own context
	outAnswer        // gate's answer to a request of the upstream
	outNote          // a notification of gate's
	outStream        // the GET that opens an event stream
	outEnd           // the DELETE that ends a session
)

type outgoing struct {
	kind   int
	desc   string // for an error message: `"tools/list"`, "an answer"
	method string // of a request or a notification
	// forwarded says it is a request gate sends on a client's behalf
	// (forwarded), not one of its own.
	forwarded bool
}

// MaxAnswer is more than any answer or notification gate sends (pings,
// cancellations, empty root lists); a larger body is a call.
const MaxAnswer = 64 << 10

// outgoingOf tells what a request of the SDK's transport carries.
func outgoingOf(req *http.Request, forwarded func(method string) bool) outgoing {
	switch req.Method {
	case http.MethodGet:
		return outgoing{kind: outStream, desc: "the request for its event stream"}
	case http.MethodDelete:
		return outgoing{kind: outEnd, desc: "the end of the session"}
	}
	if req.GetBody == nil || req.ContentLength < 0 || req.ContentLength > MaxAnswer {
		// Gate's own requests are short: a longer one is a client's.
		return outgoing{kind: outCall, desc: "a request", forwarded: true}
	}
	body, err := req.GetBody()
	if err != nil {
		return outgoing{kind: outCall, desc: "a request"}
	}
	defer body.Close()
	b, _ := io.ReadAll(io.LimitReader(body, MaxAnswer))
	// Only its id and method tell what it is: read with the standard
	// decoder, which skips the rest without the SDK decoder's 32 KiB
	// buffer, on every request of every call.
	var m struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
	}
	if err := json.Unmarshal(b, &m); err != nil {
		return outgoing{kind: outCall, desc: "a request"}
	}
	hasID := len(m.ID) > 0 && string(m.ID) != "null"
	switch {
	case m.Method == "" && hasID:
		return outgoing{kind: outAnswer, desc: "an answer to its request"}
	case m.Method == "":
		return outgoing{kind: outCall, desc: "a request"}
	case !hasID:
		return outgoing{kind: outNote, desc: fmt.Sprintf("the notification %q", m.Method), method: m.Method}
	}
	return outgoing{kind: outCall, desc: fmt.Sprintf("%q", m.Method), method: m.Method, forwarded: forwarded(m.Method)}
}

// Describe says what a request of the SDK's transport carries, for an
// error message (`"tools/list"`, "an answer to its request"), and whether
// gate sends it on a client's behalf (forwarded).
func Describe(req *http.Request, forwarded func(method string) bool) (desc string, onBehalf bool) {
	what := outgoingOf(req, forwarded)
	return what.desc, what.forwarded
}

// body is a response body whose Close also releases what its request
// held (its timer, its context).
type body struct {
	rc      io.ReadCloser
	release func()
	once    sync.Once
}

func (b *body) Close() error {
	err := b.rc.Close()
	b.once.Do(b.release)
	return err
}

// capBody is a response body read no further than max bytes: one
// message, unfinished (held) until the body ends or is closed.
type capBody struct {
	body
	ctx    context.Context
	max, n int
	g      *Guard
	held   *unfinished
	msg    unfinishedMsg
}

func (b *capBody) Read(p []byte) (int, error) {
	if room := b.max - b.n + 1; len(p) > room {
		p = p[:room]
	}
	room, err := b.held.room(b.ctx, b.g.broken, &b.msg, len(p))
	if err != nil {
		return 0, err
	}
	n, err := b.rc.Read(p[:room])
	b.n += n
	if b.n > b.max {
		tooLarge := messageTooLarge(b.max)
		b.g.Fail(tooLarge)
		return 0, tooLarge
	}
	b.held.read(&b.msg, n)
	if err != nil {
		b.held.end(&b.msg)
	}
	return n, err
}

// sseBody is an event stream whose every line is at most max bytes, and
// that is read no further while the upstream's requests and
// notifications it brought wait for gate (inflow): it counts them as they
// pass, by the data of each event.
type sseBody struct {
	body
	ctx   context.Context
	max   int
	g     *Guard
	held  *unfinished
	event unfinishedMsg // the event being read

	// pending is what was read past the event that filled the inflow,
	// given out once gate has caught up; pendingErr is the read's error,
	// given after it.
	pending    []byte
	pendingErr error
	stop       bool // the event just ended filled the inflow

	idle    idlePace // what the stream brought that was no message
	dataLen int      // bytes of the event's data lines, not charged to idle
	fields  int      // bytes of its other lines (event:, id:, ...), charged
	lineLen int      // bytes of the line so far
	line    []byte   // its first MaxAnswer bytes
	name    string   // the event's name
	data    []byte   // its data, while at most MaxAnswer bytes
	hasData bool
	cut     bool // its data was longer: it is not counted

	// endpoint checks an HTTP+SSE server's endpoint event (its data, and
	// whether that was cut); nil on a streamable server's streams. bad is
	// what it found wrong.
	endpoint func(data []byte, cut bool) error
	bad      error

	// answered is set once an answer has passed, on a call's stream; nil
	// on other streams.
	answered *atomic.Bool
}

// Read gives out the stream up to the end of the event that fills the
// inflow, and nothing more until gate has caught up: one read brings many
// small events, which would otherwise all be let through at once.
func (b *sseBody) Read(p []byte) (int, error) {
	if err := b.g.Flow.wait(b.ctx); err != nil {
		return 0, err
	}
	if err := b.idle.wait(b.ctx, b.g.broken); err != nil {
		return 0, err
	}
	var n int
	var err error
	switch {
	case len(b.pending) > 0:
		n = copy(p, b.pending)
		b.pending = b.pending[n:]
		if len(b.pending) == 0 {
			err, b.pendingErr = b.pendingErr, nil
		}
	case b.pendingErr != nil:
		return 0, b.pendingErr
	default:
		room, rerr := b.held.room(b.ctx, b.g.broken, &b.event, len(p))
		if rerr != nil {
			return 0, rerr
		}
		n, err = b.rc.Read(p[:room])
	}
	k, serr := b.scan(p[:n])
	if serr != nil {
		b.g.Fail(serr)
		return 0, serr
	}
	if k < n {
		b.pending = append(append([]byte(nil), p[k:n]...), b.pending...)
		if err != nil {
			b.pendingErr = err
		}
		return k, nil
	}
	return n, err
}

// scan follows the lines of p, and returns how much of it it took: all of
// it, or up to the end of an event that filled the inflow.
func (b *sseBody) scan(p []byte) (int, error) {
	taken := 0
	for len(p) > 0 {
		i := bytes.IndexByte(p, '\n')
		seg := p
		if i >= 0 {
			seg = p[:i]
		}
		b.lineLen += len(seg)
		if b.lineLen > b.max {
			return taken, messageTooLarge(b.max)
		}
		if i >= 0 {
			b.held.read(&b.event, len(seg)+1) // and its newline
		} else {
			b.held.read(&b.event, len(seg))
		}
		if room := MaxAnswer - len(b.line); room > 0 {
			b.line = append(b.line, seg[:min(room, len(seg))]...)
		}
		if i < 0 {
			return taken + len(p), nil
		}
		b.endLine(b.lineLen > len(b.line))
		if b.bad != nil {
			return taken, b.bad
		}
		b.line, b.lineLen = b.line[:0], 0
		p = p[i+1:]
		taken += i + 1
		if b.stop {
			b.stop = false
			return taken, nil
		}
	}
	return taken, nil
}

func (b *sseBody) endLine(truncated bool) {
	line := bytes.TrimSuffix(b.line, []byte("\r"))
	if len(line) == 0 && !truncated {
		if !b.hasData {
			b.idle.charge(b.lineLen + 1)
		}
		b.endEvent()
		b.held.end(&b.event)
		return
	}
	field, value, _ := bytes.Cut(line, []byte(":"))
	value = bytes.TrimPrefix(value, []byte(" "))
	if string(field) != "data" {
		b.idle.charge(b.lineLen + 1)
		b.fields += b.lineLen + 1
	} else if !b.cut {
		b.dataLen += b.lineLen + 1
	}
	switch string(field) {
	case "data":
		if b.cut {
			break
		}
		if b.hasData {
			b.data = append(b.data, '\n')
		}
		b.hasData = true
		b.data = append(b.data, value...)
		if truncated || len(b.data) > MaxAnswer {
			b.cut, b.data = true, b.data[:0]
		}
	case "event":
		b.name = string(value)
	}
}

// endEvent counts the event that ends, when it is a request or a
// notification gate acts on. An event past MaxAnswer bytes is not
// counted: the stream is then bounded by the time reading it takes. An
// event that is no JSON-RPC message (but the endpoint event) has its data
// charged to the stream's pace.
func (b *sseBody) endEvent() {
	message := false
	switch {
	case b.name == "endpoint" && b.endpoint != nil:
		b.bad = b.endpoint(b.data, b.cut)
		message = true
	case b.hasData && !b.cut && (b.name == "" || b.name == "message"):
		var m struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params json.RawMessage `json:"params"`
		}
		message = json.Unmarshal(b.data, &m) == nil && (m.Method != "" || len(m.ID) > 0)
		if message && m.Method == "" && b.answered != nil {
			b.answered.Store(true)
		}
		if message && m.Method != "" {
			switch {
			case len(m.ID) > 0 && string(m.ID) != "null":
				b.g.Flow.received(true)
				b.stop = b.g.Flow.full()
			case b.g.counted(m.Method, m.Params):
				b.g.Flow.received(false)
				b.stop = b.g.Flow.full()
			}
		}
	}
	if !message && !b.cut {
		// An event past MaxAnswer may be an answer: it is bounded by
		// the message cap, and never paced.
		b.idle.charge(b.dataLen)
	}
	if message {
		// A message's own fields (its event name, its id) are part of
		// it: given back, up to what framing takes, so that a stream of
		// messages is never paced and one of comments still is.
		b.idle.refund(min(b.fields, maxFraming))
	}
	b.name, b.data, b.hasData, b.cut, b.dataLen, b.fields = "", b.data[:0], false, false, 0, 0
}
