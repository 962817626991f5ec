package host

import (
	"context"

	"github.com/tetratelabs/wazero/api"
)

// hostEnv is gate.env(name_ptr, name_len, buf_ptr, buf_cap) -> i32.
func hostEnv(ctx context.Context, m api.Module, stack []uint64) {
	c := callFrom(ctx, "gate.env")
	key, ok := name(m, "gate.env", "name", api.DecodeU32(stack[0]), api.DecodeU32(stack[1]))
	buf := view(m, "gate.env", "buf", api.DecodeU32(stack[2]), api.DecodeU32(stack[3]))
	if ok {
		stack[0] = api.EncodeI32(c.env(key, buf))
	} else {
		stack[0] = api.EncodeI32(StatusNotFound)
	}
	c.Check(ctx, "gate.env")
}

func (c *Call) env(name string, buf []byte) int32 {
	if !c.Policy.AllowEnv(name) {
		return c.deny("env", name)
	}
	v, ok := c.lookupEnv(name)
	if !ok {
		c.observe(FailEnvMissing)
		return StatusNotFound
	}
	return copyOut(buf, v)
}

// hostConfig is gate.config(key_ptr, key_len, buf_ptr, buf_cap) -> i32. A
// probe may always read its own config, so it is never denied.
func hostConfig(ctx context.Context, m api.Module, stack []uint64) {
	c := callFrom(ctx, "gate.config")
	key, ok := name(m, "gate.config", "key", api.DecodeU32(stack[0]), api.DecodeU32(stack[1]))
	buf := view(m, "gate.config", "buf", api.DecodeU32(stack[2]), api.DecodeU32(stack[3]))
	v, found := c.Config.Lookup(key)
	if ok && found {
		stack[0] = api.EncodeI32(copyOut(buf, v))
	} else {
		stack[0] = api.EncodeI32(StatusNotFound)
	}
	c.Check(ctx, "gate.config")
}

// copyOut copies what fits of v into buf and returns v's full length, so the
// probe can call again with a buffer that is big enough.
func copyOut(buf []byte, v string) int32 {
	copy(buf, v)
	if len(v) > 1<<30 {
		return 1 << 30 // cannot happen for env or config; keeps the result positive
	}
	return int32(len(v))
}

// hostReason is gate.reason(ptr, len). Only the first MaxReason bytes are
// read, but the whole range must lie in memory: a bad pointer is a bug.
func hostReason(ctx context.Context, m api.Module, stack []uint64) {
	c := callFrom(ctx, "gate.reason")
	b := view(m, "gate.reason", "text", api.DecodeU32(stack[0]), api.DecodeU32(stack[1]))
	c.setReason(b)
	c.Check(ctx, "gate.reason")
}

// hostLog is gate.log(level, ptr, len).
func hostLog(ctx context.Context, m api.Module, stack []uint64) {
	c := callFrom(ctx, "gate.log")
	level := Level(api.DecodeI32(stack[0]))
	b := view(m, "gate.log", "message", api.DecodeU32(stack[1]), api.DecodeU32(stack[2]))
	c.log(level, b)
	c.Check(ctx, "gate.log")
}
