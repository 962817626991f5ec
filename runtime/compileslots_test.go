package runtime

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gate-dev/gate/internal/wasm"
)

// distinctModules are n modules of the same shape that differ in a custom
// section, so that each is compiled rather than found in the engine.
func distinctModules(n, funcs, bodyBytes int) [][]byte {
	var out [][]byte
	for i := range n {
		b := genBodies(funcs, bodyBytes)
		out = append(out, wasm.AppendSection(b, wasm.SectionCustom, append(wasm.AppendName(nil, "copy"), byte(i))))
	}
	return out
}

// TestCompilesTakeTurns: modules compiled at once by different callers
// are compiled in turn, at most one per compileWorkers CPUs, so that their
// memory does not add up (four 13.6 MB Go probes at once peaked at 691
// MB, in turn at 413 MB).
func TestCompilesTakeTurns(t *testing.T) {
	ctx := context.Background()
	e := newEngine(t, NewEngineConfig())
	started := processCompiles.started.Load()
	var wg sync.WaitGroup
	for i, m := range distinctModules(4, 2048, 100) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, err := e.Compile(ctx, fmt.Sprint("m", i, ".wasm"), m)
			assert.NoError(t, err)
		}()
	}
	wg.Wait()
	assert.Equal(t, int64(4), processCompiles.started.Load()-started, "every compile went through the process's slots")
	assert.LessOrEqual(t, processCompiles.most.Load(), int64(cap(processCompiles.slots)), "compiles under way at once")
}

// TestCompileGivenUpBeforeItsTurnNeverStarts: a caller whose context ends
// while other compiles hold every slot gets its error, and its compile is
// never started: abandoned compiles cannot pile up behind the ones that
// are still waited for. A compile waiting for its turn when its engine
// closes ends with ErrClosed.
func TestCompileGivenUpBeforeItsTurnNeverStarts(t *testing.T) {
	e, err := NewEngine(context.Background(), NewEngineConfig())
	require.NoError(t, err)
	for range cap(processCompiles.slots) {
		require.NoError(t, processCompiles.acquire(context.Background(), nil))
	}
	held := true
	release := func() {
		if held {
			for range cap(processCompiles.slots) {
				processCompiles.release()
			}
			held = false
		}
	}
	defer release()
	started := processCompiles.started.Load()

	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	_, err = e.Compile(ctx, "late.wasm", distinctModules(1, 64, 10)[0])
	require.ErrorIs(t, err, context.DeadlineExceeded)
	var le *LoadError
	require.ErrorAs(t, err, &le)
	assert.Equal(t, "late.wasm", le.Module)

	waiting := make(chan error, 1)
	go func() {
		_, err := e.Compile(context.Background(), "closing.wasm", distinctModules(2, 64, 10)[1])
		waiting <- err
	}()
	require.NoError(t, e.Close(context.Background()), "Close does not wait for a compile that has not started")
	require.ErrorIs(t, <-waiting, ErrClosed)
	release()
	assert.Equal(t, started, processCompiles.started.Load(), "no compile was started")
}
