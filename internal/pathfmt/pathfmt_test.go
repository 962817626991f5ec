package pathfmt

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestRel(t *testing.T) {
	t.Parallel()
	wd, err := os.Getwd()
	require.NoError(t, err)
	assert.Equal(t, filepath.Join("a", "b.md"), Rel(filepath.Join(wd, "a", "b.md")))
	outside := filepath.Join(filepath.Dir(wd), "elsewhere", "x")
	assert.Equal(t, outside, Rel(outside), "a path outside stays absolute")
	assert.Equal(t, filepath.Join("..", "elsewhere", "x"), RelAny(outside))
	assert.Equal(t, "", Rel(""))
}
