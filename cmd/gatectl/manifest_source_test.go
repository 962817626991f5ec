package main

import (
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gate-dev/gate/internal/manifest"
)

// withStdin makes what -m - reads, for the rest of the test, r.
func withStdin(t *testing.T, r io.Reader) {
	t.Helper()
	old := manifestStdin
	manifestStdin = r
	t.Cleanup(func() { manifestStdin = old })
}

// stdinManifestText is a manifest whose module path is relative: read
// from standard input, it resolves against the working directory.
const stdinManifestText = `[[tools]]
name = "asker"
description = "Asks for GATECTL_STDIN_KEY."
[tools.probe]
module = "probes/ask.wasm"
config = { op = "env", arg = "GATECTL_STDIN_KEY" }
grants = { env = ["GATECTL_STDIN_KEY"] }

[[tools]]
name = "search_web"
description = "Search the web."
probe = "env:GATECTL_STDIN_KEY"
`

// stdinWorkDir makes a working directory holding probes/ask.wasm, what
// stdinManifestText names, and a skills folder, myskills, and goes there.
func stdinWorkDir(t *testing.T) {
	t.Helper()
	wasm, err := os.ReadFile(hostile("ask"))
	require.NoError(t, err)
	dir := t.TempDir()
	require.NoError(t, os.Mkdir(filepath.Join(dir, "probes"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "probes", "ask.wasm"), wasm, 0o644))
	skill, err := os.ReadFile(filepath.Join("testdata", "skills", "research", "SKILL.md"))
	require.NoError(t, err)
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "myskills", "research"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "myskills", "research", "SKILL.md"), skill, 0o644))
	t.Chdir(dir)
}

// TestStdinManifest: -m - reads the manifest from standard input for the
// commands that read it once; its relative paths resolve against the
// working directory, and messages call it <stdin>.
func TestStdinManifest(t *testing.T) {
	t.Setenv("GATECTL_STDIN_KEY", "k")
	stdinWorkDir(t)

	t.Run("check", func(t *testing.T) {
		withStdin(t, strings.NewReader(stdinManifestText))
		code, stdout, stderr := gatectl(t, "check", "-m", "-", "--json")
		require.Equal(t, exitOK, code, stderr)
		var report checkReport
		require.NoError(t, json.Unmarshal([]byte(stdout), &report), stdout)
		assert.Equal(t, stdinName, report.Manifest)
		assert.Equal(t, checkSummary{Tools: 2, ToolsAvailable: 2}, report.Summary)
		require.Len(t, report.Tools, 2)
		assert.Equal(t, filepath.Join("probes", "ask.wasm"), report.Tools[0].Probe, "the module is the working directory's")
	})
	t.Run("schema", func(t *testing.T) {
		withStdin(t, strings.NewReader(stdinManifestText))
		code, stdout, stderr := gatectl(t, "schema", "-m", "-", "--format", "mcp")
		require.Equal(t, exitOK, code, stderr)
		assert.Contains(t, stdout, `"asker"`)
		assert.Contains(t, stdout, `"search_web"`)
	})
	t.Run("probe run --tool", func(t *testing.T) {
		withStdin(t, strings.NewReader(stdinManifestText))
		code, stdout, stderr := gatectl(t, "probe", "run", "--tool", "asker", "-m", "-")
		require.Equal(t, exitOK, code, stderr)
		assert.Contains(t, stdout, "asker: available")
	})
	t.Run("skills", func(t *testing.T) {
		// The skills folder, too, is the working directory's.
		withStdin(t, strings.NewReader(stdinManifestText+"\n[skills]\npaths = [\"myskills\"]\n"))
		code, stdout, stderr := gatectl(t, "skills", "-m", "-", "--json")
		require.Equal(t, exitOK, code, stderr)
		assert.Contains(t, stdout, `"research"`)

		withStdin(t, strings.NewReader(stdinManifestText))
		code, _, stderr = gatectl(t, "skills", "-m", "-")
		assert.Equal(t, exitUsage, code)
		assert.Contains(t, stderr, "gatectl skills: <stdin> has no [skills] paths")
	})
	t.Run("an unknown name", func(t *testing.T) {
		withStdin(t, strings.NewReader(stdinManifestText))
		code, _, stderr := gatectl(t, "check", "-m", "-", "nope")
		assert.Equal(t, exitUsage, code)
		assert.Contains(t, stderr, `gatectl check: <stdin> has no tool or server named "nope"`)
	})
	t.Run("read once", func(t *testing.T) {
		// The second command finds standard input at its end: an empty
		// manifest, no tools.
		withStdin(t, strings.NewReader(stdinManifestText))
		code, _, stderr := gatectl(t, "check", "-m", "-", "asker")
		require.Equal(t, exitOK, code, stderr)
		code, stdout, stderr := gatectl(t, "check", "-m", "-", "--json")
		require.Equal(t, exitOK, code, stderr)
		assert.Contains(t, stdout, `"tools": []`)
	})
}

// TestStdinManifestProblems: the problems of a manifest on standard input
// name it <stdin>, in the text and in check --json; one over the size
// limit is refused after reading one byte past it, however much more
// there is.
func TestStdinManifestProblems(t *testing.T) {
	t.Chdir(t.TempDir())
	withStdin(t, strings.NewReader("[runtime]\nttl = 30\n"))
	code, stdout, stderr := gatectl(t, "check", "--json", "-m", "-")
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, stderr, "gatectl check: 1 problem(s) in <stdin>:\n<stdin>:2:7: runtime.ttl: ")
	var got checkProblems
	require.NoError(t, json.Unmarshal([]byte(stdout), &got), stdout)
	assert.Equal(t, stdinName, got.Manifest)
	require.Len(t, got.Problems, 1)
	assert.Equal(t, manifestProblem{File: stdinName, Line: 2, Column: 7, Key: "runtime.ttl", Message: got.Problems[0].Message}, got.Problems[0])

	endless := &countingReader{}
	withStdin(t, endless)
	code, _, stderr = gatectl(t, "schema", "-m", "-")
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, stderr, "<stdin>: larger than 16MiB")
	assert.Equal(t, int64(manifest.DefaultMaxBytes+1), endless.n, "read one byte past the limit, no more")
}

// countingReader is a standard input that never ends: a TOML comment,
// forever. n is how much of it was read.
type countingReader struct{ n int64 }

func (r *countingReader) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = '#'
	}
	r.n += int64(len(p))
	return len(p), nil
}

// TestStdinManifestRefused: serve and mcp read the manifest again when it
// changes (and mcp's standard input is the protocol), and mcp lock writes
// its lock file beside the manifest: -m - is refused, with why, before
// anything is read.
func TestStdinManifestRefused(t *testing.T) {
	for _, tt := range []struct {
		args []string
		why  string
	}{
		{[]string{"serve", "-m", "-", "--addr", "127.0.0.1:0"}, "gatectl serve: -m - (the manifest on standard input) is not for this command: it reads the manifest again when it changes"},
		{[]string{"mcp", "-m", "-"}, "gatectl mcp: -m - (the manifest on standard input) is not for this command: it reads the manifest again when it changes"},
		{[]string{"mcp", "lock", "-m", "-"}, "gatectl mcp lock: -m - (the manifest on standard input) is not for this command: the lock file goes beside the manifest"},
	} {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			endless := &countingReader{}
			withStdin(t, endless)
			code, stdout, stderr := gatectl(t, tt.args...)
			assert.Equal(t, exitUsage, code)
			assert.Empty(t, stdout)
			assert.Contains(t, stderr, tt.why)
			assert.Zero(t, endless.n, "nothing read from standard input")
		})
	}
}

// TestStdinManifestPins: check lists a pinned server of a manifest on
// standard input as one whose lock file it cannot read: there is no
// beside to look in.
func TestStdinManifestPins(t *testing.T) {
	t.Chdir(t.TempDir())
	withStdin(t, strings.NewReader("[[servers]]\nname = \"notes\"\nurl = \"http://127.0.0.1:1/mcp\"\npin = true\n"))
	code, stdout, stderr := gatectl(t, "check", "--json", "-m", "-")
	assert.Equal(t, exitUnavailable, code, stderr)
	var report checkReport
	require.NoError(t, json.Unmarshal([]byte(stdout), &report), stdout)
	require.Len(t, report.Pins, 1)
	assert.Equal(t, "notes", report.Pins[0].Server)
	assert.Empty(t, report.Pins[0].Lock)
	assert.Contains(t, report.Pins[0].Error, "standard input")
}

// TestStdinManifestProblemLine: a problem found after parsing (a probe
// module that is not there) in a manifest on standard input shows its
// line from what was read, with the caret under it, not a line of a file
// in the working directory that happens to be named <stdin>.
func TestStdinManifestProblemLine(t *testing.T) {
	t.Chdir(t.TempDir())
	require.NoError(t, os.WriteFile(stdinName, []byte("decoy line 1\ndecoy line 2\ndecoy line 3\ndecoy line 4\n"), 0o644))
	withStdin(t, strings.NewReader("[[tools]]\nname = \"asker\"\ndescription = \"Asks.\"\nprobe = { module = \"missing.wasm\" }\n"))
	code, _, stderr := gatectl(t, "check", "-m", "-")
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, stderr, "gatectl check: 1 problem(s) in <stdin>:\n<stdin>:4:1: tools[0].probe")
	assert.Contains(t, stderr, "\n   4 | probe = { module = \"missing.wasm\" }\n     | ^ ")
	assert.NotContains(t, stderr, "decoy")
}
