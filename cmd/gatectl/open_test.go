package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestMissingManifestSuggestsInit: every command that reads a manifest,
// given none, says on one line that there is none at the path, and how
// to write one there, whether the path came from the default, from
// $GATE_MANIFEST or from -m; it still exits 2.
func TestMissingManifestSuggestsInit(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	other := filepath.Join("conf", "my gate.toml")
	elsewhere := `no manifest at conf/my gate.toml; run "gatectl init -m 'conf/my gate.toml'" to write one there`
	here := `no manifest at gate.toml; run "gatectl init" to write one, or name another with -m`
	commands := []struct {
		name string
		args []string
	}{
		{"gatectl check", []string{"check"}},
		{"gatectl check", []string{"check", "--json"}},
		{"gatectl schema", []string{"schema"}},
		{"gatectl skills", []string{"skills"}},
		{"gatectl doctor skills", []string{"doctor", "skills"}},
		{"gatectl probe run", []string{"probe", "run", "--tool", "x"}},
		{"gatectl mcp lock", []string{"mcp", "lock"}},
		{"gatectl serve", []string{"serve", "--addr", "127.0.0.1:0"}},
		{"gatectl mcp", []string{"mcp"}},
	}
	sources := []struct {
		name, env string
		flag      []string
		want      string
	}{
		{"default", "", nil, here},
		{"$GATE_MANIFEST", other, nil, strings.Replace(here, "gate.toml", "conf/my gate.toml", 1)},
		{"-m", "", []string{"-m", other}, elsewhere},
	}
	for _, src := range sources {
		for _, c := range commands {
			args := append(append([]string{}, c.args...), src.flag...)
			t.Run(src.name+"/"+strings.Join(args, " "), func(t *testing.T) {
				t.Setenv("GATE_MANIFEST", src.env)
				code, _, stderr := gatectl(t, args...)
				assert.Equal(t, exitUsage, code, stderr)
				assert.True(t, strings.HasPrefix(stderr, c.name+": "), stderr)
				assert.Contains(t, stderr, src.want)
				assert.Equal(t, 1, strings.Count(stderr, "\n"), "one line")
				assert.NotContains(t, stderr, "cannot read manifest")
			})
		}
	}
}

// TestMissingModuleIsNoMissingManifest: a probe module that is not there
// is a problem in the manifest, at its line, not a missing manifest.
func TestMissingModuleIsNoMissingManifest(t *testing.T) {
	path := filepath.Join(t.TempDir(), "gate.toml")
	writeFile(t, path, "[[tools]]\nname = \"x\"\nprobe = { module = \"nope.wasm\" }\n")
	code, _, stderr := gatectl(t, "check", "-m", path)
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, stderr, "gatectl check: 1 problem(s) in "+path+":\n"+path+":3:")
	assert.NotContains(t, stderr, "no manifest at")
}

// TestCheckJSONBadManifest: check --json on a manifest it cannot open
// prints the problems as JSON on stdout, each with its file, line, column
// and key where known, with stderr's text as without --json, and exit 2.
func TestCheckJSONBadManifest(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "gate.toml")
	writeFile(t, bad, "[runtime]\nttl = 30\n\n[[tools]]\nname = \"x\"\nprobe = \"envv:A\"\n")
	missing := filepath.Join(dir, "missing.toml")
	syntax := filepath.Join(dir, "syntax.toml")
	writeFile(t, syntax, "[[tools]]\nname = \"x\n")

	tests := []struct {
		name, path string
		want       []manifestProblem // messages: a prefix
	}{
		{"problems", bad, []manifestProblem{
			{File: bad, Line: 2, Column: 7, Key: "runtime.ttl", Message: "want a duration"},
			{File: bad, Line: 6, Column: 9, Key: "tools[0].probe", Message: "probe shorthand \"envv:A\": unknown kind"},
		}},
		{"syntax", syntax, []manifestProblem{{File: syntax, Line: 2, Column: 10, Message: ""}}},
		{"missing", missing, []manifestProblem{{File: missing, Message: "cannot read manifest: no such file or directory"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, text, textErr := gatectl(t, "check", "-m", tt.path)
			require.Equal(t, exitUsage, code)
			assert.Empty(t, text, "without --json, nothing on stdout")

			code, stdout, stderr := gatectl(t, "check", "--json", "-m", tt.path)
			assert.Equal(t, exitUsage, code)
			assert.Equal(t, textErr, stderr, "stderr as without --json")
			var got checkProblems
			dec := json.NewDecoder(strings.NewReader(stdout))
			dec.DisallowUnknownFields()
			require.NoError(t, dec.Decode(&got), stdout)
			assert.Equal(t, tt.path, got.Manifest)
			require.Len(t, got.Problems, len(tt.want), stdout)
			for i, w := range tt.want {
				p := got.Problems[i]
				assert.True(t, strings.HasPrefix(p.Message, w.Message), "problem %d: %q does not start %q", i, p.Message, w.Message)
				assert.NotEmpty(t, p.Message)
				p.Message, w.Message = "", ""
				assert.Equal(t, w, p, "problem %d", i)
			}
			// Where a position is not known, it is left out.
			if tt.name == "missing" {
				assert.NotContains(t, stdout, `"line"`)
				assert.NotContains(t, stdout, `"key"`)
			}
		})
	}
}
