package skillsview

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gate-dev/gate/internal/jsontest"
	"github.com/gate-dev/gate/skills"
)

// TestKindsCoverResult: every satisfied_* and missing_* list of
// skills.Result, and every Split of Requirement, belongs to exactly one
// kind, and each kind's accessors reach distinct fields. A kind added to
// the skills package's Result but not to this table (or the reverse)
// fails here.
func TestKindsCoverResult(t *testing.T) {
	var resultLists, reportSplits []string
	rt := reflect.TypeFor[skills.Result]()
	for i := range rt.NumField() {
		tag := strings.Split(rt.Field(i).Tag.Get("json"), ",")[0]
		if strings.HasPrefix(tag, "satisfied_") || strings.HasPrefix(tag, "missing_") {
			resultLists = append(resultLists, tag)
		}
	}
	qt := reflect.TypeFor[Requirement]()
	for i := range qt.NumField() {
		if qt.Field(i).Type == reflect.TypeFor[Split]() {
			reportSplits = append(reportSplits, strings.Split(qt.Field(i).Tag.Get("json"), ",")[0])
		}
	}

	var gotLists, gotSplits []string
	names := map[string]bool{}
	for _, k := range kinds {
		assert.False(t, names[k.name], "two kinds named %q", k.name)
		names[k.name] = true

		var r skills.Result
		*k.satisfied(&r) = []string{"x"}
		sat := jsontest.FilledKeys(t, r)
		require.Len(t, sat, 1, "%s: satisfied reaches %v", k.name, sat)
		assert.True(t, strings.HasPrefix(sat[0], "satisfied_"), "%s: satisfied reaches %s", k.name, sat[0])
		r = skills.Result{}
		*k.missing(&r) = []string{"x"}
		miss := jsontest.FilledKeys(t, r)
		require.Len(t, miss, 1, "%s: missing reaches %v", k.name, miss)
		assert.Equal(t, "missing_"+strings.TrimPrefix(sat[0], "satisfied_"), miss[0], k.name)
		gotLists = append(gotLists, sat[0], miss[0])

		var q Requirement
		*k.split(&q) = Split{Satisfied: []string{"x"}}
		rep := jsontest.FilledKeys(t, q)
		require.Len(t, rep, 1, "%s: split reaches %v", k.name, rep)
		assert.Equal(t, k.name, rep[0], "a kind's name is its key in the doctor report")
		gotSplits = append(gotSplits, rep[0])
	}
	assert.ElementsMatch(t, resultLists, gotLists)
	assert.ElementsMatch(t, reportSplits, gotSplits)
}

// TestKindsInValidateOrder: the table's order is the order in which
// skills' Validate reports what is missing, read from the messages of a
// skill missing one item of every kind under strict enforcement.
func TestKindsInValidateOrder(t *testing.T) {
	m := managerOf(t, skills.LevelStrict, skillOf("s",
		"requires_tools: [tools]",
		"requires_servers: [servers]",
		"requires_env: [env]",
		"metadata: {hermes: {requires_toolsets: [toolsets]}, openclaw: {requires: {bins: [bins], anyBins: [any_bins]}}}"))
	d := NewDoctor(m, true, itself)
	require.Len(t, d.Skills, 1)

	var reported []string
	for _, msg := range d.Skills[0].Errors {
		_, item, ok := strings.Cut(msg, ": ")
		require.True(t, ok, msg)
		reported = append(reported, item)
	}
	var order []string
	for _, k := range d.Skills[0].Kinds() {
		order = append(order, k.Kind)
		assert.Equal(t, Split{Satisfied: []string{}, Missing: []string{k.Kind}}, k.Split, k.Kind)
	}
	assert.Equal(t, reported, order)
}

// TestKindsFillEveryList: the doctor report gives [] for every kind's
// lists, never null.
func TestKindsFillEveryList(t *testing.T) {
	d := NewDoctor(managerOf(t, skills.LevelWarn, skillOf("s", "requires_tools: [a]")), true, itself)
	require.Len(t, d.Skills, 1)
	b, err := json.Marshal(d.Skills[0])
	require.NoError(t, err)
	assert.NotContains(t, string(b), "null")
	var kindsSeen []string
	for _, k := range d.Skills[0].Kinds() {
		kindsSeen = append(kindsSeen, k.Kind)
		assert.NotNil(t, k.Satisfied, k.Kind)
		assert.NotNil(t, k.Missing, k.Kind)
	}
	assert.Equal(t, []string{"tools", "servers", "toolsets", "env", "bins", "any_bins"}, kindsSeen, "Validate's order")
	assert.Equal(t, Split{Satisfied: []string{}, Missing: []string{"a"}}, d.Skills[0].Kinds()[0].Split)
}
