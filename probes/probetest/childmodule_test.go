package probetest_test

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// writeChildModule makes dir a Go module named name that requires gate
// from the checkout at root, as a probe author's module requires gate:
// its go.sum is gate's, so that nothing is fetched. gate's own replaces
// of a dependency by a copy in the checkout (go.mod's `replace X =>
// ./third_party/...`) apply only to builds of gate itself, so the child
// names them again, with the copy's absolute path; otherwise it would
// need the replaced module's upstream release, which gate's go.sum does
// not vouch for.
func writeChildModule(t testing.TB, dir, name, root string) {
	t.Helper()
	gomod := "module " + name + "\n\ngo 1.26\n\nrequire github.com/gate-dev/gate v0.0.0\n\nreplace github.com/gate-dev/gate => " + root + "\n"
	own, err := os.ReadFile(filepath.Join(root, "go.mod"))
	require.NoError(t, err)
	sc := bufio.NewScanner(bytes.NewReader(own))
	for sc.Scan() {
		rest, isReplace := strings.CutPrefix(sc.Text(), "replace ")
		mod, path, inCheckout := strings.Cut(rest, " => ./")
		if isReplace && inCheckout {
			gomod += "replace " + mod + " => " + filepath.Join(root, path) + "\n"
		}
	}
	require.NoError(t, os.WriteFile(filepath.Join(dir, "go.mod"), []byte(gomod), 0o644))
	sum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "go.sum"), sum, 0o644))
}
