// Package runtime is gate's engine: it decides which agent tools (and
// MCP-style servers, and the skills that need them) are usable right now
// by running each tool's probe, a small sandboxed WebAssembly module that
// may ask the host only what its grants allow and must answer within its
// budget (at most 100 ms of what the probe itself uses: see Probe.Run).
//
// The main types, from the top:
//
//   - Gate is what an application embeds: Open loads a gate.toml
//     manifest; New starts empty for tools built in code. It holds
//     one Registry of tools, one of servers, the skills (package skills)
//     and the Engine. AvailableTools, Schema (package runtime/schema) and
//     SkillsPrompt give what the next model call may be offered; OnChange
//     reports tools and servers that flip, and while it has subscribers
//     the Gate re-probes answers in the background before they expire.
//   - Service keeps a Gate's answers fresh in the background, reloads its
//     manifest when the file changes (keeping the last good one when the
//     new one is broken) and publishes every change as an Event, as
//     gatectl serve and gatectl mcp use it.
//   - Registry holds tools (Tool) or servers and caches each probe's
//     answer (Status) for its TTL, serving a recent good answer through a
//     failing re-probe for a grace window; it runs each tool's Prober
//     outside its lock, at most once at a time per tool.
//   - Engine compiles probe modules (Module), each rewritten so that it
//     meets its budget (internal/meter) and compiled once, kept in an
//     on-disk cache for the next process (DefaultCacheDir, unless
//     configured otherwise), and makes Probes of them with their grants
//     (hostfuncs.Grants), config and budget; StandardProbe makes one from
//     a standard-probe shorthand ("env:KEY", "redis:127.0.0.1:6379", ...). Probe.Run gives a Result: the Outcome,
//     the reason, what the grants denied, the logs.
//   - NativeProbe is a Prober that gates a tool on a Go function instead
//     of a module.
//   - Inspect reads a module without running it and reports what it
//     imports and exports, the probe ABI version it needs (1 or 2) and
//     every way it breaks the ABI.
//
// The host side of a probe's calls is not here: the "gate" host module
// and gate's own WASI are package internal/host, the grants a host app
// writes are package hostfuncs, and internal/grants compiles them into the
// checks the host functions make.
//
// docs/DESIGN.md maps the packages and their API, docs/ABI.md is the
// contract a probe module follows; example_test.go shows a Gate built in
// code with native probes, and examples/embed an agent loop around a Gate
// opened from a manifest.
package runtime
