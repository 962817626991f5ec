// Package sdk is the Go SDK for writing gate probes.
//
// A probe is a small WebAssembly module that tells gate whether an agent
// tool can run. gate runs it in a sandbox under a 100 ms budget; the probe
// asks the host questions (Env, Dial, Import, Config) and answers
// Available or Unavailable, with a Reason when it says no. This package
// wraps the host's "gate" imports (probe ABI version 1; see
// probes/include/gate.h for the same ABI in C).
//
// Its functions (Env, Dial, Import, Reason, ...) build for GOOS=wasip1
// GOARCH=wasm only: plain go doc shows the errors and levels and none of
// them. Ask for that target:
//
//	GOOS=wasip1 GOARCH=wasm go doc ./probes/sdk
//	GOOS=wasip1 GOARCH=wasm go doc ./probes/sdk Dial
//
// A complete probe (see also the example directory):
//
//	package main
//
//	import "github.com/gate-dev/gate/probes/sdk"
//
//	func main() {}
//
//	//go:wasmexport probe
//	func probe() int32 {
//		if _, ok := sdk.LookupEnv("DATABASE_URL"); !ok {
//			sdk.Reason("DATABASE_URL is not set")
//			return sdk.Unavailable
//		}
//		return sdk.Available
//	}
//
// Build it as a WASI reactor:
//
//	GOOS=wasip1 GOARCH=wasm go build -buildmode=c-shared -o probe.wasm .
//
// main is never called; gate calls _initialize and then probe. probe
// returns Available (0) or Unavailable (1); any other value, a panic or a
// trap is an error.
//
// Denials: when a probe asks for something its grants don't allow, the
// host answers ErrDenied and records its own reason naming the probe and
// the denied name, which it uses if the probe ends Unavailable without a
// Reason. So on ErrDenied a probe can just return Unavailable.
//
// # What it costs
//
// A Go-built probe carries the Go runtime: it is about 2 MB, takes 0.5-0.9 s
// to compile (gate caches the compiled code on disk after the first load),
// 70-90 ms to load from that cache in a new process, and about 3 ms and
// 3.6 MiB for each fresh instance. A probe written in C against gate.h (or
// in WAT) is a few hundred bytes, compiles in under 1 ms and runs in a
// fresh instance in about 15 µs. So prefer the standard env, tcp and import
// probes, or C, for anything on a hot path, and use Go where its libraries
// are worth the cost. Importing fmt adds about 300 KB, which is why Reason
// takes a plain string.
//
// Everything but the errors and constants is only built for GOOS=wasip1.
package sdk
