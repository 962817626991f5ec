// Package host is the host side of the probe ABI: the "gate" host module
// whose functions a probe imports (version 1: env, dial, import, config,
// reason, log; version 2: connect, send, recv, close, http and its readers,
// tls, last_error), gate's own WASI (wasi_snapshot_preview1, with nothing
// of the host behind it and every call bounded by the budget), env.abort
// (AssemblyScript's; Imports lists all three modules), the state
// of one run (Call), the secrets a run may send and the redaction of what
// comes back, and the sockets of all runs together.
//
// The functions read their per-run state (the compiled grants, the config,
// the deadline) from the Call in the context, write what the probe leaves
// behind (reason, logs, denials) into it, honour the deadline themselves
// (wazero cannot interrupt Go code) and check it again before they return.
// Package runtime is their only user; what a host app configures (the
// grants, the resolvers) is package hostfuncs, and what they decide by
// (the compiled grants) package internal/grants. docs/ABI.md is the
// contract for probe authors.
package host

import (
	"context"
	"fmt"

	"github.com/tetratelabs/wazero/api"
)

// ModuleName is the import module of the probe ABI, every version: version
// 2 only adds functions (see docs/ABI.md).
const ModuleName = "gate"

// Status codes that host functions return to the probe. Negative means no.
const (
	StatusOK          int32 = 0
	StatusNotFound    int32 = -1 // env, config: not set; import: not importable
	StatusDenied      int32 = -2 // not granted to this probe
	StatusRefused     int32 = -3 // dial: connection refused
	StatusTimedOut    int32 = -4 // dial: no answer in time
	StatusUnreachable int32 = -5 // dial: unreachable or name not resolved
	StatusBadRequest  int32 = -6 // dial: bad address; import: unknown scheme or malformed spec
	// ABI v2.
	StatusLimit     int32 = -7  // a per-run bound is reached (open handles, bytes in or out)
	StatusTLS       int32 = -8  // TLS handshake failed or the peer's certificate was not verified
	StatusClosed    int32 = -9  // the peer reset or broke the connection, or spoke broken HTTP
	StatusBadHandle int32 = -10 // not an open handle of this run
)

// Func describes one function of the gate module, for documentation and for
// checking a probe's imports before it runs.
type Func struct {
	Name    string
	Params  []api.ValueType
	Results []api.ValueType
	Doc     string
	// Version is the ABI version that added the function: a module that
	// imports any version-2 function needs a version-2 host.
	Version int
	fn      api.GoModuleFunc
	// paramNames and resultNames name the values in wasm stack traces;
	// nil leaves wazero's defaults.
	paramNames, resultNames []string
}

var i32 = api.ValueTypeI32

// Funcs lists the gate module: the functions of ABI v1, then those that
// version 2 added (streams, HTTP, TLS facts, the host's last error).
var Funcs = []Func{
	{Name: "env", Params: []api.ValueType{i32, i32, i32, i32}, Results: []api.ValueType{i32}, fn: hostEnv,
		Doc: "env(name_ptr, name_len, buf_ptr, buf_cap): >=0 the value's full length, min(len, cap) bytes copied; -1 not set; -2 denied"},
	{Name: "dial", Params: []api.ValueType{i32, i32, i32}, Results: []api.ValueType{i32}, fn: hostDial,
		Doc: "dial(addr_ptr, addr_len, timeout_ms): 0 connected; -2 denied; -3 refused; -4 timed out; -5 unreachable or name not resolved; -6 bad address"},
	{Name: "import", Params: []api.ValueType{i32, i32}, Results: []api.ValueType{i32}, fn: hostImport,
		Doc: "import(spec_ptr, spec_len): 0 importable; -1 not found; -2 denied; -6 unknown scheme"},
	{Name: "config", Params: []api.ValueType{i32, i32, i32, i32}, Results: []api.ValueType{i32}, fn: hostConfig,
		Doc: "config(key_ptr, key_len, buf_ptr, buf_cap): like env, over the probe's config; -1 missing"},
	{Name: "reason", Params: []api.ValueType{i32, i32}, fn: hostReason,
		Doc: "reason(ptr, len): sets the reason (1 KiB kept, made valid UTF-8)"},
	{Name: "log", Params: []api.ValueType{i32, i32, i32}, fn: hostLog,
		Doc: "log(level, ptr, len): 0 debug, 1 info, 2 warn, 3 error; bounded"},

	{Name: "connect", Version: 2, Params: []api.ValueType{i32, i32, i32, i32}, Results: []api.ValueType{i32}, fn: hostConnect,
		Doc: "connect(addr_ptr, addr_len, flags, timeout_ms): > 0 a stream handle; -2 denied; -3 refused; -4 timed out; -5 unreachable; -6 bad address; -7 too many handles; -8 TLS failed"},
	{Name: "send", Version: 2, Params: []api.ValueType{i32, i32, i32}, Results: []api.ValueType{i32}, fn: hostSend,
		Doc: "send(handle, ptr, len): len, all sent (${secret:NAME} substituted); -1 a secret is not set; -2 a secret is not granted; -4 timed out; -7 bytes-out bound; -9 closed; -10 bad handle"},
	{Name: "recv", Version: 2, Params: []api.ValueType{i32, i32, i32, i32}, Results: []api.ValueType{i32}, fn: hostRecv,
		Doc: "recv(handle, buf_ptr, buf_cap, timeout_ms): > 0 bytes received (secrets redacted); 0 the peer closed; -4 nothing in time; -7 bytes-in bound; -9 reset; -10 bad handle"},
	{Name: "close", Version: 2, Params: []api.ValueType{i32}, Results: []api.ValueType{i32}, fn: hostClose,
		Doc: "close(handle): 0 closed; -10 bad handle"},
	{Name: "http", Version: 2, Params: []api.ValueType{i32, i32, i32, i32}, Results: []api.ValueType{i32}, fn: hostHTTP,
		Doc: "http(req_ptr, req_len, flags, timeout_ms): > 0 a response handle; -1 a secret is not set; -2 denied; -3 refused; -4 timed out; -5 unreachable; -6 bad request; -7 too many handles; -8 TLS failed; -9 reset or broken HTTP"},
	{Name: "http_status", Version: 2, Params: []api.ValueType{i32}, Results: []api.ValueType{i32}, fn: hostHTTPStatus,
		Doc: "http_status(handle): the response's status code; -10 bad handle"},
	{Name: "http_header", Version: 2, Params: []api.ValueType{i32, i32, i32, i32, i32}, Results: []api.ValueType{i32}, fn: hostHTTPHeader,
		Doc: "http_header(handle, name_ptr, name_len, buf_ptr, buf_cap): like env, over the response's headers (values joined with \", \", secrets redacted); -1 absent; -10 bad handle"},
	{Name: "http_body", Version: 2, Params: []api.ValueType{i32, i32, i32}, Results: []api.ValueType{i32}, fn: hostHTTPBody,
		Doc: "http_body(handle, buf_ptr, buf_cap): like env, over the first 64 KiB of the body (secrets redacted); -10 bad handle"},
	{Name: "tls", Version: 2, Params: []api.ValueType{i32, i32}, Results: []api.ValueType{i32}, fn: hostTLS,
		Doc: "tls(handle, out_ptr): 1 verified, 0 not verified (insecure); writes the leaf certificate's NotAfter and the seconds left until it as two little-endian i64 at out; -1 not TLS; -10 bad handle"},
	{Name: "last_error", Version: 2, Params: []api.ValueType{i32, i32}, Results: []api.ValueType{i32}, fn: hostLastError,
		Doc: "last_error(buf_ptr, buf_cap): like env, the host's words for the run's last failed call, e.g. \"x509: certificate has expired\" (secrets redacted); -1 none"},
}

// callFrom returns the run's Call; a host function reached without one (a
// module instantiated outside the engine) is a host bug, reported as a trap.
func callFrom(ctx context.Context, fn string) *Call {
	if c := CallFrom(ctx); c != nil {
		return c
	}
	panic(fmt.Errorf("%s: no call state: the module was not run by the gate engine", fn))
}
