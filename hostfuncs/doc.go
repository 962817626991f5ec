// Package hostfuncs is what a host app configures of the host functions a
// probe may call: the Grants that say what one probe may ask (deny by
// default), a Resolver for an import scheme of the app's own
// (runtime.EngineConfig.WithResolver; gate answers "bin:", "py:" and
// "lib:" itself), and what a run leaves behind besides its answer
// (LogEntry, Denial), as runtime.Result carries them.
//
// The host functions themselves, the "gate" module of docs/ABI.md and
// gate's own WASI, are gate's own (internal/host), run by the engine
// (package runtime). Nothing here imports a WebAssembly runtime, so a
// program that only configures grants does not link one.
package hostfuncs
