package host

import (
	"context"

	"github.com/tetratelabs/wazero/api"
)

// hostLastError is gate.last_error(buf_ptr, buf_cap) -> i32: like env, the
// host's words for why the run's last failed v2 call failed (see
// setLastError); StatusNotFound when none has.
func hostLastError(ctx context.Context, m api.Module, stack []uint64) {
	c := callFrom(ctx, "gate.last_error")
	buf := view(m, "gate.last_error", "buf", api.DecodeU32(stack[0]), api.DecodeU32(stack[1]))
	if n := c.net; n != nil && n.errSet {
		stack[0] = api.EncodeI32(copyOut(buf, n.lastErr))
	} else {
		stack[0] = api.EncodeI32(StatusNotFound)
	}
	c.Check(ctx, "gate.last_error")
}

// LastError returns the host's words for the run's last failed v2 call,
// and whether one failed.
func (c *Call) LastError() (string, bool) {
	if c.net == nil {
		return "", false
	}
	return c.net.lastErr, c.net.errSet
}
