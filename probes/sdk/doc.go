// Package sdk is the Go SDK for writing gate probes.
//
// A probe is a small WebAssembly module that tells gate whether an agent
// tool can run. gate runs it in a sandbox under a 100 ms budget; the probe
// asks the host questions (Env, Dial, Import, Config) and answers
// Available or Unavailable, with a Reason when it says no. Since ABI
// version 2 it can also talk to the service: Connect opens a stream (an
// io.Reader and io.Writer), HTTP makes one request, and both tell TLS
// facts. This package wraps the host's "gate" imports; see
// probes/include/gate.h for the same ABI in C and docs/ABI.md for the
// contract. A probe that calls any of the version-2 functions needs a
// version-2 host.
//
// Its functions (Env, Dial, Import, Reason, ...) build for GOOS=wasip1
// GOARCH=wasm only: plain go doc shows the errors, levels and plain types
// and none of them. Ask for that target:
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
// returns Available (0) or Unavailable (1), or Failed (2) when the probe
// itself cannot tell (its config is wrong, say), with a Reason; Failed, any
// other value, a panic or a trap is an error.
//
// Denials: when a probe asks for something its grants don't allow, the
// host answers ErrDenied and records its own reason naming the probe and
// the denied name, which it uses if the probe ends Unavailable without a
// Reason. So on ErrDenied a probe can just return Unavailable.
//
// # Talking to services (ABI v2)
//
// A protocol probe connects, writes, reads and decides:
//
//	c, err := sdk.Connect("127.0.0.1:6379", sdk.WithTimeout(50*time.Millisecond))
//	if err != nil { ... }                // errors.Is(err, sdk.ErrRefused), ...
//	defer c.Close()
//	c.WriteString("AUTH " + sdk.Secret("REDIS_PASSWORD") + "\r\nPING\r\n")
//	n, err := c.Read(buf)                // io.EOF when the peer closed
//
// or asks over HTTP:
//
//	resp, err := sdk.HTTP(sdk.Request{
//		URL:    "https://api.example.com/v1/models",
//		Header: map[string]string{"Authorization": "Bearer " + sdk.Secret("API_KEY")},
//	})
//	if err == nil && resp.Status == 401 { ... }
//
// Secrets never enter the probe: Secret("NAME") is the placeholder
// "${secret:NAME}", which the host replaces with the value of a variable
// the probe's secrets grant names on the way out, to a destination the
// grant binds it to (secrets = { REDIS_PASSWORD = ["127.0.0.1:6379"] };
// a write or request that would carry it anywhere else fails with
// ErrDenied before anything is sent), and puts back in place of the value
// in what that destination sends back. So a probe can send a password it
// cannot read, and only where the manifest says.
//
// Errors of the version-2 calls are *CallError values: the status as one
// of the Err* values (errors.Is(err, sdk.ErrTLS)) and the host's words for
// it (gate.last_error), e.g. "TLS failed (x509: certificate signed by
// unknown authority)".
//
// Bounds, per run, whatever the probe or its peers do: 8 handles (streams
// and responses) open at once and 32 opened in all (ErrLimit past
// either); 64 KiB written (each placeholder counted as 4 KiB, 12 KiB in a
// URL's query: the most its value can put on the wire) and 1 MiB read,
// response heads and bodies included; a request of at most 64 KiB with a
// body of at most 16 KiB; the first 64 KiB of a response body kept. Every wait ends by the budget, less a reserve for
// the probe to answer.
//
// # What it costs
//
// A Go-built probe carries the Go runtime: it is megabytes, takes most of
// a second to compile (gate caches the compiled code on disk after the
// first load), tens of milliseconds to load from that cache in a new
// process, and milliseconds and megabytes for each fresh instance. A probe
// written in C against gate.h (or in WAT) is a few hundred bytes, compiles
// in well under a millisecond and runs in a fresh instance in microseconds
// (docs/BENCHMARKS.md, "Loading a probe module" and "Probes in four
// languages, and the CLI habits"). So prefer the standard env, tcp and
// import probes, or C, for anything on a hot path, and use Go where its
// libraries are worth the cost. Importing fmt adds hundreds of kilobytes,
// which is why Reason takes a plain string.
//
// Each function here is one host call, a few microseconds, except where
// its doc says more: a failed version-2 call asks gate.last_error too,
// HTTP reads the status and body (three calls), and Env, Config and
// Response.Header ask again when the value is longer than their first
// buffer. The host calls' own waits are the probe's real cost, and the
// budget bounds them: a wait (connecting, a peer's answer, an HTTP exchange) costs
// tens of microseconds beyond the network, for the execution slot the run
// gives back and takes again; once a run has sent a secret to a stream's address,
// a read there that gets less than 12 KiB first waits for the peer's 5 ms
// of quiet (docs/ABI.md, "Secrets", says why).
// docs/BENCHMARKS.md has the figures against Go doing the same.
//
// Everything but the errors, the constants and the plain types (Request,
// TLSState, Secret) is only built for GOOS=wasip1; those are plain Go, so
// that what the SDK writes and reads around the host calls is tested on
// the host.
package sdk
