package mcpgw

import (
	"fmt"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
)

// TestURLElicitationsBound: the sessions of url-mode elicitations are
// remembered up to maxURLElicitations, the oldest forgotten first; one
// completed (taken) no longer counts, so that an id sent again after its
// completion is kept as long as any other.
func TestURLElicitationsBound(t *testing.T) {
	first, again := new(mcp.ServerSession), new(mcp.ServerSession)
	for _, tc := range []struct {
		name  string
		steps func(e *urlElicitations)
		id    string
		want  *mcp.ServerSession
	}{
		{"kept", func(e *urlElicitations) { e.sent("x", first) }, "x", first},
		{"taken once", func(e *urlElicitations) { e.sent("x", first); e.take("x") }, "x", nil},
		{"the oldest forgotten past the bound", func(e *urlElicitations) {
			e.sent("x", first)
			for i := range maxURLElicitations {
				e.sent(fmt.Sprint(i), first)
			}
		}, "x", nil},
		{"sent again after its completion, kept within the bound", func(e *urlElicitations) {
			e.sent("x", first)
			e.take("x")
			e.sent("x", again)
			for i := range maxURLElicitations - 1 {
				e.sent(fmt.Sprint(i), first)
			}
		}, "x", again},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var e urlElicitations
			tc.steps(&e)
			assert.Same(t, tc.want, e.take(tc.id))
			assert.LessOrEqual(t, len(e.order), maxURLElicitations)
		})
	}
}
