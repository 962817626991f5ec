package host

import (
	"strconv"
	"time"
)

// netState is what one run's ABI v2 calls hold: its handles, its byte
// counts and the host's words for its last failure. A Call has none until
// its first v2 call, so a v1 probe's run allocates nothing for it, and End
// drops it, so nothing of it outlives the run.
type netState struct {
	// handles[i] is handle i+1; a closed handle's slot is nil. Handle
	// numbers are never reused within a run, so a probe that closes a
	// handle and keeps using its number gets StatusBadHandle, not somebody
	// else's stream.
	handles  []*handle
	open     int
	bytesOut int64
	bytesIn  int64
	// rawIn counts the bytes read off the wire, which redaction may make
	// fewer than the probe can read: bounded by MaxRawBytesIn.
	rawIn   int64
	lastErr string
	errSet  bool
}

// handle is one open stream or HTTP response.
type handle struct {
	stream *stream
	resp   *response
}

// tlsFacts is what gate.tls answers for a TLS stream or an HTTPS response.
type tlsFacts struct {
	verified bool
	notAfter time.Time
}

func (h *handle) close() {
	if h.stream != nil {
		h.stream.conn.Close()
	}
}

// netState returns the run's v2 state, made on first use.
func (c *Call) netState() *netState {
	if c.net == nil {
		c.net = &netState{}
	}
	return c.net
}

// End closes every handle the run left open and drops the run's v2 state
// (handles, byte counts, last error). The engine calls it after every run
// however the run ended (an answer, a trap, the budget, a Close), before
// the run's instance is kept for another run. It is cheap when the run made
// no v2 call, and safe to call twice.
func (c *Call) End() {
	n := c.net
	if n == nil {
		return
	}
	c.net = nil
	for _, h := range n.handles {
		if h != nil {
			h.close()
		}
	}
}

// addHandle registers h and returns its number; the caller checked
// canOpen first.
func (n *netState) add(h *handle) int32 {
	n.handles = append(n.handles, h)
	n.open++
	return int32(len(n.handles))
}

// canOpen reports whether the run may open another handle, and sets the
// last error when it may not.
func (c *Call) canOpen() bool {
	n := c.netState()
	switch {
	case n.open >= MaxOpenHandles:
		c.setLastError("too many open handles: a run may hold " + strconv.Itoa(MaxOpenHandles) + " at once")
		return false
	case len(n.handles) >= MaxHandlesPerRun:
		c.setLastError("too many handles: a run may open " + strconv.Itoa(MaxHandlesPerRun) + " in all")
		return false
	}
	return true
}

// lookup returns the open handle numbered id, or nil (and sets the last
// error) when there is none.
func (c *Call) lookup(id int32) *handle {
	if n := c.net; n != nil && id >= 1 && int(id) <= len(n.handles) {
		if h := n.handles[id-1]; h != nil {
			return h
		}
	}
	c.setLastError("handle " + strconv.Itoa(int(id)) + " is not open")
	return nil
}

// closeHandle closes the handle numbered id.
func (c *Call) closeHandle(id int32) int32 {
	h := c.lookup(id)
	if h == nil {
		return StatusBadHandle
	}
	h.close()
	c.net.handles[id-1] = nil
	c.net.open--
	return StatusOK
}

// takeOut counts n bytes the probe hands to the network against
// MaxBytesOut; false (with the last error set) means over.
func (c *Call) takeOut(n int) bool {
	s := c.netState()
	if s.bytesOut+int64(n) > MaxBytesOut {
		c.setLastError("the run's bound of " + strconv.Itoa(MaxBytesOut) + " bytes out is reached")
		return false
	}
	s.bytesOut += int64(n)
	return true
}

// fitsOut is takeOut for bytes the host sends on the probe's behalf
// within a call that succeeds anyway (a redirect's): false leaves the
// last error alone.
func (c *Call) fitsOut(n int) bool {
	s := c.netState()
	if s.bytesOut+int64(n) > MaxBytesOut {
		return false
	}
	s.bytesOut += int64(n)
	return true
}

// inLeft is how many bytes the run may still receive, as the probe reads
// them (redacted).
func (c *Call) inLeft() int64 { return MaxBytesIn - c.netState().bytesIn }

func (c *Call) countIn(n int) { c.netState().bytesIn += int64(n) }

// rawLeft is how many bytes the run may still read off the wire.
func (c *Call) rawLeft() int64 { return MaxRawBytesIn - c.netState().rawIn }

func (c *Call) countRaw(n int) { c.netState().rawIn += int64(n) }

// errBytesIn is the last error of a call refused for the bytes-in bound.
var errBytesIn = "the run's bound of " + strconv.Itoa(MaxBytesIn) + " bytes in is reached"

// setLastError keeps the host's words for the run's last failed v2 call,
// clipped to MaxLastError bytes. The probe reads them, so they are built
// of the host's own words and what the probe itself wrote, never of a
// substituted value; what a peer may have put in them is redacted by
// failFrom.
func (c *Call) setLastError(msg string) {
	n := c.netState()
	n.lastErr = clipUTF8([]byte(msg), MaxLastError)
	n.errSet = true
}

// fail sets the last error to msg and returns status, for the one-line
// failures of v2 calls.
func (c *Call) fail(status int32, msg string) int32 {
	c.observe(statusFailure(status))
	c.setLastError(msg)
	return status
}

// failFrom is fail for a failure whose text may hold what the peer at d
// (named from, as a denial names it) sent (a TLS certificate's names, the
// bytes of a broken HTTP response): read as that peer's bytes are, and
// withheld whole when it holds a value the run sent there (echo.go).
func (c *Call) failFrom(d Destination, from string, status int32, msg string) int32 {
	if name := c.peerText(c.scopeOf(d), msg); name != "" {
		return c.withhold(name, from)
	}
	c.observe(statusFailure(status))
	c.setLastError(msg)
	return status
}

// denyNet is deny for v2 calls: the denial is also the last error.
func (c *Call) denyNet(kind, what string) int32 {
	c.setLastError(Denial{Kind: kind, Request: what, Probe: c.Probe}.String())
	return c.deny(kind, what)
}
