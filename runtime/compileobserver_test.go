package runtime

import (
	"context"
	"os"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// compileLog records what a compile observer was told.
type compileLog struct {
	mu     sync.Mutex
	starts []string
	sizes  []int
	ends   []error
}

func (l *compileLog) observe(name string, size int) func(error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.starts = append(l.starts, name)
	l.sizes = append(l.sizes, size)
	return func(err error) {
		l.mu.Lock()
		defer l.mu.Unlock()
		l.ends = append(l.ends, err)
	}
}

// TestCompileObserver: the observer hears of each module wazero compiles,
// once for the same bytes however often they are asked for, with the
// module's name and size and, at its end, its error; a module refused
// before compiling is never compiled, so never observed. A second engine
// sharing the compilation cache still compiles (loads) through wazero,
// and is observed too.
func TestCompileObserver(t *testing.T) {
	ctx := context.Background()
	goWasm := buildGoWasm(t, "./testdata/goprobe")
	small, err := os.ReadFile(hostilePath("loop_probe"))
	require.NoError(t, err)
	cache := t.TempDir()

	var log compileLog
	e := newEngine(t, NewEngineConfig().WithCacheDir(cache).WithCompileObserver(log.observe))
	_, err = e.Compile(ctx, "goprobe.wasm", goWasm)
	require.NoError(t, err)
	_, err = e.Compile(ctx, "again.wasm", goWasm)
	require.NoError(t, err)
	_, err = e.Compile(ctx, "loop_probe.wasm", small)
	require.NoError(t, err)
	_, err = e.Compile(ctx, "notwasm.wasm", []byte("not a module"))
	require.Error(t, err)
	assert.Equal(t, []string{"goprobe.wasm", "loop_probe.wasm"}, log.starts)
	assert.Equal(t, []int{len(goWasm), len(small)}, log.sizes)
	assert.Equal(t, []error{nil, nil}, log.ends)

	var cached compileLog
	e2 := newEngine(t, NewEngineConfig().WithCacheDir(cache).WithCompileObserver(cached.observe))
	_, err = e2.Compile(ctx, "goprobe.wasm", goWasm)
	require.NoError(t, err)
	assert.Equal(t, []string{"goprobe.wasm"}, cached.starts)
	assert.Equal(t, []error{nil}, cached.ends)

	// An observer that wants no end is allowed to return nil.
	e3 := newEngine(t, NewEngineConfig().WithCompileObserver(func(string, int) func(error) { return nil }))
	_, err = e3.Compile(ctx, "loop_probe.wasm", small)
	require.NoError(t, err)
}
