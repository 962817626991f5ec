package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gate-dev/gate/internal/costlywasm"
)

// TestCheckRefusesCostlyModule: gatectl check with a manifest whose probe
// module would take seconds and hundreds of MB to compile refuses it at
// once, naming the manifest and the tool's line and key in it, the module,
// the function and the limit it is over, before any compile.
func TestCheckRefusesCostlyModule(t *testing.T) {
	dir := t.TempDir()
	module := filepath.Join(dir, "costly.wasm")
	require.NoError(t, os.WriteFile(module, costlywasm.Module(costlywasm.Shape{Kind: "seq", Locals: 1000, Blocks: 5000}), 0o644))
	manifest := filepath.Join(dir, "gate.toml")
	writeFile(t, manifest, "[[tools]]\nname = \"costly_tool\"\ndescription = \"x\"\nprobe = { module = \"costly.wasm\" }\n")

	code, stdout, stderr := gatectl(t, "check", "-m", manifest)
	assert.Equal(t, exitUsage, code)
	assert.Empty(t, stdout)
	assert.Contains(t, stderr, "gatectl check: 1 problem(s) in "+manifest)
	assert.Contains(t, stderr, manifest+":4:1: tools[0].probe: probe module "+module+
		": function 0 has a live span (the blocks its locals live across) of 10000000, over the compile cost limit of 262144 (38.1× the limit")
}
