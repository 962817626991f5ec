package mcpgw_test

import (
	"testing"

	"github.com/gate-dev/gate/internal/doctest"
	"github.com/gate-dev/gate/internal/manifest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The manifests docs/MCP.md shows are valid, and say what the text says.
func TestDocsManifestsParse(t *testing.T) {
	doc, err := doctest.Load("../../docs/MCP.md")
	require.NoError(t, err)
	n := 0
	for src, end := doc.Fence("toml", 0); end > 0; src, end = doc.Fence("toml", end) {
		n++
		m, err := manifest.Parse("/docs/gate.toml", []byte(src))
		require.NoError(t, err, "docs/MCP.md:%d:\n%s", end, src)
		for _, s := range m.Servers {
			assert.NotNil(t, s.Upstream, "server %s of the example fronts nothing", s.Name)
		}
	}
	require.NotZero(t, n, "docs/MCP.md has no toml example")
}
