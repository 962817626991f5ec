package host

import (
	"context"
	"crypto/tls"
	"errors"
	"io"
	"net"
	"strings"
	"time"

	"github.com/tetratelabs/wazero/api"

	"github.com/gate-dev/gate/internal/grants"
)

// recvChunk is the most a recv reads from the socket at once.
const recvChunk = 64 << 10

// stream is an open gate.connect connection.
type stream struct {
	conn net.Conn
	tls  *tlsFacts // nil unless "tls:"
	// dest is where the stream goes, and bound the secrets that may be
	// sent there.
	dest  Destination
	bound SecretSet
	// pending holds received bytes, redacted, that the probe has not read
	// yet; held those that cannot be redacted yet (see fill).
	pending []byte
	held    redactStream
	// lastByte is when the newest held byte arrived.
	lastByte time.Time
	eof      bool
	// capped is set when the bytes-in bound cut the stream: nothing more
	// is handed over.
	capped bool
}

// hostConnect is gate.connect(addr_ptr, addr_len, flags, timeout_ms) -> i32.
func hostConnect(ctx context.Context, m api.Module, stack []uint64) {
	c := callFrom(ctx, "gate.connect")
	addr, ok := name(m, "gate.connect", "addr", api.DecodeU32(stack[0]), api.DecodeU32(stack[1]))
	if ok {
		stack[0] = api.EncodeI32(c.connect(ctx, addr, api.DecodeI32(stack[2]), api.DecodeI32(stack[3])))
	} else {
		stack[0] = api.EncodeI32(c.fail(StatusBadRequest, "connect: the address is longer than any address"))
	}
	c.Check(ctx, "gate.connect")
}

func (c *Call) connect(ctx context.Context, addr string, flags, timeoutMS int32) int32 {
	if status, cut := c.cutOff("connect"); cut {
		return status
	}
	if flags&^FlagInsecure != 0 {
		return c.fail(StatusBadRequest, "connect "+addr+": unknown flags")
	}
	dialAddr, isTLS := strings.CutPrefix(addr, "tls:")
	network, target, verdict := c.Policy.CheckDial(dialAddr)
	parsed, _ := grants.ParseDialAddr(dialAddr)
	if isTLS && verdict == grants.Granted && network != "tcp" {
		verdict = grants.Malformed // "tls:unix:/path"
	}
	switch verdict {
	case grants.Malformed:
		return c.fail(StatusBadRequest, "connect "+addr+": bad address: want host:port, unix:/path or tls:host:port")
	case grants.Denied:
		return c.denyNet("dial", addr)
	}
	insecure := flags&FlagInsecure != 0 && isTLS
	if insecure && !c.Policy.AllowInsecure(dialAddr) {
		return c.denyNet("insecure", dialAddr)
	}
	if !c.canOpen() {
		return StatusLimit
	}
	d, ok := c.clip("gate.connect", timeoutMS)
	if !ok {
		return c.fail(StatusTimedOut, "connect "+addr+": no time left in the budget")
	}
	var (
		conn   net.Conn
		facts  *tlsFacts
		status int32
		err    error
	)
	c.wait(ctx, "gate.connect", true, d, func(ctx context.Context) {
		ctx, cancel := c.workContext(ctx, d)
		defer cancel()
		conn, err = c.Net.dialContext(ctx, network, target)
		if err != nil {
			status = dialStatus(err)
			if ctx.Err() != nil && status == StatusUnreachable {
				status = StatusTimedOut
			}
			return
		}
		if !isTLS {
			return
		}
		host, _, _ := net.SplitHostPort(target)
		peer := func() (string, string) { return host, dialAddr }
		var tc *tls.Conn
		err = onConn(ctx, conn, func() (err error) {
			tc, err = handshake(ctx, conn, c.tlsConfig(ctx, host, peer, insecure), dialAddr)
			return err
		})
		if err != nil {
			conn.Close()
			conn = nil
			status = handshakeStatus(ctx, err)
			return
		}
		conn.SetDeadline(noDeadline)
		facts = c.tlsFactsOf(tc.ConnectionState(), host, insecure)
		conn = tc
	})
	dest := grants.StreamDestination(parsed, isTLS)
	if conn == nil {
		return c.failFrom(dest, dest.String(), status, "connect "+addr+": "+err.Error())
	}
	return c.net.add(&handle{stream: &stream{conn: conn, tls: facts, dest: dest, bound: c.Policy.BoundTo(dest)}})
}

// handshakeStatus maps a failed TLS handshake: a peer that never finishes
// it timed out; one that fails it, or fails verification, is StatusTLS.
func handshakeStatus(ctx context.Context, err error) int32 {
	if ctx.Err() != nil || isTimeout(err) {
		return StatusTimedOut
	}
	return StatusTLS
}

// hostSend is gate.send(handle, ptr, len) -> i32.
func hostSend(ctx context.Context, m api.Module, stack []uint64) {
	c := callFrom(ctx, "gate.send")
	id := api.DecodeI32(stack[0])
	b := view(m, "gate.send", "data", api.DecodeU32(stack[1]), api.DecodeU32(stack[2]))
	stack[0] = api.EncodeI32(c.send(ctx, id, b))
	c.Check(ctx, "gate.send")
}

func (c *Call) send(ctx context.Context, id int32, b []byte) int32 {
	h := c.lookup(id)
	if h == nil || h.stream == nil {
		if h != nil {
			c.setLastError("send: handle is an HTTP response, not a stream")
		}
		return StatusBadHandle
	}
	if status, cut := c.cutOff("send"); cut {
		return status
	}
	// Counted as written, each placeholder at the most its value can take:
	// the bound holds on the wire and tells nothing about a length. The
	// answer (len(b)) does not either.
	if !c.takeOut(placeholderCost(b, 1)) {
		return StatusLimit
	}
	out, used, status, why := c.substitute(b, h.stream.dest, nil)
	if status != StatusOK {
		return c.fail(status, why)
	}
	c.markSentTo(strings.TrimPrefix(h.stream.dest.String(), "tls:"), used)
	if len(out) == 0 {
		return 0
	}
	d, ok := c.clip("gate.send", 0)
	if !ok {
		return c.fail(StatusTimedOut, "send: no time left in the budget")
	}
	var err error
	conn := h.stream.conn
	c.wait(ctx, "gate.send", true, d, func(ctx context.Context) {
		ctx, cancel := c.netContext(ctx, d)
		defer cancel()
		err = onConn(ctx, conn, func() error {
			_, err := conn.Write(out)
			return err
		})
	})
	if err != nil {
		status := StatusClosed
		if isTimeout(err) {
			status = StatusTimedOut
		}
		return c.fail(status, "send: "+err.Error())
	}
	return int32(len(b))
}

// hostRecv is gate.recv(handle, buf_ptr, buf_cap, timeout_ms) -> i32.
func hostRecv(ctx context.Context, m api.Module, stack []uint64) {
	c := callFrom(ctx, "gate.recv")
	id := api.DecodeI32(stack[0])
	buf := view(m, "gate.recv", "buf", api.DecodeU32(stack[1]), api.DecodeU32(stack[2]))
	stack[0] = api.EncodeI32(c.recv(ctx, id, buf, api.DecodeI32(stack[3])))
	c.Check(ctx, "gate.recv")
}

func (c *Call) recv(ctx context.Context, id int32, buf []byte, timeoutMS int32) int32 {
	h := c.lookup(id)
	if h == nil || h.stream == nil {
		if h != nil {
			c.setLastError("recv: handle is an HTTP response, not a stream")
		}
		return StatusBadHandle
	}
	s := h.stream
	if status, cut := c.cutOff("recv"); cut {
		s.pending = nil
		return status
	}
	if len(buf) == 0 {
		return 0
	}
	if len(s.pending) == 0 {
		if s.eof {
			return 0
		}
		if status := c.fill(ctx, s, timeoutMS); status != StatusOK {
			return status
		}
		if len(s.pending) == 0 {
			return 0 // end of stream
		}
	}
	n := copy(buf, s.pending)
	s.pending = s.pending[n:]
	if len(s.pending) == 0 {
		s.pending = nil
	}
	return int32(n)
}

// fill reads from the socket until the probe has something to read, the
// stream ends or fails, or the wait is over.
//
// Once the run has sent a secret bound to this stream's destination, the
// peer may echo it, and what it sends is redacted before the probe sees
// it, with the cuts redactStream allows: bytes that could still be the
// start of a value are held until more arrive, the stream ends, or the
// peer has been quiet for quietGap since its last byte. The probe's
// timeout does not end the hold (a recv whose wait ends first answers
// StatusTimedOut and the bytes stay held), nor does the size of its
// buffer, so it cannot place a cut inside an echo. When the hold ends
// depends only on when bytes arrive and on the redacted text, never on
// bytes that might begin a value: holding back a tail because it may be a
// value's start would let a probe test guesses of its first bytes by
// timing recv. A peer that pauses for longer than quietGap in the middle
// of a value defeats this, and docs/ABI.md says so.
func (c *Call) fill(ctx context.Context, s *stream, timeoutMS int32) int32 {
	if s.capped || c.inLeft() <= 0 || c.rawLeft() <= 0 {
		s.held.drop()
		return c.fail(StatusLimit, "recv: "+errBytesIn)
	}
	d, ok := c.clip("gate.recv", timeoutMS)
	if !ok {
		return c.fail(StatusTimedOut, "recv: no time left in the budget")
	}
	full, _ := c.clip("gate.recv", 0)
	r := c.redactorOf(c.scopeOf(s.dest))
	var (
		err  error
		stop bool
	)
	c.wait(ctx, "gate.recv", true, max(d, full), func(ctx context.Context) {
		wait, cancel := c.netContext(ctx, d)
		defer cancel()
		// The hold's own reads may run a little past the probe's timeout
		// (quietRead at most), never past the budget: a probe that reads
		// with 1 ms timeouts must still see the peer fall quiet. Only a
		// stream that holds bytes needs that wider wait (a netContext
		// costs a goroutine when the run can be stopped).
		budget := wait
		if r != nil {
			var cancelBudget context.CancelFunc
			budget, cancelBudget = c.netContext(ctx, full)
			defer cancelBudget()
		}
		probeDeadline, _ := wait.Deadline()
		for len(s.pending) == 0 && !s.capped {
			left := c.rawLeft()
			if left <= 0 {
				// Past the bound nothing is read, and what is held is
				// never handed over: a cut there would be the probe's.
				s.held.drop()
				s.capped = true
				err = errBytesInBound
				break
			}
			readCtx, cancelRead := wait, context.CancelFunc(func() {})
			var quietAt time.Time
			if !s.held.empty() {
				// Quiet means nothing more came: what the socket already
				// holds is read first, however long ago the last byte
				// arrived, so a probe that waits before it reads cannot
				// end the hold by waiting.
				if at := later(s.lastByte.Add(quietGap), time.Now().Add(quietRead)); !at.After(probeDeadline.Add(quietRead)) {
					quietAt = at
					readCtx, cancelRead = context.WithDeadline(budget, quietAt)
				}
			}
			chunk := make([]byte, min(int64(recvChunk), left))
			var n int
			err = onConn(readCtx, s.conn, func() error {
				var err error
				n, err = s.conn.Read(chunk)
				return err
			})
			cancelRead()
			// The read's own deadline ended it: judged by the clock, since
			// the socket's deadline can fire before the context's timer.
			quiet := n == 0 && !quietAt.IsZero() && isTimeout(err) && !stopped(readCtx) && !time.Now().Before(quietAt)
			if quiet && socketPending(s.conn) {
				// The deadline woke the read before the bytes that had
				// come did: the peer was not quiet. Read them.
				continue
			}
			if n > 0 {
				c.countRaw(n)
				s.held.push(chunk[:n])
				s.lastByte = time.Now()
				err = nil
			}
			final := quiet || (err != nil && !isTimeout(err))
			c.handOver(s, s.held.release(r, final))
			if s.held.found != "" {
				break
			}
			if quiet {
				err = nil
			}
			if err != nil || r == nil {
				break
			}
		}
		stop = stopped(wait) || stopped(budget)
	})
	if s.held.found != "" {
		// Withheld whole: what was handed over and not yet read goes too.
		s.pending, s.capped = nil, true
		return c.withhold(s.held.found, s.dest.String())
	}
	if len(s.pending) > 0 {
		// Bytes now; an error that lasts is reported by the next call.
		return StatusOK
	}
	switch {
	case err == nil:
		return StatusOK
	case errors.Is(err, io.EOF):
		s.eof = true
		return StatusOK
	case errors.Is(err, errBytesInBound):
		return c.fail(StatusLimit, "recv: "+errBytesIn)
	case stop:
		// The check after the call stops the guest; this is for the record.
		return c.fail(StatusTimedOut, "recv: "+ErrStopped.Error())
	case isTimeout(err):
		return c.fail(StatusTimedOut, "recv: nothing arrived in time")
	}
	return c.failFrom(s.dest, s.dest.String(), StatusClosed, "recv: "+err.Error())
}

// handOver makes redacted bytes readable, within the bytes-in bound,
// which is counted and cut in redacted bytes: a cut there can split a
// placeholder, never a value.
func (c *Call) handOver(s *stream, b []byte) {
	if len(b) == 0 {
		return
	}
	if left := c.inLeft(); int64(len(b)) >= left {
		b = b[:left]
		s.held.drop()
		s.capped = true
	}
	c.countIn(len(b))
	s.pending = append(s.pending, b...)
}

// quietRead is the least a read that looks for quiet waits, so that it
// reads what the socket already holds before it may find none.
const quietRead = time.Millisecond

func later(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}

// quietGap is how long a peer must send nothing before the bytes held for
// redaction are handed over (see fill): long enough for the second write
// of an echo on a loaded machine, short against the budget.
const quietGap = 5 * time.Millisecond

// hostClose is gate.close(handle) -> i32.
func hostClose(ctx context.Context, m api.Module, stack []uint64) {
	c := callFrom(ctx, "gate.close")
	stack[0] = api.EncodeI32(c.closeHandle(api.DecodeI32(stack[0])))
	c.Check(ctx, "gate.close")
}
