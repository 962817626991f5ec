package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"
)

// gatectlBinaryDir holds the gatectl binaries that the process-level
// tests run, each built once per test binary: a build links all of
// gatectl (with the race detector, seconds more), and every such test
// runs the same source. TestMain removes it when the tests end.
var gatectlBinaryDir string

// builtTestGatectl and builtUserGatectl are the two builds: with the race detector when the
// tests have it, and as users build it.
var (
	builtTestGatectl = sync.OnceValues(func() (string, error) { return buildGatectlInto("test", raceEnabled) })
	builtUserGatectl = sync.OnceValues(func() (string, error) { return buildGatectlInto("user", false) })
)

// buildGatectlInto builds gatectl as DIR/gatectl under gatectlBinaryDir,
// a directory of its own that holds only gatectl (tests put it on PATH).
func buildGatectlInto(dir string, race bool) (string, error) {
	if gatectlBinaryDir == "" {
		return "", fmt.Errorf("no directory for the built gatectl: TestMain did not make one")
	}
	bin := filepath.Join(gatectlBinaryDir, dir, "gatectl")
	args := []string{"build", "-o", bin}
	if race {
		args = append(args, "-race")
	}
	out, err := exec.Command("go", append(args, ".")...).CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("go %v: %w\n%s", args, err, out)
	}
	return bin, nil
}

// buildGatectlBinary returns gatectl built for a process-level test, with
// the race detector when the tests have it, so that the soaks also look
// for races in the real process. It is built on first use and shared:
// callers only run it (a test that must change it copies it first).
func buildGatectlBinary(t *testing.T) string {
	t.Helper()
	bin, err := builtTestGatectl()
	require.NoError(t, err)
	return bin
}

// buildUserGatectl returns gatectl built as users build it (without the
// race detector), for a test of what users run. It is shared as
// buildGatectlBinary's is.
func buildUserGatectl(t *testing.T) string {
	t.Helper()
	bin, err := builtUserGatectl()
	require.NoError(t, err)
	return bin
}

// withGatectlBinaryDir runs the tests with a directory for the built
// gatectl binaries that outlives each test, and removes it after.
func withGatectlBinaryDir(m *testing.M) int {
	dir, err := os.MkdirTemp("", "gatectl-test-bin-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(dir)
	gatectlBinaryDir = dir
	return m.Run()
}
