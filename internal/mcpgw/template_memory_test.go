package mcpgw

import (
	"fmt"
	"os"
	"runtime"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/yosida95/uritemplate/v3"
)

// bigTemplates are n distinct templates of about 1.9 KiB, each with 340
// variables (3.9 KiB of listing with its definition): 3,500 of them fit the listing's caps of one server.
func bigTemplates(n int) []*mcp.ResourceTemplate {
	vars := make([]string, 340)
	for i := range vars {
		vars[i] = fmt.Sprintf("a%d", i)
	}
	tail := "{/" + strings.Join(vars, ",") + "}"
	out := make([]*mcp.ResourceTemplate, n)
	for i := range out {
		out[i] = &mcp.ResourceTemplate{URITemplate: fmt.Sprintf("x://h%d", i) + tail, Name: fmt.Sprintf("t%d", i)}
	}
	return out
}

func heapInUse() uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// What a listing of templates holds is what its byte cap counts of it
// (listedTemplate.size, the matchers included), within a small factor:
// the matchers share the templates' bytes and hold a few words a part.
func TestTemplateMemoryIsWhatTheListingCounts(t *testing.T) {
	tmpls := bigTemplates(3500)
	before := heapInUse()
	listed := make([]listedTemplate, len(tmpls))
	counted := 0
	for i, tm := range tmpls {
		listed[i] = checkTemplate(tm, nil)
		require.Empty(t, listed[i].invalid)
		counted += listed[i].size()
	}
	held := heapInUse() - before
	runtime.KeepAlive(listed)
	t.Logf("3,500 templates: %d bytes counted against the listing's cap, %d bytes of heap held", counted, held)
	assert.LessOrEqual(t, held, uint64(2*counted))
	assert.LessOrEqual(t, counted, 16<<20, "within the default cap of one server")
}

// The regexps the URI template library builds for the same templates,
// as the gateway held them before: measured when GATE_MEASURE_REGEXP is
// set (it takes gigabytes).
func TestTemplateMemoryOfTheRegexps(t *testing.T) {
	if os.Getenv("GATE_MEASURE_REGEXP") == "" {
		t.Skip("set GATE_MEASURE_REGEXP=1 to measure")
	}
	tmpls := bigTemplates(3500)
	before := heapInUse()
	var res []any
	for _, tm := range tmpls {
		p, err := uritemplate.New(tm.URITemplate)
		require.NoError(t, err)
		res = append(res, p.Regexp())
	}
	held := heapInUse() - before
	runtime.KeepAlive(res)
	t.Logf("3,500 templates as the library's regexps: %d bytes of heap held", held)
}

// A template listed again unchanged keeps the matcher of the listing
// before: it is read once per change, not once per listing.
func TestTemplateListedAgainKeepsItsMatcher(t *testing.T) {
	tm := bigTemplates(1)[0]
	first := checkTemplate(tm, nil)
	require.NotNil(t, first.match)
	again := checkTemplate(tm, map[string]*uriMatcher{tm.URITemplate: first.match})
	assert.Same(t, first.match, again.match)
	changed := *tm
	changed.URITemplate += "{?q}"
	assert.NotSame(t, first.match, checkTemplate(&changed, map[string]*uriMatcher{tm.URITemplate: first.match}).match)
}
