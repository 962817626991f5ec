// Package runtime is gate's engine: it decides which agent tools (and
// MCP-style servers, and the skills that need them) are usable right now
// by running each tool's probe, a small sandboxed WebAssembly module that
// may ask the host only what its grants allow and must answer within its
// budget (at most 100 ms).
//
// The main types, from the top:
//
//   - Gate is what an application embeds: Open loads a gate.toml
//     manifest (package runtime/manifest) and registers its tools and
//     servers; New starts empty for tools built in code. AvailableTools,
//     Schema (package runtime/schema) and SkillsPrompt give what the next
//     model call may be offered; OnChange reports tools that flip.
//   - Registry holds tools (Tool) or servers and caches each probe's
//     answer (Status) for its TTL, serving a recent good answer through a
//     failing re-probe for a grace window.
//   - Engine compiles probe modules (Module) and makes Probes of them, with
//     their grants (hostfuncs.Grants), config and budget; StandardProbe
//     builds the env:, tcp: and import: shorthands. Probe.Run gives a
//     Result: the Outcome, the reason, what the grants denied, the logs.
//   - NativeProbe gates a tool on a Go function instead of a module.
//   - Service keeps a Gate's answers fresh in the background and reloads
//     its manifest, as gatectl serve does.
//   - Inspect reads a module and reports how it breaks probe ABI v1.
//
// example_test.go shows a Gate built in code with native probes;
// examples/embed is an agent loop around a Gate opened from a manifest;
// docs/ABI.md is the contract a probe module follows.
package runtime
