package main

import (
	"io"
	"math"
	"os"
	"path/filepath"
	goruntime "runtime"
	"runtime/debug"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestOneShotMemory: one-shot commands collect less often but under a
// memory limit; serve and mcp, which run until stopped, and any process
// whose user set GOGC or GOMEMLIMIT, keep what they have.
func TestOneShotMemory(t *testing.T) {
	resetCollector(t)
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
	resetCollector(t)
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

// TestOneShotMemoryFitsTheManifest: a one-shot check of a manifest whose
// live heap is above oneShotMemoryLimit (50,000 env-probed tools, about
// 170 MB while the manifest is parsed) collects a few times, not
// continuously below its live heap (40 times at 16 bytes a manifest
// byte); a check of 1,000 tools keeps the fixed limit.
func TestOneShotMemoryFitsTheManifest(t *testing.T) {
	if testing.Short() {
		t.Skip("a 50,000-tool manifest")
	}
	resetCollector(t)
	t.Setenv("GATE_CACHE_DIR", t.TempDir())

	check := func(n int) (limit int64, collections uint32) {
		dir := t.TempDir()
		path := filepath.Join(dir, "gate.toml")
		require.NoError(t, os.WriteFile(path, envManifest(n), 0o644))
		require.True(t, oneShotMemory([]string{"check"}, func(string) string { return "" }))
		require.Equal(t, exitUnavailable, run([]string{"check", "-m", path}, io.Discard, io.Discard)) // a cold run fills the cache
		require.True(t, oneShotMemory([]string{"check"}, func(string) string { return "" }))
		goruntime.GC()
		var before, after goruntime.MemStats
		goruntime.ReadMemStats(&before)
		require.Equal(t, exitUnavailable, run([]string{"check", "-m", path}, io.Discard, io.Discard))
		goruntime.ReadMemStats(&after)
		return debug.SetMemoryLimit(-1), after.NumGC - before.NumGC
	}
	limit, _ := check(1_000)
	assert.Equal(t, int64(oneShotMemoryLimit), limit, "1,000 tools")
	limit, collections := check(50_000)
	assert.Greater(t, limit, int64(oneShotMemoryLimit), "50,000 tools")
	assert.LessOrEqual(t, collections, uint32(6), "collections of a warm check of 50,000 tools")
	t.Logf("50,000 tools: a memory limit of %d MiB, %d collections", limit>>20, collections)
}

// resetCollector puts Go's default collector settings in place for a test
// of the one-shot settings, and restores the ones it found after it.
func resetCollector(t *testing.T) {
	gc := debug.SetGCPercent(100)
	limit := debug.SetMemoryLimit(math.MaxInt64)
	t.Cleanup(func() {
		debug.SetGCPercent(gc)
		debug.SetMemoryLimit(limit)
		oneShot.Store(false)
	})
}
