package host

import (
	"context"
	"errors"
	"github.com/gate-dev/gate/internal/resolve"

	"github.com/tetratelabs/wazero/api"

	"github.com/gate-dev/gate/hostfuncs"
	"github.com/gate-dev/gate/internal/grants"
)

// hostImport is gate.import(spec_ptr, spec_len) -> i32. Resolution touches
// the file system (and, once per Python, a process), so it runs with the
// run's CPU slot released, like a dial. It answers by the deadline whatever
// the resolver does: Resolvers.Resolve stops waiting for a resolver that
// ignores ctx, and the probe is told "not found", with a note saying why.
func hostImport(ctx context.Context, m api.Module, stack []uint64) {
	c := callFrom(ctx, "gate.import")
	spec, ok := name(m, "gate.import", "spec", api.DecodeU32(stack[0]), api.DecodeU32(stack[1]))
	if ok {
		stack[0] = api.EncodeI32(c.importSpec(ctx, spec))
	} else {
		stack[0] = api.EncodeI32(StatusBadRequest)
	}
	c.Check(ctx, "gate.import")
}

func (c *Call) importSpec(ctx context.Context, spec string) int32 {
	// A malformed spec ("..", an unclean path) is refused before the grants
	// see it, so that no pattern has to be written to survive one.
	if _, _, err := grants.SplitSpec(spec); err != nil {
		return StatusBadRequest
	}
	if !c.Policy.AllowImport(spec) {
		return c.deny("import", spec)
	}
	if c.Resolvers == nil {
		return StatusBadRequest
	}
	var found bool
	var err error
	limit := max(c.waitLimit("gate.import"), 0)
	c.wait(ctx, "gate.import", true, limit+c.waitGrace(), func(ctx context.Context) {
		rctx, cancel := c.waitContext(ctx, limit)
		defer cancel()
		found, err = c.Resolvers.Resolve(rctx, spec)
	})
	switch {
	case errors.Is(err, resolve.ErrUnknownScheme), errors.Is(err, hostfuncs.ErrBadSpec):
		return StatusBadRequest
	case err != nil:
		// The question could not be answered (no Python, say): for the
		// probe that is "not importable", and the user sees why.
		c.note(err.Error())
		c.observe(FailNotFound)
		return StatusNotFound
	case found:
		return StatusOK
	default:
		c.observe(FailNotFound)
		return StatusNotFound
	}
}
