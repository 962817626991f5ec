package main

import (
	"math"
	"runtime/debug"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestOneShotMemory: one-shot commands collect less often but under a
// memory limit; serve and mcp, which run until stopped, and any process
// whose user set GOGC or GOMEMLIMIT, keep what they have.
func TestOneShotMemory(t *testing.T) {
	gc := debug.SetGCPercent(100)
	limit := debug.SetMemoryLimit(math.MaxInt64)
	t.Cleanup(func() {
		debug.SetGCPercent(gc)
		debug.SetMemoryLimit(limit)
	})
	env := func(set map[string]string) func(string) string {
		return func(k string) string { return set[k] }
	}
	for _, tc := range []struct {
		name  string
		args  []string
		env   map[string]string
		tuned bool
	}{
		{"check", []string{"check", "-m", "x.toml"}, nil, true},
		{"no command", nil, nil, true},
		{"serve", []string{"serve"}, nil, false},
		{"mcp", []string{"mcp", "-m", "x.toml"}, nil, false},
		{"help serve", []string{"help", "serve"}, nil, true},
		{"GOGC set", []string{"check"}, map[string]string{"GOGC": "100"}, false},
		{"GOMEMLIMIT set", []string{"check"}, map[string]string{"GOMEMLIMIT": "1GiB"}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			debug.SetGCPercent(100)
			debug.SetMemoryLimit(math.MaxInt64)
			assert.Equal(t, tc.tuned, oneShotMemory(tc.args, env(tc.env)))
			wantGC, wantLimit := 100, int64(math.MaxInt64)
			if tc.tuned {
				wantGC, wantLimit = oneShotGCPercent, oneShotMemoryLimit
			}
			assert.Equal(t, wantGC, debug.SetGCPercent(100))
			assert.Equal(t, wantLimit, debug.SetMemoryLimit(math.MaxInt64))
		})
	}
}

// TestOneShotMemoryByTable: every command of the table gets the one-shot
// settings unless its entry says it runs until stopped, and the commands
// that do are serve and mcp.
func TestOneShotMemoryByTable(t *testing.T) {
	gc := debug.SetGCPercent(100)
	limit := debug.SetMemoryLimit(math.MaxInt64)
	t.Cleanup(func() {
		debug.SetGCPercent(gc)
		debug.SetMemoryLimit(limit)
	})
	var daemons []string
	for _, c := range cli.subs {
		for _, word := range append([]string{c.name}, c.aliases...) {
			assert.Equal(t, !c.daemon, oneShotMemory([]string{word}, func(string) string { return "" }), "gatectl %s", word)
			debug.SetGCPercent(100)
			debug.SetMemoryLimit(math.MaxInt64)
		}
		if c.daemon {
			daemons = append(daemons, c.name)
		}
	}
	assert.Equal(t, []string{"serve", "mcp"}, daemons)
}
