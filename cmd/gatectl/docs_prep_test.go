package main

import (
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/gate-dev/gate/internal/doctest"
	"github.com/gate-dev/gate/internal/testsvc"
)

// prepDBWasm builds db.wasm, the complete probe in C of docs/ABI.md, in
// dir, with the page's own build command (clang and lld, as
// probetest's TestABIDocExamples builds it): the probe README.md and
// docs/CLI.md run.
func prepDBWasm(t *testing.T, h *docHarness, dir string, _ map[string]string) {
	abi, err := doctest.Load(filepath.Join(h.root, "docs", "ABI.md"))
	require.NoError(t, err)
	src, line := abi.Fence("c", 0)
	require.NotZero(t, line, "docs/ABI.md has no probe in C")
	build, _ := abi.Fence("sh", line)
	require.NotEmpty(t, build, "docs/ABI.md has no build command after its probe in C")
	tmp := t.TempDir()
	writeFile(t, filepath.Join(tmp, "db.c"), src)
	require.NoError(t, os.MkdirAll(filepath.Join(tmp, "probes"), 0o755))
	copyTree(t, filepath.Join(h.root, "probes", "include"), filepath.Join(tmp, "probes", "include"), nil)
	c := exec.Command("sh", "-c", build)
	c.Dir = tmp
	out, err := c.CombinedOutput()
	require.NoError(t, err, "%s\n%s(clang and lld are needed: apt-get install clang lld)", build, out)
	wasm, err := os.ReadFile(filepath.Join(tmp, "db.wasm"))
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "db.wasm"), wasm, 0o644))
}

// prepRedisPassword starts a Redis that wants the password "correct
// horse", standing in at the page's 127.0.0.1:6380.
func prepRedisPassword(t *testing.T, _ *docHarness, _ string, ports map[string]string) {
	_, port, err := net.SplitHostPort(testsvc.Redis(t, "correct horse"))
	require.NoError(t, err)
	ports["6380"] = port
}
