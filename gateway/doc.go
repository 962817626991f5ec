// Package gateway is gate's MCP gateway: an MCP server (built on the
// official Go SDK, github.com/modelcontextprotocol/go-sdk) that fronts the
// MCP servers a manifest names and offers a client only the tools that can
// run now. docs/MCP.md documents the manifest keys, the mapping and the
// limits.
//
// A tool is offered while all of these hold:
//   - its server's probe says available (the [[servers]] entry's probe);
//   - gate is connected to the server and has its tool list;
//   - the server's breaker is not open: its forwarded calls have not
//     failed (at the transport, or by timing out) several times in a row;
//   - the first [[servers.tools]] rule that fits the tool, if any, has a
//     probe that says available;
//   - the tool is well formed (a valid name, an object input schema) and
//     its prefixed name is not taken by an earlier server's tool.
//
// Whenever the offered set changes, for whichever reason (a probe flips, an
// upstream dies or comes back, a breaker opens or closes, an upstream says
// its list changed, the manifest is reloaded), every session gets one
// notifications/tools/list_changed (at most one per
// Config.WithListChangedInterval, when set). tools/list never waits for an
// upstream: it answers from the set computed in the background. A call to
// a tool that is not offered is an MCP error that says why; a call to one
// that is offered is forwarded to its upstream with its arguments,
// progress and cancellation, under the server's call timeout.
//
// The skills of the manifest are offered as resources: the skills prompt
// at gate://skills/prompt and each offered skill's SKILL.md at
// gate://skills/NAME/SKILL.md, and as one prompt, "skills", that returns
// the skills prompt (see docs/RATIONALE.md, "Skills are resources and a
// prompt, not tools").
//
// The wiring, as gatectl mcp does it over stdio:
//
//	_ = gateway.ProtectProcess() // first in main: see its documentation
//	svc, err := runtime.OpenService(ctx, path, runtime.NewServiceConfig())
//	gw := gateway.New(svc, gateway.NewConfig())
//	go svc.Run(ctx)
//	go gw.Run(ctx) // connects the upstreams, follows the service
//	err = gw.Server().Run(ctx, &mcp.StdioTransport{})
//
// and over streamable HTTP, gw.Handler() serves /mcp (gatectl serve mounts
// it behind its token and Host checks).
package gateway
