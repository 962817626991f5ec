package probetest_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// writeChildModule makes dir a Go module named name that requires gate
// from the checkout at root, as a probe author's module requires gate:
// its go.sum is gate's, so that nothing is fetched.
func writeChildModule(t testing.TB, dir, name, root string) {
	t.Helper()
	gomod := "module " + name + "\n\ngo 1.26\n\nrequire github.com/gate-dev/gate v0.0.0\n\nreplace github.com/gate-dev/gate => " + root + "\n"
	require.NoError(t, os.WriteFile(filepath.Join(dir, "go.mod"), []byte(gomod), 0o644))
	sum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "go.sum"), sum, 0o644))
}
