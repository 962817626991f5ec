// Package probes ships gate's standard probes and parses their shorthand.
//
// A probe is a small WebAssembly module that tells gate whether an agent
// tool can run (see probes/include/gate.h for the ABI). The standard probes
// cover what most tools need, so that most manifests never ship a module
// of their own. Three ask the host (ABI v1):
//
//   - env: every environment variable in config "vars" is set and non-empty;
//   - tcp: config "addr" ("host:port" or "unix:/path") accepts a connection
//     within config "timeout_ms" (default: the rest of the budget);
//   - import: every spec in config "specs" ("bin:docker", "py:psycopg2",
//     "lib:libpq.so.5", ...) is importable.
//
// The others ask a service in its own protocol (ABI v2): http (an
// http:// or https:// URL: status, headers, body), redis (PING, AUTH from
// a secret), postgres (the startup handshake, pg_isready's answers),
// docker (/_ping on the socket), and so on. Kinds lists them all, Kind.Form
// and Kind.Summary say how each is written and what it checks, and
// probes/README.md lists their config, options and reasons.
//
// Each kind is one entry in the table in kinds.go (its name, help text,
// example, and how its shorthand is parsed, written back and granted)
// and one C file, src/NAME.c, which build.sh builds into the committed
// NAME.wasm (1.4 to 5 KB each, one page of memory, importing nothing but
// the gate host module), embedded here. After changing src/ or include/,
// run `go generate ./internal/probes`; TestCommittedWasmIsFresh fails
// until you do.
//
// Probe authors: write C against probes/include/gate.h, or Go against package
// github.com/gate-dev/gate/probes/sdk (much bigger and slower to load).
package probes

import (
	"embed"
)

//go:generate sh build.sh

// modules holds the standard probes' modules, built by build.sh from
// src/*.c; a kind's module is NAME.wasm.
//
//go:embed *.wasm
var modules embed.FS

// Wasm returns the embedded module of the standard probe k, and false if
// there is no such probe. It returns a fresh copy (1.4 to 5 KB) so that no
// caller can change what another one runs.
func Wasm(k Kind) ([]byte, bool) {
	if lookup(k) == nil {
		return nil, false
	}
	// ReadFile returns a copy of the embedded bytes.
	b, err := modules.ReadFile(string(k) + ".wasm")
	if err != nil {
		return nil, false
	}
	return b, true
}
