package skills

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gate-dev/gate/internal/jsontest"
	"github.com/gate-dev/gate/internal/skillhost"
)

// TestKindsCoverResult: every satisfied_* and missing_* list of Result
// belongs to exactly one kind, and each kind's accessors reach distinct
// fields. A kind added to the Result but not to the table (or the
// reverse) fails here.
func TestKindsCoverResult(t *testing.T) {
	t.Parallel()
	var resultLists []string
	rt := reflect.TypeFor[Result]()
	for i := range rt.NumField() {
		tag := strings.Split(rt.Field(i).Tag.Get("json"), ",")[0]
		if strings.HasPrefix(tag, "satisfied_") || strings.HasPrefix(tag, "missing_") {
			resultLists = append(resultLists, tag)
		}
	}

	var gotLists []string
	names := map[string]bool{}
	for _, k := range kinds {
		assert.False(t, names[k.name], "two kinds named %q", k.name)
		names[k.name] = true
		require.NotNil(t, k.field, k.name)
		require.NotEmpty(t, k.message, k.name)

		var r Result
		*k.satisfied(&r) = []string{"x"}
		sat := jsontest.FilledKeys(t, r)
		require.Len(t, sat, 1, "%s: satisfied reaches %v", k.name, sat)
		assert.True(t, strings.HasPrefix(sat[0], "satisfied_"), "%s: satisfied reaches %s", k.name, sat[0])
		r = Result{}
		*k.missing(&r) = []string{"x"}
		miss := jsontest.FilledKeys(t, r)
		require.Len(t, miss, 1, "%s: missing reaches %v", k.name, miss)
		assert.Equal(t, "missing_"+strings.TrimPrefix(sat[0], "satisfied_"), miss[0], k.name)
		gotLists = append(gotLists, sat[0], miss[0])
	}
	assert.ElementsMatch(t, resultLists, gotLists)
}

// TestKindsFillEveryList: newResult gives [] for every kind's lists,
// never null, whatever the table holds.
func TestKindsFillEveryList(t *testing.T) {
	t.Parallel()
	b, err := json.Marshal(newResult("s", StateActive))
	require.NoError(t, err)
	assert.NotContains(t, string(b), "null")
}

// TestKindsManagerNeverStale: whatever a skill requires or stands in for,
// a Manager whose tools and servers change step by step answers as a new
// Manager given the same ones: the table's sources decide which flips
// drop a cached result or offer, and a wrong one leaves it stale.
func TestKindsManagerNeverStale(t *testing.T) {
	t.Parallel()
	host := skillhost.Map{GOOS: "linux"}
	steps := []struct{ tools, servers []string }{
		{nil, nil}, {[]string{"x"}, nil}, {nil, nil}, {nil, []string{"x"}},
		{[]string{"x"}, []string{"x"}}, {[]string{"x"}, nil}, {nil, []string{"x"}}, {nil, nil},
	}
	for _, line := range []string{
		"requires_tools: [x]",
		"requires_servers: [x]",
		"metadata: {hermes: {requires_toolsets: [x]}}",
		"requires_env: [x]",
		"metadata: {openclaw: {requires: {bins: [x], anyBins: [x, y]}}}",
		"fallback_for_tools: [x]",
		"fallback_for_servers: [x]",
		"metadata: {hermes: {fallback_for_toolsets: [x]}}",
	} {
		t.Run(line, func(t *testing.T) {
			t.Parallel()
			cat := newCatalog(mustParse(t, "s", skillText("s", "d", line)))
			m := NewManager(cat, ManagerOptions{Host: host})
			for i, st := range steps {
				m.SetAvailable(st.tools, st.servers)
				fresh := NewManager(cat, ManagerOptions{Host: host})
				fresh.SetAvailable(st.tools, st.servers)
				assert.Equal(t, fresh.Diagnostics(), m.Diagnostics(), "step %d", i)
				assert.Equal(t, len(fresh.Offered()), len(m.Offered()), "step %d", i)
			}
		})
	}
}
