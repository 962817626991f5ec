// Package quickstart_test checks that examples/quickstart does what its
// manifest says: the probe module is fresh and pinned, each tool answers
// as the tool-availability reference does, and the grace window works.
package quickstart_test

//go:generate sh probes/build.sh probes

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gate-dev/gate/internal/manifest"
	"github.com/gate-dev/gate/internal/probes"
)

// requiresWasm is the committed composite probe, as the manifest names it.
const requiresWasm = "probes/requires.wasm"

// TestRequiresWasmIsFresh rebuilds probes/requires.wasm from requires.c
// and compares the bytes with the committed file: the build is
// deterministic, so any difference means a stale module. Without clang and
// wasm-ld it fails rather than skip: a skipped staleness check is one
// nobody runs.
func TestRequiresWasmIsFresh(t *testing.T) {
	for _, tool := range []string{"clang", "wasm-ld"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Fatalf("%s not found: this test rebuilds %s to prove it fresh; install clang and lld (Debian: apt-get install clang lld)", tool, requiresWasm)
		}
	}
	out := t.TempDir()
	cmd := exec.Command("sh", "probes/build.sh", out)
	cmd.Env = append(os.Environ(), "CLANG=clang")
	output, err := cmd.CombinedOutput()
	require.NoError(t, err, "sh probes/build.sh %s failed:\n%s", out, output)

	fresh, err := os.ReadFile(filepath.Join(out, "requires.wasm"))
	require.NoError(t, err)
	committed, err := os.ReadFile(requiresWasm)
	require.NoError(t, err)
	if !bytes.Equal(fresh, committed) {
		version, _ := exec.Command("clang", "--version").Output()
		line, _, _ := strings.Cut(string(version), "\n")
		t.Errorf("examples/quickstart/%s is stale: building probes/requires.c gives different bytes (%d, committed %d); "+
			"run `go generate ./examples/quickstart` (it runs `sh probes/build.sh probes`), then update the sha256 pins in gate.toml "+
			"(TestManifestPinsAndGrants prints the new sum).\n(The committed file was built with Debian clang/lld 14.0.6; this is %s.)",
			requiresWasm, len(fresh), len(committed), line)
	}
}

// TestManifestPinsAndGrants loads gate.toml and checks each requires.wasm
// tool: the pin matches the committed module (runtime.Open would refuse it
// otherwise, so every other test here would fail too, less clearly), and
// the grants name exactly what the config asks, no more and no less.
func TestManifestPinsAndGrants(t *testing.T) {
	m, err := manifest.Load("gate.toml")
	require.NoError(t, err)
	wasm, err := os.ReadFile(requiresWasm)
	require.NoError(t, err)
	sum := sha256.Sum256(wasm)
	want := hex.EncodeToString(sum[:])
	abs, err := filepath.Abs(requiresWasm)
	require.NoError(t, err)

	modules := 0
	for _, tool := range m.Tools {
		p := tool.Probe
		if p == nil || p.Module == "" {
			continue
		}
		modules++
		require.Equal(t, abs, p.Module, "%s: the quickstart's module probes all run requires.wasm", tool.Name)
		if p.SHA256 != want {
			t.Errorf("gate.toml: %s pins sha256 %q, but %s has %s; update every pin (sed -i 's/%s/%s/' examples/quickstart/gate.toml)",
				tool.Name, p.SHA256, requiresWasm, want, p.SHA256, want)
		}
		assert.Equal(t, items(p.Config["env"]), p.Grants.Env, "%s: grants.env must be exactly config.env", tool.Name)
		assert.Equal(t, items(p.Config["imports"]), p.Grants.Import, "%s: grants.import must be exactly config.imports", tool.Name)
		assert.Equal(t, items(p.Config["dial"]), p.Grants.Dial, "%s: grants.dial must be exactly config.dial", tool.Name)
	}
	assert.Equal(t, 5, modules, "query_database, cloud_deploy, ml_inference, gpu_inference, network_tool")
}

// items splits a requires.wasm list as gate_next_item does: commas and
// whitespace separate, empty items are skipped. nil for none.
func items(list string) []string {
	f := strings.FieldsFunc(list, func(r rune) bool { return r == ',' || r <= ' ' || r == 0x7F })
	if len(f) == 0 {
		return nil
	}
	return f
}

// TestSecretsBoundToTheirServices: every secret a tool of gate.toml sends
// is bound to that tool's own service and nothing else, so a key is sent
// only where the manifest's reader sees it go (search_web's to SerpApi's
// account endpoint).
func TestSecretsBoundToTheirServices(t *testing.T) {
	m, err := manifest.Load("gate.toml")
	require.NoError(t, err)
	bound := map[string]map[string][]string{}
	for _, tool := range m.Tools {
		p := tool.Probe
		if p == nil {
			continue
		}
		assert.Empty(t, p.Grants.Secrets, "%s: a module probe of the quickstart sends no secret", tool.Name)
		if p.Standard == "" {
			continue
		}
		sh, err := probes.ParseShorthand(p.Standard)
		require.NoError(t, err, tool.Name)
		if sh.Secrets != nil {
			bound[tool.Name] = sh.Secrets
		}
	}
	assert.Equal(t, map[string]map[string][]string{
		"search_web": {"SERP_API_KEY": {"https://serpapi.com/account.json"}},
	}, bound)
}
