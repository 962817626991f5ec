package host

import (
	"context"
	"errors"
	"net"
	"syscall"
	"time"

	"github.com/tetratelabs/wazero/api"

	"github.com/gate-dev/gate/internal/grants"
)

// hostDial is gate.dial(addr_ptr, addr_len, timeout_ms) -> i32. It connects
// and closes at once: the question is "does something accept connections
// there", never "talk to it". The wait releases the run's CPU slot and is
// clipped to what is left of the budget less the Reserve, and charged in
// full, its grace past the timeout (waitGrace) included.
func hostDial(ctx context.Context, m api.Module, stack []uint64) {
	c := callFrom(ctx, "gate.dial")
	addr, ok := name(m, "gate.dial", "addr", api.DecodeU32(stack[0]), api.DecodeU32(stack[1]))
	timeout := time.Duration(api.DecodeI32(stack[2])) * time.Millisecond
	if ok {
		stack[0] = api.EncodeI32(c.dial(ctx, addr, timeout))
	} else {
		stack[0] = api.EncodeI32(StatusBadRequest)
	}
	c.Check(ctx, "gate.dial")
}

func (c *Call) dial(ctx context.Context, addr string, timeout time.Duration) int32 {
	network, target, verdict := c.Policy.CheckDial(addr)
	switch verdict {
	case grants.Malformed:
		return StatusBadRequest
	case grants.Denied:
		return c.deny("dial", addr)
	}
	limit := c.waitLimit("gate.dial")
	if limit <= 0 {
		return StatusTimedOut
	}
	if timeout <= 0 || timeout > limit {
		timeout = limit
	}
	var (
		status int32
		err    error
	)
	c.wait(ctx, "gate.dial", true, timeout+c.waitGrace(), func(ctx context.Context) {
		ctx, cancel := c.waitContext(ctx, timeout)
		defer cancel()
		var conn net.Conn
		conn, err = c.Net.dialContext(ctx, network, target)
		if err == nil {
			conn.Close()
			status = StatusOK
			return
		}
		status = dialStatus(err)
		if status == StatusUnreachable && timedOut(ctx) {
			// A measured wait ends by cancellation, which the dialer
			// reports as such: it is this wait's timeout.
			status = StatusTimedOut
		}
		c.observe(dialFailure(status, err))
		if status == StatusUnreachable {
			c.note("dial " + addr + ": " + err.Error())
		}
	})
	if status == StatusLimit {
		// The host had no socket to give, which says nothing about the
		// service, and v1 has no code for it: a probe would read any "no"
		// as unavailable. So the run ends as an error, which the
		// registry's grace covers, never as a wrong answer.
		c.interrupt("gate.dial", err)
	}
	return status
}

// dialStatus maps a dial error to the ABI's codes. Permission denied on a
// unix socket (the docker.sock case) and routing failures are "unreachable":
// from where the tool runs, the service cannot be reached. A host out of
// sockets (its bound across probes, or descriptors) is StatusLimit: it
// tells nothing about the peer.
func dialStatus(err error) int32 {
	var dnsErr *net.DNSError
	switch {
	case outOfSockets(err):
		return StatusLimit
	case errors.Is(err, syscall.ECONNREFUSED), errors.Is(err, syscall.ENOENT):
		return StatusRefused
	case errors.As(err, &dnsErr):
		return StatusUnreachable
	case errors.Is(err, context.DeadlineExceeded), isTimeout(err):
		return StatusTimedOut
	default:
		return StatusUnreachable
	}
}

func isTimeout(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}
