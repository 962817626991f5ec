package host

import (
	"context"

	"github.com/tetratelabs/wazero/api"
	"github.com/tetratelabs/wazero/sys"
)

// args and environ are always empty: a probe learns about its host only
// through the gate module, where its grants apply.
func wasiNothing(wasiCall, []uint64) errno { return errnoSuccess }

func wasiZeroSizes(w wasiCall, s []uint64) errno {
	count, ok1 := w.span(uint32(s[0]), 4)
	size, ok2 := w.span(uint32(s[1]), 4)
	if !ok1 || !ok2 {
		return errnoFault
	}
	le.PutUint32(count, 0)
	le.PutUint32(size, 0)
	return errnoSuccess
}

// hostProcExit is proc_exit(code): it ends the run with the exit code,
// which the engine reads from the *sys.ExitError (a command's answer). It
// does not close the module, as wazero's does: the engine closes every
// instance that did not answer normally itself.
func hostProcExit(ctx context.Context, _ api.Module, stack []uint64) {
	c := callFrom(ctx, "wasi.proc_exit")
	c.Check(ctx, "wasi.proc_exit")
	panic(sys.NewExitError(api.DecodeU32(stack[0])))
}
