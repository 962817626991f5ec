package wasm

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestDecodeCountsFuncCost: the cost Decode counts as it checks a body is
// the one FuncCost counts afresh.
func TestDecodeCountsFuncCost(t *testing.T) {
	t.Parallel()
	paths, err := filepath.Glob(filepath.Join("..", "probes", "*.wasm"))
	require.NoError(t, err)
	require.NotEmpty(t, paths)
	for _, path := range paths {
		b, err := os.ReadFile(path)
		require.NoError(t, err)
		m, err := Decode(b)
		require.NoError(t, err)
		for i, c := range m.Code {
			require.True(t, c.costed, path)
			fresh, err := countCost(NewInstrReader(c.Body, c.BodyOffset), m.numParams(i), c.NumLocals, len(c.Body))
			require.NoError(t, err)
			assert.Equal(t, fresh, m.FuncCost(i), "%s function %d", path, i)
			assert.NotZero(t, fresh.Blocks, "%s function %d", path, i)
		}
	}
}
