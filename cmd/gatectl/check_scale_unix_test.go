//go:build unix

package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	goruntime "runtime"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestCheckScalesLinearly: a warm in-process `gatectl check` of 10,000
// env-probed tools costs no more a tool than one of 1,000, in
// allocations and in CPU time (the process's, the best of a few rounds:
// the machine is shared). Anything that grows with the square of the
// tools (a scan of them all per tool) shows as a multiple of the small
// check's figure a tool.
func TestCheckScalesLinearly(t *testing.T) {
	if testing.Short() {
		t.Skip("a 10,000-tool manifest")
	}
	t.Setenv("GATE_CACHE_DIR", t.TempDir())
	perTool := func(n int) (mallocs, bytes float64, cpu time.Duration) {
		path := filepath.Join(t.TempDir(), "gate.toml")
		require.NoError(t, os.WriteFile(path, envManifest(n), 0o644))
		for i := 0; i < n; i += 2 {
			t.Setenv(fmt.Sprint("GATE_BENCH_", i), "x")
		}
		require.Equal(t, exitUnavailable, run([]string{"check", "-m", path}, io.Discard, io.Discard)) // compiles the probe into the cache
		runs := 20_000 / n
		cpu = time.Duration(1<<63 - 1)
		for range 3 {
			goruntime.GC()
			var before, after goruntime.MemStats
			goruntime.ReadMemStats(&before)
			start := processCPU(t)
			for range runs {
				require.Equal(t, exitUnavailable, run([]string{"check", "-m", path}, io.Discard, io.Discard))
			}
			took := processCPU(t) - start
			goruntime.ReadMemStats(&after)
			mallocs = float64(after.Mallocs-before.Mallocs) / float64(runs*n)
			bytes = float64(after.TotalAlloc-before.TotalAlloc) / float64(runs*n)
			cpu = min(cpu, took/time.Duration(runs*n))
		}
		return mallocs, bytes, cpu
	}
	smallMallocs, smallBytes, smallCPU := perTool(1_000)
	largeMallocs, largeBytes, largeCPU := perTool(10_000)
	t.Logf("a tool: %.1f allocations, %.0f bytes, %v CPU at 1,000 tools; %.1f, %.0f, %v at 10,000",
		smallMallocs, smallBytes, smallCPU, largeMallocs, largeBytes, largeCPU)
	assert.Less(t, largeMallocs, 1.1*smallMallocs, "allocations a tool")
	// And no more than they are: about 46 at 10,000 tools, of which the
	// manifest's parse is about 37 (internal/manifest's BenchmarkParseScale)
	// and making the probe 4 (runtime's TestStandardProbeAllocations
	// counts those exactly). A map per tool, as making the probes once
	// took, is two more.
	assert.Less(t, largeMallocs, maxCheckAllocsPerTool, "allocations a tool at 10,000 tools")
	assert.Less(t, largeBytes, 1.1*smallBytes, "bytes allocated a tool")
	if !raceEnabled { // the race detector's own cost a tool grows with the heap (1.45x here)
		assert.Less(t, float64(largeCPU), 1.5*float64(smallCPU), "CPU time a tool")
	}
}

// maxCheckAllocsPerTool bounds what a warm check allocates a tool, from
// the manifest's parse to the table's line.
const maxCheckAllocsPerTool = 50.0

// processCPU is the CPU time the process has used, user and system.
func processCPU(t *testing.T) time.Duration {
	var ru syscall.Rusage
	require.NoError(t, syscall.Getrusage(syscall.RUSAGE_SELF, &ru))
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
