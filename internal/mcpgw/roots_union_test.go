//lint:file-ignore SA1019 MCP deprecates roots as of 2026-07-28 (SEP-2577); clients and servers of the earlier versions gate speaks use it

package mcpgw

import (
	"fmt"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
)

func TestUnionRoots(t *testing.T) {
	r := func(uri, name string) *mcp.Root { return &mcp.Root{URI: uri, Name: name} }
	many := make([]*mcp.Root, maxRoots+5)
	for i := range many {
		many[i] = r(fmt.Sprintf("file:///r%05d", i), "")
	}
	long := strings.Repeat("x", maxRootBytes/2)
	for _, tc := range []struct {
		name string
		in   []*mcp.Root
		want []string
	}{
		{"none", nil, []string{}},
		{"sorted by URI", []*mcp.Root{r("file:///b", "b"), r("file:///a", "a")}, []string{"file:///a a", "file:///b b"}},
		{"each URI once, the first name", []*mcp.Root{r("file:///a", "zed"), r("file:///a", "alpha"), r("file:///a", "")}, []string{"file:///a "}},
		{"cut at the count", many, func() []string {
			var out []string
			for i := range maxRoots {
				out = append(out, fmt.Sprintf("file:///r%05d ", i))
			}
			return out
		}()},
		{"cut at the bytes", []*mcp.Root{r("file:///1", long), r("file:///2", long), r("file:///3", "")}, []string{"file:///1 " + long}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := []string{}
			for _, x := range unionRoots(tc.in) {
				got = append(got, x.URI+" "+x.Name)
			}
			assert.Equal(t, tc.want, got)
		})
	}
}
