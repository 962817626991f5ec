package probes

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// requireClang fails (never skips) when the C toolchain is missing.
func requireClang(t *testing.T) {
	t.Helper()
	for _, tool := range []string{"clang", "wasm-ld"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Fatalf("%s not found: building the C probes needs clang and wasm-ld; install them (Debian: apt-get install clang lld)", tool)
		}
	}
}

// TestCHeaderHelpers builds testdata/helpers.c with the flags gate.h
// documents and runs it, checking the SDK helpers third-party probes use:
// list splitting, the bounded string builder (which must cut before a
// UTF-8 character, not inside it), decimal output and status words.
func TestCHeaderHelpers(t *testing.T) {
	requireClang(t)
	out := filepath.Join(t.TempDir(), "helpers.wasm")
	cmd := exec.Command("clang", "--target=wasm32", "-mcpu=mvp", "-nostdlib", "-ffreestanding", "-Oz",
		"-std=c11", "-Wall", "-Wextra", "-pedantic", "-Werror", "-I../../probes/include",
		"-Wl,--no-entry", "-Wl,--export=probe", "-Wl,--strip-all",
		"-Wl,--initial-memory=65536", "-Wl,--max-memory=65536",
		"-Wl,--stack-first", "-Wl,-z,stack-size=8192",
		"-o", out, "testdata/helpers.c")
	output, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s", output)
	wasm, err := os.ReadFile(out)
	require.NoError(t, err)

	r := newFakeHost(t)
	compiled, err := r.CompileModule(context.Background(), wasm)
	require.NoError(t, err)
	for _, tc := range []struct {
		name, list string
		want       string
	}{
		{"items and lengths", " a,bc\tdef ,", "a1|bc2|def3|"},
		{"cut at the buffer's end", "abcdefghij klmnop", "abcdefghij10|klm"},
		{"no character split", "abcdefghijklmno\u00e9", "abcdefghijklmno|"},
		{"empty", "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := &fakeGate{config: map[string]string{"list": tc.list}, imports: map[string]int32{"bin:x": 0}}
			got := run(t, r, compiled, g)
			assert.Equal(t, int32(0), got.result)
			assert.True(t, got.reasonSet)
			assert.Equal(t, tc.want, got.reason)
		})
	}
	for status, words := range map[int32]string{0: "connected", -2: "denied", -3: "connection refused", -4: "timed out",
		-5: "unreachable or name not resolved", -6: "bad address", -7: "failed"} {
		g := &fakeGate{config: map[string]string{"addr": "x:1"}, dial: map[string]int32{"x:1": status}}
		got := run(t, r, compiled, g)
		assert.Equal(t, int32(1), got.result, "bin:x is not importable here")
		assert.Equal(t, []string{"2 " + words}, got.logs, "status %d", status)
	}
}
