package main

import (
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/gate-dev/gate/internal/doctest"
	"github.com/gate-dev/gate/internal/testsvc"
)

// prepDBWasm builds db.wasm, the complete probe in C of docs/ABI.md, in
// the run's directory, with the page's own build command.
func prepDBWasm(t *testing.T, p docPrep) { buildABIProbe(t, p, "## A complete probe in C", "db") }

// prepCacheWasm builds cache.wasm, the protocol probe in C of docs/ABI.md.
func prepCacheWasm(t *testing.T, p docPrep) { buildABIProbe(t, p, "## A protocol probe in C", "cache") }

// buildABIProbe builds NAME.wasm from the first C block after heading in
// docs/ABI.md with the first sh block after it (clang and lld, as
// probetest's TestABIDocExamples builds them), into the run's directory.
// A service the probe asks must be prepared first, for its port.
func buildABIProbe(t *testing.T, p docPrep, heading, name string) {
	abi, err := doctest.Load(filepath.Join(p.h.root, "docs", "ABI.md"))
	require.NoError(t, err)
	at := abi.Heading(heading)
	require.NotZero(t, at, "docs/ABI.md has no %q", heading)
	src, end := abi.Fence("c", at)
	require.NotZero(t, end, "docs/ABI.md has no probe in C after %q", heading)
	build, _ := abi.Fence("sh", end)
	require.NotEmpty(t, build, "docs/ABI.md has no build command after its probe in C")
	tmp := t.TempDir()
	// The source's addresses are the page's; the run's services stand in
	// at other ports.
	writeFile(t, filepath.Join(tmp, name+".c"), p.ports.ToRun(src))
	require.NoError(t, os.MkdirAll(filepath.Join(tmp, "probes"), 0o755))
	doctest.CopyTree(t, filepath.Join(p.h.root, "probes", "include"), filepath.Join(tmp, "probes", "include"), nil)
	c := exec.Command("sh", "-c", build)
	c.Dir = tmp
	out, err := c.CombinedOutput()
	require.NoError(t, err, "%s\n%s(clang and lld are needed: apt-get install clang lld)", build, out)
	wasm, err := os.ReadFile(filepath.Join(tmp, name+".wasm"))
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(p.dir, name+".wasm"), wasm, 0o644))
}

// prepRedisPassword starts a Redis that wants a password, standing in at
// the page's 127.0.0.1:PORT; its ARG is PORT:PASSWORD, or PORT (the
// password "correct horse"), or none (port 6380).
func prepRedisPassword(t *testing.T, p docPrep) {
	at, password, ok := strings.Cut(p.arg, ":")
	if !ok {
		password = "correct horse"
	}
	if at == "" {
		at = "6380"
	}
	_, port, err := net.SplitHostPort(testsvc.Redis(t, password))
	require.NoError(t, err)
	p.ports[at] = port
}
