package uplink

import (
	"bufio"
	"bytes"
	"io"
	"mime"
	"net/http"
)

// Each reader drops what it holds past this once a frame is passed on, so
// that one large message does not keep its buffer for the session.
const keepFitBuffer = 64 << 10

// fitChunk is what a fitter reads at a time: a line, or this much of a
// longer one. Most answers are far shorter than keepFitBuffer, and every
// answer of an HTTP upstream gets its own fitter, so its read buffer is
// small; a longer line is read in chunks of it, into the frame.
const fitChunk = 4 << 10

// nesting follows the nesting of objects and arrays across the chunks of
// a stream, as JSONShape does for a whole message.
type nesting struct {
	depth             int
	inString, escaped bool
}

func (n *nesting) feed(b []byte) {
	for _, c := range b {
		if n.inString {
			switch {
			case n.escaped:
				n.escaped = false
			case c == '\\':
				n.escaped = true
			case c == '"':
				n.inString = false
			}
			continue
		}
		switch c {
		case '"':
			n.inString = true
		case '{', '[':
			n.depth++
		case '}', ']':
			n.depth = max(n.depth-1, 0)
		}
	}
}

// idle: between values.
func (n *nesting) idle() bool { return n.depth == 0 && !n.inString }

// fitLines reads newline-delimited JSON-RPC messages (a stdio upstream's
// output, or a JSON response body) from r and passes each on through
// fitMessage. A message is the lines up to the one that closes its last
// bracket, as the SDK's decoder reads a value and its newline; a body's
// last value needs no newline. It holds at most max bytes of a message
// (gate's cap on one, which the reader below enforces): a longer one is
// passed on as it comes, and refused there.
func fitLines(r io.Reader, max int) io.Reader {
	var n nesting
	return newFitter(r, func(chunk []byte, eof bool) bool {
		n.feed(chunk)
		return n.idle() && (eof || len(chunk) > 0 && chunk[len(chunk)-1] == '\n')
	}, fitFrame, max)
}

// fitEvents reads a text/event-stream body from r and passes each event
// on, its data (the JSON-RPC message, the joined data lines, as the SDK
// joins them) through fitMessage: a message fitted is written as one data
// line where the first was; one dropped leaves the event without data,
// which the SDK skips. It holds at most max bytes of an event.
func fitEvents(r io.Reader, max int) io.Reader { return eventFitter(r, fitEvent, max) }

// markedEvents is fitEvents that also passes each event through mark.
func markedEvents(r io.Reader, max int, mark func(event []byte) []byte) io.Reader {
	return eventFitter(r, func(event []byte) []byte { return mark(fitEvent(event)) }, max)
}

func eventFitter(r io.Reader, fit func([]byte) []byte, max int) io.Reader {
	lineStart := true
	return newFitter(r, func(chunk []byte, eof bool) bool {
		blank := lineStart && (string(chunk) == "\n" || string(chunk) == "\r\n")
		lineStart = len(chunk) > 0 && chunk[len(chunk)-1] == '\n'
		return blank || eof
	}, fit, max)
}

// fitter reads frames from r, a chunk (a line, or what of a long one fits
// the buffer) at a time, and passes each on through fit. end says whether
// a chunk, the last of the stream when eof, ends its frame. A frame longer
// than max is passed on as it comes, without being held.
type fitter struct {
	r     *bufio.Reader
	end   func(chunk []byte, eof bool) bool
	fit   func(frame []byte) []byte
	max   int
	out   []byte // what Read gives next
	frame []byte // the frame being read
	pass  bool   // passing a frame over max on as it comes
	err   error
}

func newFitter(r io.Reader, end func([]byte, bool) bool, fit func([]byte) []byte, max int) *fitter {
	return &fitter{r: bufio.NewReaderSize(r, fitChunk), end: end, fit: fit, max: max}
}

func (f *fitter) Read(p []byte) (int, error) {
	for len(f.out) == 0 {
		if f.err != nil {
			return 0, f.err
		}
		f.next()
	}
	n := copy(p, f.out)
	f.out = f.out[n:]
	return n, nil
}

func (f *fitter) next() {
	chunk, err := f.r.ReadSlice('\n')
	ended := f.end(chunk, err == io.EOF)
	switch {
	case f.pass:
		f.out = append(f.out[:0], chunk...)
		f.pass = !ended
	case len(f.frame)+len(chunk) > f.max:
		f.out = append(append(f.out[:0], f.frame...), chunk...)
		f.frame = f.frame[:0]
		f.pass = !ended
	default:
		f.frame = append(f.frame, chunk...)
		if ended {
			f.out = append(f.out[:0], f.fit(f.frame)...)
			f.frame = f.frame[:0]
		}
	}
	if cap(f.frame) > keepFitBuffer && len(f.frame) == 0 {
		f.frame = nil
	}
	if err == bufio.ErrBufferFull {
		return
	}
	if err != nil {
		// What is left of a frame cut off is passed on as it came.
		f.out = append(f.out, f.frame...)
		f.frame, f.err = nil, err
	}
}

// fitFrame fits one message with the space around it (a newline after it
// stays); one dropped leaves nothing.
func fitFrame(frame []byte) []byte {
	if depth, _ := JSONShape(frame); depth <= SDKMaxDepth {
		return frame
	}
	msg := bytes.TrimSpace(frame)
	fitted, keep := fitMessage(msg)
	if !keep {
		return nil
	}
	if bytes.HasSuffix(frame, []byte("\n")) {
		fitted = append(fitted, '\n')
	}
	return fitted
}

// fitEvent returns one event, its blank line included, with its data
// fitted.
func fitEvent(event []byte) []byte {
	msg, first, lines := eventData(event)
	if first < 0 {
		return event
	}
	if depth, _ := JSONShape(msg); depth <= SDKMaxDepth {
		return event
	}
	fitted, keep := fitMessage(msg)
	return withData(lines, first, fitted, keep)
}

// eventData returns the message of an event (its data lines' values
// joined, as the SDK joins them), the index among its lines of the first
// data line (-1 when it has none), and its lines.
func eventData(event []byte) (msg []byte, first int, lines [][]byte) {
	var data [][]byte
	first = -1
	lines = bytes.SplitAfter(event, []byte("\n"))
	for i, l := range lines {
		if value, ok := dataLine(l); ok {
			if first < 0 {
				first = i
			}
			data = append(data, bytes.TrimSpace(value))
		}
	}
	return bytes.Join(data, []byte("\n")), first, lines
}

// withData returns the event of lines with its data lines replaced by
// msg, one line where the first was; none when keep is false.
func withData(lines [][]byte, first int, msg []byte, keep bool) []byte {
	var out bytes.Buffer
	for i, l := range lines {
		_, isData := dataLine(l)
		switch {
		case !isData:
			out.Write(l)
		case i == first && keep:
			out.WriteString("data: ")
			out.Write(msg)
			out.WriteByte('\n')
		}
	}
	return out.Bytes()
}

// dataLine returns the value of an event's line when it is a data field,
// as the SDK reads fields (name, colon, value).
func dataLine(l []byte) ([]byte, bool) {
	name, value, ok := bytes.Cut(bytes.TrimRight(l, "\r\n"), []byte(":"))
	return value, ok && string(name) == "data"
}

// fitTransport passes every JSON and event-stream response of an HTTP
// upstream through fitLines and fitEvents, which hold at most max bytes of
// a message. With ties, the event stream of a POST whose context carries
// a call (WithCall) has its requests tied to that call (Ties.mark) for as
// long as its body is open.
type fitTransport struct {
	base http.RoundTripper
	max  int
	ties *Ties
}

func (t fitTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := t.base.RoundTrip(req)
	if err != nil {
		return resp, err
	}
	mt, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	var fit func(io.Reader, int) io.Reader
	switch mt {
	case "application/json":
		fit = fitLines
	case "text/event-stream":
		fit = fitEvents
	default:
		return resp, nil
	}
	var call any
	if t.ties != nil && req.Method == http.MethodPost && mt == "text/event-stream" {
		call = callOf(req.Context())
	}
	if call != nil {
		token, end := t.ties.stream(call)
		mark := func(event []byte) []byte { return t.ties.mark(event, token, t.max) }
		resp.Body = fittedBody{markedEvents(resp.Body, t.max, mark), &body{rc: resp.Body, release: end}}
	} else {
		resp.Body = fittedBody{fit(resp.Body, t.max), resp.Body}
	}
	// A fitted body is not the length the server said.
	resp.ContentLength = -1
	resp.Header.Del("Content-Length")
	return resp, nil
}

type fittedBody struct {
	io.Reader
	io.Closer
}
