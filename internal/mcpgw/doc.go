// Package mcpgw is gate's MCP gateway, the implementation behind package
// gateway: gatectl mcp and serve use it directly, for what only they need
// (LockEntries, the breaker and upstream states, the tool and skill
// names); embedders use package gateway, which documents the behaviour,
// the bounds and their defaults. docs/MCP.md documents the manifest keys,
// the mapping and the limits.
package mcpgw
