package meter

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/gate-dev/gate/internal/golden"
)

// TestGolden compares the text format of instrumented testdata modules with
// testdata/golden, which is there to be read: it shows exactly what the
// rewrite does, with metering only (name.instrumented.wat), with the stack
// limit (depth, stack) and with the options gate's engine uses
// (tables.engine). Needs wasm2wat (wabt); go test -run TestGolden -update
// regenerates the files.
func TestGolden(t *testing.T) {
	if _, err := exec.LookPath("wasm2wat"); err != nil {
		t.Skip("wasm2wat not installed")
	}
	tests := []struct {
		name, file string
		opts       Options
	}{
		{"calls", "calls", Options{}},
		{"loops", "loops", Options{}},
		{"tables", "tables", Options{}},
		{"bulk", "bulk", Options{}},
		{"names", "names", Options{}},
		{"depth", "depth", Options{MaxStackSlots: 1 << 18}},
		{"stack", "stack", Options{MaxStackSlots: 1 << 18}},
		{"tables.engine", "tables", engineOptions},
	}
	for _, tc := range tests {
		name := tc.name
		t.Run(name, func(t *testing.T) {
			out := mustInstrumentWith(t, readTestdata(t, tc.file+".wasm"), tc.opts)
			tmp := filepath.Join(t.TempDir(), name+".wasm")
			require.NoError(t, os.WriteFile(tmp, out, 0o644))
			wat, err := exec.Command("wasm2wat", tmp).CombinedOutput()
			require.NoError(t, err, "%s", wat)
			golden.Check(t, filepath.Join("testdata", "golden", name+".instrumented.wat"), wat)
		})
	}
}
