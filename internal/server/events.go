package server

import (
	"encoding/json"
	"errors"
	"fmt"
	"github.com/gate-dev/gate/internal/statusview"
	"net/http"
	"sync"
	"time"

	"github.com/gate-dev/gate/internal/budget"
	"github.com/gate-dev/gate/runtime"
)

// hub fans the service's events out to the event streams. It is called
// from the service's publishing goroutine, which a probe run or a reload
// waits on, so it never blocks: each stream has a bounded channel, and a
// stream whose channel is full is dropped (its handler then ends it with
// "event: overflow") instead of being waited for.
type hub struct {
	metrics *Metrics
	opts    Options
	// open counts the streams, all and per peer (Options.MaxStreams).
	open *budget.Shared
	// flips keeps the recent changes for the status page (GET /).
	flips *flipLog

	mu      sync.Mutex
	gen     uint64 // events published so far; the id of the last one
	streams map[*stream]struct{}
}

// stream is one connected client.
type stream struct {
	frames   chan []byte   // complete SSE frames, shared between streams
	overflow chan struct{} // closed when frames overflowed; guarded by hub.mu
}

func newHub(svc *runtime.Service, metrics *Metrics, opts Options) *hub {
	h := &hub{metrics: metrics, opts: opts, streams: map[*stream]struct{}{},
		open: budget.New(int64(opts.MaxStreams), int64(opts.MaxPeerStreams)), flips: newFlipLog(time.Now())}
	unsubscribe := svc.Subscribe(h.publish)
	if opts.Done != nil {
		go func() {
			<-opts.Done
			unsubscribe()
		}()
	}
	return h
}

// generation returns how many events were published so far.
func (h *hub) generation() uint64 {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.gen
}

// publish hands e to every stream, without waiting for any.
func (h *hub) publish(e runtime.Event) {
	// A reload's reason lists every problem of the manifest: it may be
	// megabytes, and every stream would get it whole.
	e.Reason = shortProblems(e.Reason)
	data, err := json.Marshal(statusview.NewEvent(e))
	if err != nil { // an Event has only strings, bools and a time
		return
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	h.gen++
	h.flips.record(e, h.gen)
	frame := fmt.Appendf(nil, "id: %d\nevent: change\ndata: %s\n\n", h.gen, data)
	for s := range h.streams {
		select {
		case s.frames <- frame:
		default:
			delete(h.streams, s)
			close(s.overflow)
			h.metrics.streamOverflowed()
		}
	}
}

// add registers a stream and returns the generation it starts after:
// every later event reaches it, unless it overflows.
func (h *hub) add() (*stream, uint64) {
	s := &stream{frames: make(chan []byte, h.opts.StreamBuffer), overflow: make(chan struct{})}
	h.mu.Lock()
	defer h.mu.Unlock()
	h.streams[s] = struct{}{}
	h.metrics.streamOpened()
	return s, h.gen
}

func (h *hub) remove(s *stream) {
	h.mu.Lock()
	delete(h.streams, s)
	h.mu.Unlock()
	h.metrics.streamClosed()
}

// count returns how many streams are connected, for tests.
func (h *hub) count() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.streams)
}

// overflowFrame ends a stream that fell behind: the client missed events
// and must read the state again (/v1/tools, /v1/status) and reconnect.
var overflowFrame = []byte("event: overflow\ndata: {\"error\": \"the client fell behind and missed events: read the state again and reconnect\"}\n\n")

var pingFrame = []byte(": ping\n\n")

// serve is /v1/events: "event: hello" with the current generation, then
// one "event: change" per service event (its id is the generation it
// makes), ": ping" comments while idle, until the client goes away, the
// server shuts down (Options.Done) or the stream overflows.
func (h *hub) serve(w http.ResponseWriter, r *http.Request) {
	hdr := w.Header()
	hdr.Set("Content-Type", "text/event-stream")
	hdr.Set("X-Accel-Buffering", "no") // a reverse proxy must not hold events back
	if r.Method == http.MethodHead {
		w.WriteHeader(http.StatusOK)
		return
	}
	rc := http.NewResponseController(w)
	// A stream lasts for hours: no server deadline may end it. The read
	// deadline (ServerOptions.ReadTimeout) would cancel the request's
	// context when it passes; Go's server lifts it once a request without
	// a body has been read, and lifting it here too keeps streams
	// independent of that detail. The client goes away by closing the
	// connection, which the server still notices. The write deadline
	// (ServerOptions.WriteTimeout) is set anew before each write, below.
	if err := rc.SetReadDeadline(time.Time{}); err != nil && !errors.Is(err, http.ErrNotSupported) {
		return
	}
	peer := budget.Peer(r.RemoteAddr)
	if err := h.open.Take(peer, 1); err != nil {
		hdr.Del("Content-Type")
		hdr.Del("X-Accel-Buffering")
		hdr.Set("Retry-After", "1")
		if errors.Is(err, budget.ErrOverShare) {
			h.metrics.streamRefused(refusedPeerShare)
			writeError(w, http.StatusTooManyRequests, fmt.Sprintf("this client has %d event streams open, its share: close one, or try again later", h.open.Share()))
			return
		}
		h.metrics.streamRefused(refusedTotal)
		writeError(w, http.StatusServiceUnavailable, fmt.Sprintf("%d event streams are open, the server's cap: try again later", h.open.Total()))
		return
	}
	// The stream's place is given back when it ends, whichever way.
	defer h.open.Give(peer, 1)
	s, gen := h.add()
	defer h.remove(s)

	// Every write has a deadline: a client that stops reading blocks only
	// this goroutine, and only until then.
	write := func(frame []byte) bool {
		if err := rc.SetWriteDeadline(time.Now().Add(h.opts.WriteTimeout)); err != nil {
			return false
		}
		if _, err := w.Write(frame); err != nil {
			return false
		}
		return rc.Flush() == nil
	}
	w.WriteHeader(http.StatusOK)
	if !write(fmt.Appendf(nil, "event: hello\ndata: {\"generation\": %d}\n\n", gen)) {
		return
	}
	ping := time.NewTicker(h.opts.PingInterval)
	defer ping.Stop()
	for {
		select {
		case <-r.Context().Done():
			return
		case <-h.opts.Done:
			return
		case <-s.overflow:
			write(overflowFrame)
			return
		case frame := <-s.frames:
			select {
			case <-s.overflow: // what is queued is incomplete anyway
				write(overflowFrame)
				return
			default:
			}
			if !write(frame) {
				return
			}
		case <-ping.C:
			if !write(pingFrame) {
				return
			}
		}
	}
}
