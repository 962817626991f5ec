// Package golden compares a test's output with a file kept beside the
// test (a golden file), or rewrites the file from the output when the
// test binary is run with -update, the flag every package's tests share:
//
//	go test ./internal/server -update
//
// Only tests import it: the flag it defines would otherwise join the
// importing program's.
package golden

import (
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var update = flag.Bool("update", false, "rewrite the golden files (and the pages' outputs) from this run instead of comparing")

// Update reports whether -update was given: the tests write what they
// compare with instead of comparing. A test that keeps its expected text
// elsewhere than a golden file (a Markdown page's example) reads it too.
func Update() bool { return *update }

// Check compares got with the file at path; with -update it writes got
// there instead (and the directories above it), and passes. A missing
// file or a difference fails the test, saying how to rewrite the file.
func Check(t testing.TB, path string, got []byte) bool {
	t.Helper()
	if *update {
		require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
		require.NoError(t, os.WriteFile(path, got, 0o644))
		return true
	}
	return assert.Equal(t, Read(t, path), string(got), "golden file %s differs: if the change is right, go test -update rewrites it", path)
}

// Read returns the file at path, failing the test (and saying how to
// create it) when it cannot be read.
func Read(t testing.TB, path string) string {
	t.Helper()
	want, err := os.ReadFile(path)
	require.NoError(t, err, "golden file %s: go test -update creates it", path)
	return string(want)
}
