package hostfuncs

import (
	"context"
	"crypto/tls"
	"errors"
	"io"
	"net"
	"strings"
	"time"

	"github.com/tetratelabs/wazero/api"
)

// recvChunk is the most a recv reads from the socket at once. Each chunk is
// redacted as a whole before the probe sees any of it, so a probe that
// reads a byte at a time still gets redacted bytes.
const recvChunk = 64 << 10

// stream is an open gate.connect connection.
type stream struct {
	conn net.Conn
	tls  *tlsFacts // nil unless "tls:"
	// pending holds received bytes, redacted, that the probe has not read
	// yet.
	pending []byte
	eof     bool
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
	if flags&^FlagInsecure != 0 {
		return c.fail(StatusBadRequest, "connect "+addr+": unknown flags")
	}
	dialAddr, isTLS := strings.CutPrefix(addr, "tls:")
	network, target, verdict := c.Policy.checkDial(dialAddr)
	if isTLS && verdict == StatusOK && network != "tcp" {
		verdict = StatusBadRequest // "tls:unix:/path"
	}
	switch verdict {
	case StatusBadRequest:
		return c.fail(StatusBadRequest, "connect "+addr+": bad address: want host:port, unix:/path or tls:host:port")
	case StatusDenied:
		return c.denyNet("dial", addr)
	}
	insecure := flags&FlagInsecure != 0 && isTLS
	if insecure && !c.Policy.AllowInsecure(dialAddr) {
		return c.denyNet("insecure", dialAddr)
	}
	if !c.canOpen() {
		return StatusLimit
	}
	d, ok := c.clip(timeoutMS)
	if !ok {
		return c.fail(StatusTimedOut, "connect "+addr+": no time left in the budget")
	}
	var (
		conn   net.Conn
		facts  *tlsFacts
		status int32
		err    error
	)
	c.wait(ctx, "gate.connect", true, func(ctx context.Context) {
		ctx, cancel := c.netContext(ctx, d)
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
		tc := tls.Client(conn, c.tlsConfig(host, insecure))
		err = onConn(ctx, conn, func() error { return tc.HandshakeContext(ctx) })
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
	if conn == nil {
		return c.fail(status, "connect "+addr+": "+err.Error())
	}
	return c.net.add(&handle{stream: &stream{conn: conn, tls: facts}})
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
	// Counted as written, placeholders and all: the count tells nothing
	// about a secret's length. The answer (len(b)) does not either.
	if !c.takeOut(len(b)) {
		return StatusLimit
	}
	out, status, why := c.substitute(b)
	if status != StatusOK {
		return c.fail(status, why)
	}
	if len(out) > 0 && &out[0] != &b[0] {
		// substitute hands b back unless it put a value in.
		c.netState().secretSent = true
	}
	if len(out) == 0 {
		return 0
	}
	d, ok := c.clip(0)
	if !ok {
		return c.fail(StatusTimedOut, "send: no time left in the budget")
	}
	var err error
	conn := h.stream.conn
	c.wait(ctx, "gate.send", true, func(ctx context.Context) {
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
// stream ends or fails, or the wait is over, and redacts what came in
// before the probe sees any of it.
//
// Once the run has sent a secret, a peer may echo it, and the socket may
// hand the echo over in pieces: an echo server that reads 4 KiB at a time
// writes back a secret that a padded send placed across its 4 KiB mark as
// two writes, and a probe that read them as two chunks would see the part
// before the mark unredacted. So fill then keeps reading for as long as
// bytes keep coming within quietGap of each other (up to the bytes-in
// bound), and redacts them together. What it waits for depends only on when bytes
// arrive, never on what they are: holding back a tail because it may begin
// a secret's value would let a probe test guesses of its first bytes by
// timing recv. A peer that pauses in the middle of a value for longer than
// quietGap defeats this, and docs/ABI.md says so.
func (c *Call) fill(ctx context.Context, s *stream, timeoutMS int32) int32 {
	if c.inLeft() <= 0 {
		return c.fail(StatusLimit, "recv: "+errBytesIn)
	}
	d, ok := c.clip(timeoutMS)
	if !ok {
		return c.fail(StatusTimedOut, "recv: no time left in the budget")
	}
	var (
		err  error
		stop bool
	)
	coalesce := c.netState().secretSent
	c.wait(ctx, "gate.recv", true, func(ctx context.Context) {
		ctx, cancel := c.netContext(ctx, d)
		defer cancel()
		var raw []byte
		for {
			// Read in raw bytes what is left of the bound in redacted
			// ones: a value's placeholder is never much longer than
			// the value, and the bound counts what the probe can read.
			left := c.inLeft() - int64(len(raw))
			if left <= 0 {
				if len(raw) == 0 {
					err = errBytesInBound
				}
				break
			}
			chunk := make([]byte, min(int64(recvChunk), left))
			readCtx, cancelGap := ctx, context.CancelFunc(func() {})
			if len(raw) > 0 {
				readCtx, cancelGap = context.WithTimeout(ctx, quietGap)
			}
			var n int
			err = onConn(readCtx, s.conn, func() error {
				var err error
				n, err = s.conn.Read(chunk)
				return err
			})
			gapOver := readCtx != ctx && readCtx.Err() != nil && ctx.Err() == nil
			cancelGap()
			raw = append(raw, chunk[:n]...)
			if gapOver {
				err = nil // quiet for quietGap: what came is whole
			}
			// No cut by size: a cut is where the probe could split a
			// value. The bytes-in bound ends a peer that never pauses.
			if err != nil || !coalesce || gapOver {
				break
			}
		}
		if len(raw) > 0 {
			s.pending = c.redact(raw)
			c.countIn(len(s.pending))
		}
		stop = stopped(ctx)
	})
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
	return c.fail(StatusClosed, "recv: "+err.Error())
}

// quietGap is how long fill waits for more bytes after some arrived, in a
// run that has sent a secret (see fill): long enough for the second write
// of an echo on a loaded machine, short against the budget.
const quietGap = 5 * time.Millisecond

// hostClose is gate.close(handle) -> i32.
func hostClose(ctx context.Context, m api.Module, stack []uint64) {
	c := callFrom(ctx, "gate.close")
	stack[0] = api.EncodeI32(c.closeHandle(api.DecodeI32(stack[0])))
	c.Check(ctx, "gate.close")
}
