//go:build wasip1

package sdk

import (
	"time"
	"unsafe"
)

// The host imports. go:wasmimport only takes numbers and unsafe.Pointer,
// so strings go as (pointer, length); go:noescape lets buffers stay on the
// stack, which is safe because the host is done with them on return.

//go:wasmimport gate env
//go:noescape
func gateEnv(name unsafe.Pointer, nameLen uint32, buf unsafe.Pointer, bufCap uint32) int32

//go:wasmimport gate dial
//go:noescape
func gateDial(addr unsafe.Pointer, addrLen uint32, timeoutMS int32) int32

//go:wasmimport gate import
//go:noescape
func gateImport(spec unsafe.Pointer, specLen uint32) int32

//go:wasmimport gate config
//go:noescape
func gateConfig(key unsafe.Pointer, keyLen uint32, buf unsafe.Pointer, bufCap uint32) int32

//go:wasmimport gate reason
//go:noescape
func gateReason(msg unsafe.Pointer, msgLen uint32)

//go:wasmimport gate log
//go:noescape
func gateLog(level int32, msg unsafe.Pointer, msgLen uint32)

// str passes s as a (pointer, length) pair.
func str(s string) (unsafe.Pointer, uint32) {
	return unsafe.Pointer(unsafe.StringData(s)), uint32(len(s))
}

// lookup runs env or config: the host returns the value's full length and
// copies what fits, so a value longer than the buffer is asked for again
// with a buffer of exactly its size. It returns the host's status when it
// is negative.
func lookup(f func(unsafe.Pointer, uint32, unsafe.Pointer, uint32) int32, name string) (string, int32) {
	var small [256]byte
	buf := small[:]
	p, n := str(name)
	for {
		got := f(p, n, unsafe.Pointer(&buf[0]), uint32(len(buf)))
		if got < 0 {
			return "", got
		}
		if int(got) <= len(buf) {
			return string(buf[:got]), 0
		}
		buf = make([]byte, got)
	}
}

// Env returns the value of the environment variable name, which may be
// empty. It fails with ErrNotSet or ErrDenied.
func Env(name string) (string, error) {
	v, status := lookup(gateEnv, name)
	if status < 0 {
		return "", statusError(status, ErrNotSet, ErrDenied)
	}
	return v, nil
}

// LookupEnv returns the value of the environment variable name and whether
// the probe could read it; unset and denied both give false.
func LookupEnv(name string) (string, bool) {
	v, err := Env(name)
	return v, err == nil
}

// Dial connects to addr ("host:port", "[::1]:port" or "unix:/path") and
// closes the connection at once. timeout <= 0 means as long as the budget
// allows; the host clips any timeout to what is left of the budget, and
// rounds nothing down to "forever": a positive timeout under 1 ms is 1 ms.
// It fails with ErrDenied, ErrRefused, ErrTimeout, ErrUnreachable or
// ErrBadAddress.
func Dial(addr string, timeout time.Duration) error {
	p, n := str(addr)
	if status := gateDial(p, n, millis(timeout)); status != 0 {
		return statusError(status, ErrDenied, ErrRefused, ErrTimeout, ErrUnreachable, ErrBadAddress)
	}
	return nil
}

// Import reports whether spec can be imported: "bin:docker" (a program),
// "py:psycopg2" (a Python module), "lib:libpq.so.5" (a shared library) or
// a scheme the host registered. It fails with ErrNotFound, ErrDenied or
// ErrUnknownScheme.
func Import(spec string) error {
	p, n := str(spec)
	if status := gateImport(p, n); status != 0 {
		return statusError(status, ErrNotFound, ErrDenied, ErrUnknownScheme)
	}
	return nil
}

// Config returns the probe's config value for key from the manifest, and
// whether there is one. Config is never denied.
func Config(key string) (string, bool) {
	v, status := lookup(gateConfig, key)
	return v, status >= 0
}

// Reason sets the human-readable reason shown when the probe is
// unavailable; a later call replaces it. The host keeps 1 KiB of it and
// makes it valid UTF-8. It takes a string rather than a format because fmt
// would add hundreds of kilobytes to the probe.
func Reason(msg string) {
	p, n := str(msg)
	gateReason(p, n)
}

// Log writes a log line at level. The host bounds the length and
// rate-limits, so don't count on every line arriving.
func Log(level Level, msg string) {
	p, n := str(msg)
	gateLog(int32(level), p, n)
}
