package runtime

import "github.com/gate-dev/gate/internal/manifest"

// PinnedServer is a server of a Gate's manifest whose tools the MCP
// gateway checks against the lock file beside the manifest (the
// manifest's pin), which `gatectl mcp lock` writes.
type PinnedServer struct {
	Name string
	// Pin is the manifest's setting: "true" (a tool whose definition
	// changed since it was locked is hidden) or "strict" (a tool the lock
	// file does not know is hidden too).
	Pin string
}

// PinnedServers returns the servers of the Gate's manifest that are
// pinned, in manifest order; none for a Gate built in code.
func (g *Gate) PinnedServers() []PinnedServer {
	if g.manifest == nil {
		return nil
	}
	var out []PinnedServer
	for _, s := range g.manifest.Servers {
		if s.Upstream != nil && s.Upstream.Pin != manifest.PinOff {
			out = append(out, PinnedServer{Name: s.Name, Pin: string(s.Upstream.Pin)})
		}
	}
	return out
}

// ManifestPath returns the absolute path of the manifest the Gate was
// opened from; "" for a Gate built in code.
func (g *Gate) ManifestPath() string {
	if g.manifest == nil {
		return ""
	}
	return g.manifest.Path
}

// UpstreamServers returns the names of the servers of the Gate's manifest
// that the MCP gateway connects to (those with a command or a url), in
// manifest order; none for a Gate built in code.
func (g *Gate) UpstreamServers() []string {
	if g.manifest == nil {
		return nil
	}
	var out []string
	for _, s := range g.manifest.Servers {
		if s.Upstream != nil {
			out = append(out, s.Name)
		}
	}
	return out
}
