package host

import (
	"context"
	"fmt"
	"unicode/utf16"

	"github.com/tetratelabs/wazero/api"

	"github.com/gate-dev/gate/internal/safetext"
)

// EnvModuleName is the import module of env.abort, which AssemblyScript's
// compiler makes every module import unless it is built with --use abort=.
const EnvModuleName = "env"

// EnvFuncs lists the env module: abort alone.
var EnvFuncs = []Func{
	{Name: "abort", Params: []api.ValueType{i32, i32, i32, i32}, fn: hostAbort,
		paramNames: []string{"message", "fileName", "lineNumber", "columnNumber"},
		Doc:        "abort(message_ptr, file_ptr, line, column): AssemblyScript's failed assert or uncaught throw: the run traps, an error that reads \"abort: MESSAGE at FILE:LINE:COLUMN\""},
}

// Bounds on what an abort's strings keep: the message as much as a reason
// keeps, the file name as much as a name.
const (
	maxAbortMessage = MaxReason
	maxAbortFile    = 256
)

// AbortError is how a probe's env.abort ends its run: a trap that carries
// what AssemblyScript's runtime passed, an assertion's or a throw's message
// and where it was in the source. Message and File are read from the
// probe's memory, bounded and cleaned for a terminal or a model (safetext),
// and "" when the probe passed null; a pointer that is no string in the
// probe's memory reads as a placeholder that says so.
type AbortError struct {
	Message, File string
	Line, Column  uint32
}

func (e *AbortError) Error() string {
	s := "abort"
	if e.Message != "" {
		s += ": " + e.Message
	}
	if e.File != "" {
		s += fmt.Sprintf(" at %s:%d:%d", e.File, e.Line, e.Column)
	}
	return s
}

// hostAbort traps, always: an AssemblyScript probe calls it where it
// cannot go on, and its runtime's own code after the call is unreachable.
func hostAbort(_ context.Context, m api.Module, stack []uint64) {
	mem := memoryOf(m)
	panic(&AbortError{
		Message: asString(mem, api.DecodeU32(stack[0]), maxAbortMessage),
		File:    asString(mem, api.DecodeU32(stack[1]), maxAbortFile),
		Line:    api.DecodeU32(stack[2]),
		Column:  api.DecodeU32(stack[3]),
	})
}

// asString reads the AssemblyScript string at ptr: UTF-16LE, its length in
// bytes the u32 at ptr-4 (the runtime's object header). At most max bytes of
// its UTF-8 are kept, cleaned by safetext's rule; 0 (null) is "". A pointer
// or length outside memory, or an odd length, is never read past: the
// result says the string could not be read.
func asString(mem api.Memory, ptr uint32, max int) string {
	if ptr == 0 {
		return ""
	}
	unreadable := fmt.Sprintf("(no string at %#x)", ptr)
	if mem == nil || ptr < 4 {
		return unreadable
	}
	n, ok := mem.ReadUint32Le(ptr - 4)
	if !ok || n%2 != 0 {
		return unreadable
	}
	b, ok := mem.Read(ptr, n)
	if !ok {
		return unreadable
	}
	// Each UTF-16 unit is at most 3 bytes of UTF-8, and at least one: read
	// no more units than max bytes can hold.
	units := make([]uint16, min(len(b)/2, max))
	for i := range units {
		units[i] = le.Uint16(b[2*i:])
	}
	return clipUTF8([]byte(safetext.Clean(string(utf16.Decode(units)), false)), max)
}
