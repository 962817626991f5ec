package mcpgw

import (
	"fmt"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// shadowSet is a set of one earlier server's templates (order 0) and a
// later server's resources (order 1), as computeFeatures makes it.
func shadowSet(t *testing.T, templates []*uriMatcher, uris []string, later *upstream) *featureSet {
	f := &featureSet{resources: map[string]*resourceOffer{}, hiddenResources: map[string]hiddenTool{}, hiddenResOrder: map[string]int{}}
	for i, m := range templates {
		f.routes = append(f.routes, &templateOffer{featureRoute: featureRoute{up: &upstream{name: "first"}, order: 0}, uriTemplate: fmt.Sprintf("t%d", i), match: m})
	}
	for _, uri := range uris {
		f.resources[uri] = &resourceOffer{featureRoute: featureRoute{up: later, order: 1}}
	}
	return f
}

// A computation of the set made while neither a server's resources nor
// the templates before it changed matches none of them again: the
// verdicts are the last computation's. A change of either matches again.
func TestShadowVerdictsAreKeptWhileNothingChanged(t *testing.T) {
	var matched atomic.Int64
	hook := func(server, what string) {
		if what == "shadow" {
			matched.Add(1)
		}
	}
	testHookUpstreamData.Store(&hook)
	t.Cleanup(func() { testHookUpstreamData.Store(nil) })

	tmpl := func(s string) *uriMatcher {
		m, err := newURIMatcher(s)
		require.NoError(t, err)
		return m
	}
	templates := []*uriMatcher{tmpl("x://{id}"), tmpl("y://{+path}z")}
	later := &upstream{name: "later"}
	uris := []string{"x://a", "y://" + strings.Repeat("b", 1000), "w://c"}

	f := shadowSet(t, templates, uris, later)
	_, _, ok := f.hideShadowed(nil)
	require.True(t, ok)
	assert.Equal(t, int64(3), matched.Load())
	assert.Contains(t, f.hiddenResources["x://a"].reason, "its URI is in resource template \"t0\" of server first")
	assert.Len(t, f.resources, 2)

	again := shadowSet(t, templates, uris, later)
	_, _, ok = again.hideShadowed(f.shadows)
	require.True(t, ok)
	assert.Equal(t, int64(3), matched.Load(), "nothing was matched again")
	assert.Equal(t, f.hiddenResources, again.hiddenResources)

	changed := shadowSet(t, []*uriMatcher{tmpl("x://{id}"), templates[1]}, uris, later)
	_, _, ok = changed.hideShadowed(again.shadows)
	require.True(t, ok)
	assert.Equal(t, int64(6), matched.Load(), "a template listed again is matched again")

	more := shadowSet(t, templates, append(uris, "v://d"), later)
	_, _, ok = more.hideShadowed(changed.shadows)
	require.True(t, ok)
	assert.Equal(t, int64(10), matched.Load(), "a resource more matches them all again")
}
