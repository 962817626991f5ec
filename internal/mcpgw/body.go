package mcpgw

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"time"

	"github.com/gate-dev/gate/internal/budget"
	"github.com/prometheus/client_golang/prometheus"
)

// A /mcp POST's body is read whole before the SDK sees it (readBody). The
// bodies being read hold memory while their clients send them, as slowly
// as they like: each is read within a deadline, and all of them together,
// and those of one peer, within a budget (WithRequestBodyBudget), charged
// as the buffers that hold them are made, before a byte is read into
// them. A peer past its share is refused alone; the others go on.

// The buffers a body is read into: the first is small, as most bodies are,
// and each next twice the last, up to the largest, so that what a body
// holds past its bytes is at most one buffer.
const (
	firstBodyChunk   = 4 << 10
	largestBodyChunk = 256 << 10
)

// The reasons of gate_mcp_request_bodies_refused_total.
const (
	bodyOverShare = "peer_share"
	bodyOverTotal = "total"
	bodyTimeout   = "timeout"
)

// requestBodies is the budget of the bodies being read, and its metrics.
type requestBodies struct {
	budget  *budget.Shared
	timeout time.Duration
	refused *prometheus.CounterVec // nil: no metrics
}

func newRequestBodies(cfg Config, reg prometheus.Registerer) *requestBodies {
	lim := cfg.bodies.resolved(cfg.maxRequest)
	b := &requestBodies{budget: budget.New(int64(lim.total), int64(lim.share)), timeout: lim.timeout}
	if reg == nil {
		return b
	}
	b.refused = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "gate_mcp_request_bodies_refused_total",
		Help: "/mcp request bodies refused while being read: by reason, peer_share (429: the client's peer held its share of the body budget), total (503: all bodies held the budget) or timeout (408: the body did not arrive within the body timeout).",
	}, []string{"reason"})
	held := prometheus.NewGaugeFunc(prometheus.GaugeOpts{
		Name: "gate_mcp_request_body_bytes",
		Help: "Bytes the /mcp request bodies being read or handled hold now (the body budget's use).",
	}, func() float64 { return float64(b.budget.Held()) })
	reg.MustRegister(b.refused, held)
	for _, r := range []string{bodyOverShare, bodyOverTotal, bodyTimeout} {
		b.refused.WithLabelValues(r)
	}
	return b
}

func (b *requestBodies) count(reason string) {
	if b.refused != nil {
		b.refused.WithLabelValues(reason).Inc()
	}
}

// readBody reads a POST's body, up to the request cap, within the body
// timeout and the budget, before the SDK sees it, and refuses a JSON-RPC
// batch of more messages than a session may have requests in flight: the
// SDK starts each message of a batch at once. A body that is slow to come
// holds no slot of the session cap (admit), which is taken only once it is
// here. When ok, release gives the body's bytes back to the budget: call
// it once the request is handled (the SDK holds a copy until then). When
// not, it has answered the request, and closes its connection.
func (g *Gateway) readBody(w http.ResponseWriter, r *http.Request) (release func(), ok bool) {
	b, most := g.bodies, int64(g.cfg.maxRequest)
	rc := http.NewResponseController(w)
	refuse := func(code int, msg string) (func(), bool) {
		// What is left of the body is not read: Go's server would
		// otherwise read it, as long as the client takes to send it,
		// before it closes the connection.
		_ = rc.SetReadDeadline(time.Now())
		w.Header().Set("Connection", "close")
		http.Error(w, msg, code)
		return nil, false
	}
	if r.ContentLength > most {
		return refuse(http.StatusRequestEntityTooLarge, fmt.Sprintf("request body exceeds %d bytes", most))
	}
	peer := budget.Peer(r.RemoteAddr)
	var held int64
	release = func() {
		b.budget.Give(peer, held)
		held = 0
	}
	if r.ContentLength != 0 {
		// A body with no bytes is read already, and Go's server then
		// reads the connection in the background: a deadline now would
		// end that read, and the request with it.
		if err := rc.SetReadDeadline(time.Now().Add(b.timeout)); err != nil && !errors.Is(err, http.ErrNotSupported) {
			return refuse(http.StatusInternalServerError, "gate: setting the body's read deadline: "+err.Error())
		}
	}
	// A body of known length is read into buffers of its length (Go's
	// server never gives more); one of unknown length into one byte more
	// than may come, which tells it too large.
	limit := most + 1
	if r.ContentLength >= 0 {
		limit = r.ContentLength
	}
	var chunks [][]byte
	n, next := int64(0), int64(firstBodyChunk)
	for n < limit {
		size := min(next, limit-n)
		if err := b.budget.Take(peer, size); err != nil {
			release()
			w.Header().Set("Retry-After", "1")
			if errors.Is(err, budget.ErrOverShare) {
				b.count(bodyOverShare)
				return refuse(http.StatusTooManyRequests, fmt.Sprintf("gate: this client's request bodies being read hold its share of the gateway's budget for them (%d bytes); try again once they are read", b.budget.Share()))
			}
			b.count(bodyOverTotal)
			return refuse(http.StatusServiceUnavailable, fmt.Sprintf("gate: the request bodies being read hold the gateway's budget for them (%d bytes); try again later", b.budget.Total()))
		}
		held += size
		chunk, err := fill(r.Body, make([]byte, size))
		chunks = append(chunks, chunk)
		n += int64(len(chunk))
		if err == io.EOF {
			break
		}
		if err != nil {
			release()
			var ne net.Error
			if errors.As(err, &ne) && ne.Timeout() {
				b.count(bodyTimeout)
				return refuse(http.StatusRequestTimeout, "gate: the request body did not arrive within "+b.timeout.String())
			}
			return refuse(http.StatusBadRequest, "gate: reading the request body: "+err.Error())
		}
		next = min(2*next, largestBodyChunk)
	}
	if n == limit && r.ContentLength >= 0 {
		// Its end, read into no buffer: the server notes it there.
		var end [1]byte
		if k, err := r.Body.Read(end[:]); k > 0 || err != io.EOF {
			release()
			return refuse(http.StatusBadRequest, "gate: the request body does not end at its Content-Length")
		}
	}
	if n > most {
		release()
		return refuse(http.StatusRequestEntityTooLarge, fmt.Sprintf("request body exceeds %d bytes", most))
	}
	body := func() io.Reader {
		rs := make([]io.Reader, len(chunks))
		for i, c := range chunks {
			rs[i] = bytes.NewReader(c)
		}
		return io.MultiReader(rs...)
	}
	if k := batchLen(body(), g.cfg.maxSessionRequests); k > g.cfg.maxSessionRequests {
		release()
		return refuse(http.StatusBadRequest, "gate: a JSON-RPC batch may hold at most "+strconv.Itoa(g.cfg.maxSessionRequests)+" messages, the gateway's cap")
	}
	r.Body = io.NopCloser(body())
	return release, true
}

// fill reads into buf until it is full, the body ends (io.EOF) or reading
// fails, and returns what it read. Unlike io.ReadFull it tells the end of a
// body from one cut short (io.ErrUnexpectedEOF, from Go's server).
func fill(body io.Reader, buf []byte) ([]byte, error) {
	n := 0
	for n < len(buf) {
		k, err := body.Read(buf[n:])
		n += k
		if err != nil {
			return buf[:n], err
		}
	}
	return buf, nil
}
