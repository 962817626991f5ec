package runtime

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestWorkersTakeClaims: workers that take jobs by turns take them in
// claims of jobs in a row, not every other job (the entries and flights
// of neighbouring jobs share cache lines, which then went back and forth
// between the CPUs with every answer); every job is taken once.
// (Taking every other job, the workers made 1,000 runs of one job here.)
func TestWorkersTakeClaims(t *testing.T) {
	const n, workers = 1000, 2
	w := newProbeWorkers(make([]probeJob, n), workers)
	require.Equal(t, maxClaimLen, w.claimLen)
	own, help := [workers]int{-1, -1}, [workers]int{}
	last := [workers]int{-2, -2}
	taken := make([]bool, n)
	runs := 0 // of jobs in a row that a worker took
	for k := 0; ; k++ {
		at := k % workers
		i, ok := w.take(&own[at], &help[at])
		if !ok {
			_, ok = w.take(&own[1-at], &help[1-at])
			require.False(t, ok, "one worker found no job left, the other did")
			break
		}
		require.False(t, taken[i], "job %d taken twice", i)
		taken[i] = true
		if i != last[at]+1 {
			runs++
		}
		last[at] = i
	}
	assert.NotContains(t, taken, false)
	// A claim at a time, but for the last claim, which the worker that
	// ends first helps with.
	assert.LessOrEqual(t, runs, len(w.claims)+w.claimLen, "a worker's jobs come a claim at a time")
	assert.Less(t, runs, n/10)
	assert.False(t, w.untaken())
}

// TestWorkersHelpWithOthersClaims: a worker whose probe runs on (or
// hangs) leaves the rest of its claim to the others: one that finds no
// claim left takes them, so none waits for it.
func TestWorkersHelpWithOthersClaims(t *testing.T) {
	const n = 100
	for _, workers := range []int{1, 2, 4} {
		w := newProbeWorkers(make([]probeJob, n), workers)
		stuck, stuckHelp := -1, 0
		first, ok := w.take(&stuck, &stuckHelp) // and runs on
		require.True(t, ok)
		taken := map[int]bool{first: true}
		other, otherHelp := -1, 0
		for {
			i, ok := w.take(&other, &otherHelp)
			if !ok {
				break
			}
			require.False(t, taken[i], "job %d taken twice", i)
			taken[i] = true
		}
		assert.Len(t, taken, n, "with %d workers' claims", workers)
		_, ok = w.take(&stuck, &stuckHelp)
		assert.False(t, ok, "the stuck worker's claim was taken up")
	}
}
