package mcpgw

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// The protocol log line names a session by its ID, a 2026-07-28 client's
// as without a session, and only versions the SDK speaks: a client's
// other text is not written.
func TestProtocolLineNames(t *testing.T) {
	for _, tc := range []struct{ id, version, kind, named string }{
		{"ABCDEFGHIJKL", "2025-11-25", "MCP session ABCDEFGH…", "2025-11-25"},
		{"", "2026-07-28", "MCP client without a session (stateless)", "2026-07-28"},
		{"", "2025-06-18", "MCP session without an ID", "2025-06-18"},
		{"", "2099-01-01\x1b[31m", "MCP client without a session (stateless)", "(a version gate does not speak)"},
		{"S", "1999-01-01", "MCP session S", "(a version gate does not speak)"},
	} {
		assert.Equal(t, tc.kind, sessionKind(tc.id, tc.version), "%q %q", tc.id, tc.version)
		assert.Equal(t, tc.named, knownVersion(tc.version), "%q", tc.version)
	}
}
