package gateway_test

import (
	"os"
	"regexp"
	"testing"

	"github.com/gate-dev/gate/runtime/manifest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The manifests docs/MCP.md shows are valid, and say what the text says.
func TestDocsManifestsParse(t *testing.T) {
	doc, err := os.ReadFile("../docs/MCP.md")
	require.NoError(t, err)
	blocks := regexp.MustCompile("(?s)```toml\n(.*?)```").FindAllSubmatch(doc, -1)
	require.NotEmpty(t, blocks, "docs/MCP.md has no toml example")
	for _, b := range blocks {
		m, err := manifest.Parse("/docs/gate.toml", b[1])
		require.NoError(t, err, "%s", b[1])
		for _, s := range m.Servers {
			assert.NotNil(t, s.Upstream, "server %s of the example fronts nothing", s.Name)
		}
	}
}
