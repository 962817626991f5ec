// Package hostfuncs is what a host app configures of the host functions a
// probe may call: the Grants that say what one probe may ask (deny by
// default), the Resolvers that answer gate.import for "bin:", "py:", "lib:"
// and schemes the app registers, and what a run leaves behind besides its
// answer (LogEntry, Denial), as runtime.Result carries them.
//
// The host functions themselves, the "gate" module of docs/ABI.md and
// gate's own WASI, are package internal/host, which the engine (package
// runtime) runs; internal/grants compiles the Grants into the checks they
// make. Nothing here imports a WebAssembly runtime, so a program that only
// reads or checks manifests (package internal/manifest, gate's own) does not link one.
package hostfuncs
