//go:build !linux

package mcpgw

// ProtectProcess does nothing here: the Linux version makes the process
// undumpable, so that the upstreams it starts, which run as its user,
// cannot read its environment. Elsewhere that is left to the system.
func ProtectProcess() error { return nil }
