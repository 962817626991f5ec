package mcpgw

import (
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestDocsNameTheLogPrefix: the pages name the prefix of the lines the
// gateway logs for an upstream's stderr as the gateway writes it.
func TestDocsNameTheLogPrefix(t *testing.T) {
	for _, page := range []string{"../../docs/MCP.md", "../../docs/CLI.md"} {
		doc, err := os.ReadFile(page)
		require.NoError(t, err)
		assert.Contains(t, string(doc), "`"+logPrefix+"upstream NAME:`", "%s names another prefix for an upstream's stderr", page)
	}
}
