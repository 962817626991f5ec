package main

import (
	"strings"
	"testing"

	"github.com/gate-dev/gate/internal/probes"
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
		// The usage's words, wherever it wrapped them.
		flat := " " + strings.Join(strings.Fields(usage()), " ") + " "
		for _, u := range c.usage {
			line := strings.Join(append(append([]string{"gatectl"}, c.path()...), strings.Fields(u.args)...), " ")
			assert.Contains(t, flat, " "+line+" ", "the usage lacks %s", line)
		}
	})
	var names []string
	for _, c := range cli.subs {
		names = append(names, c.name)
	}
	assert.Equal(t, names, cli.sub("help").args, "gatectl help completes to every command")
}

// TestUsageListsEveryProbeKind: the top-level usage lists every standard
// probe kind package probes has, in its order, each with its form and
// summary, and probe run's help names each.
func TestUsageListsEveryProbeKind(t *testing.T) {
	kinds := probes.Kinds()
	require.NotEmpty(t, kinds)
	runHelp := strings.Join(strings.Fields(probeRunSynopsis), " ")
	last := -1
	for _, k := range kinds {
		require.NotEmpty(t, k.Form(), k)
		require.NotEmpty(t, k.Summary(), k)
		at := strings.Index(usage(), "\n  "+k.Form()+" ")
		if !assert.Greater(t, at, last, "the usage lists %s, after the kinds before it", k.Form()) {
			continue
		}
		// Its summary, wrapped onto the lines indented under it.
		lines := strings.Split(usage()[at+1:], "\n")
		entry := strings.TrimPrefix(lines[0], "  "+k.Form())
		for _, l := range lines[1:] {
			if !strings.HasPrefix(l, strings.Repeat(" ", kindNoteColumn)) {
				break
			}
			entry += " " + l
		}
		assert.Equal(t, k.Summary(), strings.Join(strings.Fields(entry), " "), "the usage's lines for %s", k.Form())
		last = at
		form, _, _ := strings.Cut(k.Form(), "[")
		assert.Contains(t, runHelp, form, "gatectl probe run -h does not name %s", form)
	}
}

// TestWrap: words fill lines up to the width and no further; a word
// longer than the width has a line of its own.
func TestWrap(t *testing.T) {
	assert.Equal(t, "aa bb\ncc", wrap("aa bb cc", 5))
	assert.Equal(t, "aa bb\ncc", wrap(" aa\nbb   cc ", 6))
	assert.Equal(t, "a\nlongword\nb", wrap("a longword b", 4))
	assert.Equal(t, "", wrap("  ", 4))
}
