package host

import (
	"fmt"
	"reflect"

	"github.com/tetratelabs/wazero/api"
)

// MemoryError is how a host function refuses a (pointer, length) pair that
// does not lie inside the probe's memory: the call traps with it, and the
// probe's outcome is an error naming the function and the range. A probe
// that passes wild pointers has a bug; answering "not set" would hide it.
type MemoryError struct {
	Func     string // e.g. "gate.env"
	Arg      string // e.g. "name"
	Ptr, Len uint32
	Size     uint32 // the memory's size in bytes; 0 when the probe has none
}

func (e *MemoryError) Error() string {
	if e.Size == 0 {
		return fmt.Sprintf("%s: %s (ptr=%#x, len=%d): the probe has no memory", e.Func, e.Arg, e.Ptr, e.Len)
	}
	return fmt.Sprintf("%s: %s (ptr=%#x, len=%d) is outside the probe's memory of %d bytes", e.Func, e.Arg, e.Ptr, e.Len, e.Size)
}

// memoryOf returns the module's memory or nil. wazero returns a typed nil
// for a module without memory, which would crash on first use.
func memoryOf(m api.Module) api.Memory {
	mem := m.Memory()
	if mem == nil {
		return nil
	}
	if v := reflect.ValueOf(mem); v.Kind() == reflect.Pointer && v.IsNil() {
		return nil
	}
	return mem
}

// view returns the guest bytes [ptr, ptr+n) without copying, or panics with
// a *MemoryError, which wazero turns into a trap of the calling probe.
// A zero length is valid at any pointer, as in C.
func view(m api.Module, fn, arg string, ptr, n uint32) []byte {
	if n == 0 {
		return nil
	}
	mem := memoryOf(m)
	if mem == nil {
		panic(&MemoryError{Func: fn, Arg: arg, Ptr: ptr, Len: n})
	}
	b, ok := mem.Read(ptr, n)
	if !ok {
		panic(&MemoryError{Func: fn, Arg: arg, Ptr: ptr, Len: n, Size: mem.Size()})
	}
	return b
}

// name reads a short string argument (an env name, a config key, an
// address, a spec). The range must lie in memory; a string over MaxName
// bytes is checked but not copied, and ok is false: no real name is that
// long, and copying megabytes per call would let a probe churn the host's heap.
func name(m api.Module, fn, arg string, ptr, n uint32) (s string, ok bool) {
	b := view(m, fn, arg, ptr, n)
	if len(b) > MaxName {
		return "", false
	}
	return string(b), true
}
