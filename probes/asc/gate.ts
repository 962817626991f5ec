// gate.ts is the AssemblyScript SDK for gate probes: the host functions of
// the probe ABI (docs/ABI.md), as probes/include/gate.h declares them for C,
// with AssemblyScript strings in and out. Import it from a probe:
//
//   import * as gate from "./gate";
//
//   export function probe(): i32 {
//     if (gate.envLength("DATABASE_URL") > 0) return gate.AVAILABLE;
//     gate.reason("DATABASE_URL is not set");
//     return gate.UNAVAILABLE;
//   }
//
// and build it with the AssemblyScript compiler (probes/asc/package.json
// pins it; npm ci --prefix probes/asc installs it):
//
//   probes/asc/node_modules/.bin/asc probe.ts --runtime stub -Oz -o probe.wasm
//
// Strings cross to the host as UTF-8 and come back from it as UTF-8. A
// failed assert or an uncaught throw calls env.abort, which gate answers:
// the run is an error whose reason reads "abort: MESSAGE at FILE:LINE:COL".

// Probe results, returned from probe(): gate.h's GATE_AVAILABLE,
// GATE_UNAVAILABLE and GATE_ERROR. ERROR is the probe's own failure (its
// config is wrong, say): the run is an error, with the probe's reason.
export const AVAILABLE: i32 = 0;
export const UNAVAILABLE: i32 = 1;
export const ERROR: i32 = 2;

// Host function statuses. Negative means no; several functions share a
// number with a meaning of their own (-1 is "not set" from env and "not
// found" from importSpec).
export const OK: i32 = 0;
export const NOT_SET: i32 = -1;
export const NOT_FOUND: i32 = -1;
export const DENIED: i32 = -2;
export const REFUSED: i32 = -3;
export const TIMEOUT: i32 = -4;
export const UNREACHABLE: i32 = -5;
export const BAD_ADDRESS: i32 = -6;
export const UNKNOWN_SCHEME: i32 = -6;
export const LIMIT: i32 = -7;
export const TLS_FAILED: i32 = -8;
export const CLOSED: i32 = -9;
export const BAD_HANDLE: i32 = -10;

// connect's flags: INSECURE skips TLS verification (needs an insecure grant).
export const INSECURE: i32 = 1;

// log's levels.
export const LOG_DEBUG: i32 = 0;
export const LOG_INFO: i32 = 1;
export const LOG_WARN: i32 = 2;
export const LOG_ERROR: i32 = 3;

// The gate module's functions, as docs/ABI.md lists them: (pointer,
// length) pairs in the probe's memory.

// @ts-ignore: decorator
@external("gate", "env")
declare function gate_env(name_ptr: usize, name_len: i32, buf_ptr: usize, buf_cap: i32): i32;
// @ts-ignore: decorator
@external("gate", "dial")
declare function gate_dial(addr_ptr: usize, addr_len: i32, timeout_ms: i32): i32;
// @ts-ignore: decorator
@external("gate", "import")
declare function gate_import(spec_ptr: usize, spec_len: i32): i32;
// @ts-ignore: decorator
@external("gate", "config")
declare function gate_config(key_ptr: usize, key_len: i32, buf_ptr: usize, buf_cap: i32): i32;
// @ts-ignore: decorator
@external("gate", "reason")
declare function gate_reason(ptr: usize, len: i32): void;
// @ts-ignore: decorator
@external("gate", "log")
declare function gate_log(level: i32, ptr: usize, len: i32): void;
// ABI version 2: streams.
// @ts-ignore: decorator
@external("gate", "connect")
declare function gate_connect(addr_ptr: usize, addr_len: i32, flags: i32, timeout_ms: i32): i32;
// @ts-ignore: decorator
@external("gate", "send")
declare function gate_send(handle: i32, ptr: usize, len: i32): i32;
// @ts-ignore: decorator
@external("gate", "recv")
declare function gate_recv(handle: i32, buf_ptr: usize, buf_cap: i32, timeout_ms: i32): i32;
// @ts-ignore: decorator
@external("gate", "close")
declare function gate_close(handle: i32): i32;
// @ts-ignore: decorator
@external("gate", "last_error")
declare function gate_last_error(buf_ptr: usize, buf_cap: i32): i32;

// utf8 is s as the host reads strings: UTF-8, without a terminating NUL.
function utf8(s: string): ArrayBuffer {
  return String.UTF8.encode(s, false);
}

// Reads a value the host answers like gate.env: its length first, then
// the bytes. null for a negative status (not set, denied, ...).
function value(ask: (name_ptr: usize, name_len: i32, buf_ptr: usize, buf_cap: i32) => i32, name: string): string | null {
  const n = utf8(name);
  const len = ask(changetype<usize>(n), n.byteLength, 0, 0);
  if (len < 0) return null;
  const buf = new ArrayBuffer(len);
  const got = ask(changetype<usize>(n), n.byteLength, changetype<usize>(buf), len);
  if (got < 0) return null;
  return String.UTF8.decodeUnsafe(changetype<usize>(buf), <usize>min(got, len));
}

// envLength is the length of the environment variable name: >= 0 set (0
// set but empty), NOT_SET, or DENIED (the host has recorded why).
export function envLength(name: string): i32 {
  const n = utf8(name);
  return gate_env(changetype<usize>(n), n.byteLength, 0, 0);
}

// env is the value of the environment variable name, or null when it is
// not set or not granted.
export function env(name: string): string | null {
  return value(gate_env, name);
}

// config is the value of the probe's config key, or null when it is
// missing.
export function config(key: string): string | null {
  return value(gate_config, key);
}

// reason sets the reason of the probe's answer (the host keeps 1 KiB).
export function reason(msg: string): void {
  const b = utf8(msg);
  gate_reason(changetype<usize>(b), b.byteLength);
}

// log leaves a line at level (LOG_DEBUG ... LOG_ERROR) with the run.
export function log(level: i32, msg: string): void {
  const b = utf8(msg);
  gate_log(level, changetype<usize>(b), b.byteLength);
}

// dial connects to addr ("host:port" or "unix:/path") and closes at once:
// OK, DENIED, REFUSED, TIMEOUT, UNREACHABLE or BAD_ADDRESS. A timeout of 0
// is as long as the budget allows.
export function dial(addr: string, timeoutMs: i32 = 0): i32 {
  const b = utf8(addr);
  return gate_dial(changetype<usize>(b), b.byteLength, timeoutMs);
}

// importSpec asks whether a dependency can be imported ("bin:docker",
// "py:psycopg2", "lib:libpq.so.5"): OK, NOT_FOUND, DENIED or
// UNKNOWN_SCHEME. (import is a keyword.)
export function importSpec(spec: string): i32 {
  const b = utf8(spec);
  return gate_import(changetype<usize>(b), b.byteLength);
}

// connect opens a stream (ABI v2): a handle > 0, or DENIED, REFUSED,
// TIMEOUT, UNREACHABLE, BAD_ADDRESS, LIMIT or TLS_FAILED.
export function connect(addr: string, flags: i32 = 0, timeoutMs: i32 = 0): i32 {
  const b = utf8(addr);
  return gate_connect(changetype<usize>(b), b.byteLength, flags, timeoutMs);
}

// send writes data, "${secret:NAME}" placeholders and all (ABI v2): its
// length, or NOT_SET, DENIED, TIMEOUT, LIMIT, CLOSED or BAD_HANDLE.
export function send(handle: i32, data: string): i32 {
  const b = utf8(data);
  return gate_send(handle, changetype<usize>(b), b.byteLength);
}

// recv reads into buf (ABI v2): the bytes read (> 0), 0 at the end of the
// stream, or TIMEOUT, LIMIT, CLOSED or BAD_HANDLE.
export function recv(handle: i32, buf: Uint8Array, timeoutMs: i32 = 0): i32 {
  return gate_recv(handle, buf.dataStart, buf.byteLength, timeoutMs);
}

// close closes a stream: OK or BAD_HANDLE.
export function close(handle: i32): i32 {
  return gate_close(handle);
}

// lastError is the host's words for the run's last failed call (ABI v2),
// or null when none has failed.
export function lastError(): string | null {
  const buf = new ArrayBuffer(512);
  const n = gate_last_error(changetype<usize>(buf), buf.byteLength);
  if (n < 0) return null;
  return String.UTF8.decodeUnsafe(changetype<usize>(buf), <usize>min(n, buf.byteLength));
}
