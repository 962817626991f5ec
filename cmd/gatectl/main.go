// Command gatectl runs gate from the shell: it writes a first manifest
// for what it finds on this machine, checks which of a manifest's tools
// can run and prints the schema a model would be offered,
// serves those answers over HTTP and as an MCP server, reports which
// skills the model is offered and why the others are not, and runs and
// inspects probes.
//
//	gatectl init
//	gatectl check -m gate.toml
//	gatectl check -m gate.toml --wait 2m db_query
//	gatectl schema -m gate.toml --format anthropic
//	gatectl serve -m gate.toml --addr 127.0.0.1:7311
//	gatectl mcp -m gate.toml
//	gatectl mcp lock -m gate.toml
//	gatectl mcp check -m gate.toml
//	gatectl skills -m gate.toml
//	gatectl skills prompt -m gate.toml
//	gatectl doctor skills -m gate.toml --requirements
//	gatectl probe run env:HOME
//	gatectl probe run ./probes/db.wasm --env DATABASE_URL --dial localhost:5432
//	gatectl probe inspect ./probes/db.wasm
//	gatectl completion bash
//	gatectl version
//	gatectl help probe run
//
// Exit codes: 0 available (or success), 1 unavailable, 2 bad input,
// 3 a probe error.
package main

import (
	"fmt"
	"os"
	"runtime/debug"
	"sync/atomic"

	"github.com/gate-dev/gate/internal/mcpgw"
)

func main() {
	// First, before anything reads a secret: the stdio upstreams gatectl
	// starts run as its user, and must not read its environment.
	if err := mcpgw.ProtectProcess(); err != nil {
		fmt.Fprintf(os.Stderr, "gatectl: cannot keep its environment from the processes it starts (PR_SET_DUMPABLE): %v\n", err)
	}
	oneShotMemory(os.Args[1:], os.Getenv)
	if len(os.Args) > 1 && os.Args[1] == namesCommand {
		// What the completion scripts ask, not a command of the table.
		os.Exit(namesCmd(os.Args[2:], os.Stdout, os.Stderr))
	}
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// oneShotGCPercent and oneShotMemoryLimit are the collector's settings for
// a command that runs once and exits (every command but serve), unless
// GOGC or GOMEMLIMIT is set.
//
// With Go's default (GOGC=100) a large check collects many times on its
// way to an exit that frees everything anyway, and peaks at twice its
// live heap. Collecting when the heap has grown fivefold, but never
// letting it pass 48 MiB before collecting, makes it quicker and keeps its
// peak low (docs/BENCHMARKS.md, "What the file and process bounds were
// measured against"). serve and mcp run for days: they keep Go's defaults.
//
// A larger manifest raises the limit (see fitMemoryToManifest): under a
// fixed 48 MiB a check whose live heap is above it collects over and over
// and spends most of its CPU doing so.
const (
	oneShotGCPercent   = 400
	oneShotMemoryLimit = 48 << 20
	// oneShotHeapPerManifestByte is the memory limit of a one-shot
	// command per byte of its manifest: a check's live heap peaks while
	// the manifest is parsed (its source, position index, decoded document
	// and Manifest), and what it allocates on top of that is about as much
	// again (docs/BENCHMARKS.md).
	oneShotHeapPerManifestByte = 32
)

// oneShot is set once oneShotMemory has applied the one-shot settings, so
// that opening a manifest fits the memory limit to it.
var oneShot atomic.Bool

// oneShotMemory applies the one-shot settings for the command in args,
// and reports whether it did.
func oneShotMemory(args []string, getenv func(string) string) bool {
	if len(args) > 0 {
		if c := cli.sub(args[0]); c != nil && c.daemon {
			return false
		}
	}
	if getenv("GOGC") != "" || getenv("GOMEMLIMIT") != "" {
		return false
	}
	debug.SetGCPercent(oneShotGCPercent)
	debug.SetMemoryLimit(oneShotMemoryLimit)
	oneShot.Store(true)
	return true
}

// fitMemoryToManifest raises a one-shot command's memory limit, before it
// loads the manifest at path, to oneShotHeapPerManifestByte times the
// manifest's size when that is above oneShotMemoryLimit, so that a large
// manifest is collected a few times rather than continuously below its
// live heap. It does nothing for serve and mcp, nor when GOGC or
// GOMEMLIMIT is set (the user's settings win), nor for a manifest it
// cannot stat (loading it will say why). It returns the limit it set, or
// 0.
func fitMemoryToManifest(path string) int64 {
	if !oneShot.Load() {
		return 0
	}
	fi, err := os.Stat(path)
	if err != nil || !fi.Mode().IsRegular() {
		return 0
	}
	return fitMemoryToSize(fi.Size())
}

// fitMemoryToSize is fitMemoryToManifest for a manifest of size bytes
// already read (one on standard input).
func fitMemoryToSize(size int64) int64 {
	if !oneShot.Load() {
		return 0
	}
	limit := size * oneShotHeapPerManifestByte
	if limit <= oneShotMemoryLimit {
		return 0
	}
	debug.SetMemoryLimit(limit)
	return limit
}
