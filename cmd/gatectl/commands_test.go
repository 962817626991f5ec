package main

import (
	"strings"
	"testing"

	"github.com/gate-dev/gate/probes"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestCommandTable: every command of the table can be run, is in the
// top-level usage (itself or by its subcommands), has a summary for
// completion, and is selected by a word no sibling uses.
func TestCommandTable(t *testing.T) {
	cli.walk(func(c *cmd) {
		key := strings.Join(c.path(), " ")
		assert.NotNil(t, c.run, "gatectl %s has no run", key)
		words := map[string]bool{}
		for _, s := range c.subs {
			for _, w := range append([]string{s.name}, s.aliases...) {
				assert.False(t, words[w], "two subcommands of gatectl %s are selected by %q", key, w)
				words[w] = true
			}
		}
		if c == cli {
			return
		}
		assert.NotEmpty(t, c.summary, "gatectl %s has no summary", key)
		if len(c.subs) == 0 {
			assert.NotEmpty(t, c.usage, "gatectl %s has no line in the usage", key)
		}
		for _, u := range c.usage {
			line := strings.Join(append(append([]string{"gatectl"}, c.path()...), strings.Fields(u.args)...), " ")
			assert.True(t, strings.Contains(usage, "\n  "+line+" ") || strings.Contains(usage, "\n  "+line+"\n"),
				"the usage lacks %s", line)
		}
	})
	var names []string
	for _, c := range cli.subs {
		names = append(names, c.name)
	}
	assert.Equal(t, names, cli.sub("help").args, "gatectl help completes to every command")
}

// TestUsageListsEveryProbeKind: the top-level usage lists every standard
// probe kind package probes has, in its order, and probe run's help names
// each; kindUsage holds no kind that package probes lacks.
func TestUsageListsEveryProbeKind(t *testing.T) {
	kinds := probes.Kinds()
	require.NotEmpty(t, kinds)
	runHelp := strings.Join(strings.Fields(probeRunSynopsis), " ")
	last := -1
	for _, k := range kinds {
		u, ok := kindUsage[k]
		if !assert.True(t, ok, "kindUsage has no line for the standard probe %q", k) {
			continue
		}
		at := strings.Index(usage, "\n  "+u[0]+" ")
		assert.Greater(t, at, last, "the usage lists %s, after the kinds before it", u[0])
		last = at
		form, _, _ := strings.Cut(u[0], "[")
		assert.Contains(t, runHelp, form, "gatectl probe run -h does not name %s", form)
	}
	for k := range kindUsage {
		assert.Contains(t, kinds, k, "kindUsage describes %q, which is no standard probe", k)
	}
}
