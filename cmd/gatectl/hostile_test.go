package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// hostileTextManifest's deploy_check probe sets a reason and logs a line made
// to rewrite a terminal: "\r\x1b[2K" to erase its row and forge
// "deploy_prod  available", OSC 52 to write the clipboard, U+202E to
// reverse what follows, a tab to shift the columns.
var hostileTextManifest = filepath.Join("testdata", "hostile", "gate.toml")

// assertTerminalSafe fails when s holds a byte or character that a
// terminal acts on instead of showing: C0 controls but the newlines the
// layout writes, DEL, C1, bidirectional controls, invalid UTF-8.
func assertTerminalSafe(t *testing.T, s string) {
	t.Helper()
	require.True(t, utf8.ValidString(s), "output is not valid UTF-8:\n%q", s)
	for i, r := range s {
		bad := r < 0x20 && r != '\n' || r == 0x7f || r >= 0x80 && r <= 0x9f ||
			r == 0x061c || r == 0x200e || r == 0x200f || r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069
		if bad {
			t.Fatalf("output holds %U at byte %d:\n%q", r, i, s)
		}
	}
}

// TestHostileProbeFresh rebuilds the hostile probe from its source: a
// stale committed module would test something else than its comment says.
func TestHostileProbeFresh(t *testing.T) {
	_, err := exec.LookPath("wat2wasm")
	require.NoError(t, err, "wat2wasm is needed to check testdata/probes: apt-get install wabt")
	out := filepath.Join(t.TempDir(), "hostile_reason.wasm")
	cmd := exec.Command("wat2wasm", filepath.Join("testdata", "probes", "hostile_reason.wat"), "-o", out)
	b, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s", b)
	built, err := os.ReadFile(out)
	require.NoError(t, err)
	committed, err := os.ReadFile(filepath.Join("testdata", "probes", "hostile_reason.wasm"))
	require.NoError(t, err)
	assert.Equal(t, built, committed, "testdata/probes/hostile_reason.wasm is stale: wat2wasm testdata/probes/hostile_reason.wat -o testdata/probes/hostile_reason.wasm")
}

// TestCheckHostileReason: a probe's reason cannot rewrite the check table.
// The row still says unavailable, the summary is there, and the reason is
// shown escaped, so the reader sees that something odd was there.
func TestCheckHostileReason(t *testing.T) {
	code, stdout, stderr := gatectl(t, "check", "-m", hostileTextManifest)
	assert.Equal(t, exitUnavailable, code, stderr)
	assertTerminalSafe(t, stdout)
	assert.Regexp(t, `(?m)^deploy_check +unavailable +\S+ +testdata/probes/hostile_reason\.wasm +\\r\\x1b\[2Kdeploy_prod  available  \\x1b\]52;c;ZXZpbA==\\a\\u202e\\tdone \[denied 1: env "GATECTL_HOSTILE_WANTS"\]$`, stdout)
	assert.Contains(t, stdout, "\n1 of 2 tools available; the model would not be offered the 1 hidden tool(s).\n")
	assertGolden(t, "check_hostile.txt", maskLatency(stdout))

	code, stdout, _ = gatectl(t, "check", "-m", hostileTextManifest, "--json")
	assert.Equal(t, exitUnavailable, code)
	var report checkReport
	require.NoError(t, json.Unmarshal([]byte(stdout), &report))
	require.Len(t, report.Tools, 2)
	assert.Equal(t, []denialJSON{{Kind: "env", Request: "GATECTL_HOSTILE_WANTS",
		Message: `env "GATECTL_HOSTILE_WANTS" not granted to probe "deploy_check"`}}, report.Tools[0].Denials)
	assert.Equal(t, 1, report.Tools[0].Denied)
	assert.Equal(t, []denialJSON{}, report.Tools[1].Denials, "a tool without a probe was denied nothing")
}

// TestProbeRunHostile: the same probe through probe run, its log and its
// denial included.
func TestProbeRunHostile(t *testing.T) {
	code, stdout, stderr := gatectl(t, "probe", "run", "-v", "--name", "deploy_check", filepath.Join("testdata", "probes", "hostile_reason.wasm"))
	assert.Equal(t, exitUnavailable, code, stderr)
	assertTerminalSafe(t, stdout)
	assert.Regexp(t, `^deploy_check: unavailable: \\r\\x1b\[2Kdeploy_prod  available  \\x1b\]52;c;ZXZpbA==\\a\\u202e\\tdone \(`, stdout)
	assert.Contains(t, stdout, "\n  denied: env \"GATECTL_HOSTILE_WANTS\" not granted to probe \"deploy_check\"\n")
	assert.Contains(t, stdout, "\n  log warn: \\r\\x1b[2Kdeploy_prod  available  \\x1b]52;c;ZXZpbA==\\a\\u202e\\tdone\n")
}

// TestProbeRunTool runs a manifest's tool by name, with the manifest's
// grants, config and budget.
func TestProbeRunTool(t *testing.T) {
	tests := []struct {
		name   string
		args   []string
		code   int
		stdout []string // substrings of stdout, in order
		stderr string   // a substring of stderr
	}{
		{"hostile module", []string{"--tool", "deploy_check", "-m", hostileTextManifest}, exitUnavailable, []string{
			`deploy_check: unavailable: \r\x1b[2Kdeploy_prod  available  \x1b]52;c;ZXZpbA==\a\u202e\tdone (`,
			"\n  denied: env \"GATECTL_HOSTILE_WANTS\" not granted to probe \"deploy_check\"\n",
			"\n  log warn: \\r\\x1b[2K",
			"\n  probe: testdata/probes/hostile_reason.wasm, budget 50ms\n",
			"\n  grants: env GATECTL_GRANTED; dial -; import -\n",
			"\n  config: mode=hostile\n",
		}, ""},
		{"standard probe", []string{"--tool", "notify_team", "-m", checkManifest}, exitUnavailable, []string{
			"notify_team: unavailable: Missing environment variables: GATECTL_UNSET (",
			"\n  probe: env:GATECTL_UNSET, budget 100ms\n",
			"\n  grants: env GATECTL_UNSET; dial -; import -\n",
		}, ""},
		{"the tool's own budget", []string{"--tool", "spin", "-m", checkManifest}, exitProbeError, []string{
			`spin: error: probe "spin" ran past its 20ms budget in probe`,
		}, ""},
		{"a server", []string{"--tool", "mcp:filesystem", "-m", checkManifest}, exitOK, []string{
			"mcp:filesystem: available (",
		}, ""},
		{"no probe", []string{"--tool", "echo", "-m", checkManifest}, exitOK, []string{
			"echo: available (no probe: always available)\n",
		}, ""},
		{"unknown tool", []string{"--tool", "serch_web", "-m", checkManifest}, exitUsage, nil,
			`has no tool or server named "serch_web"; did you mean "search_web"?`},
		{"unknown, nothing near", []string{"--tool", "zzzzzzzzzzzz", "-m", checkManifest}, exitUsage, nil,
			`; it has search_web, notify_team, cache_data, spin, echo, mcp:filesystem`},
		{"grants come from the manifest", []string{"--tool", "notify_team", "-m", checkManifest, "--env", "X"}, exitUsage, nil,
			"--env does not go with --tool"},
		{"no target with --tool", []string{"--tool", "notify_team", "-m", checkManifest, "env:HOME"}, exitUsage, nil,
			`takes no TARGET, got "env:HOME"`},
		{"-m without --tool", []string{"-m", checkManifest, "env:HOME"}, exitUsage, nil, "-m goes with --tool"},
		{"bad manifest", []string{"--tool", "x", "-m", filepath.Join("testdata", "nope.toml")}, exitUsage, nil, "nope.toml"},
	}
	t.Setenv("GATECTL_SERP_API_KEY", "k")
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := gatectl(t, append([]string{"probe", "run"}, tt.args...)...)
			assert.Equal(t, tt.code, code, "stdout: %s\nstderr: %s", stdout, stderr)
			assertTerminalSafe(t, stdout)
			rest := stdout
			for _, want := range tt.stdout {
				i := strings.Index(rest, want)
				if !assert.GreaterOrEqual(t, i, 0, "%q not in (the rest of) %q", want, stdout) {
					break
				}
				rest = rest[i+1:] // in order by where each starts
			}
			assert.Contains(t, stderr, tt.stderr)
		})
	}

	code, stdout, _ := gatectl(t, "probe", "run", "--json", "--tool", "deploy_check", "-m", hostileTextManifest)
	assert.Equal(t, exitUnavailable, code)
	assertGolden(t, "probe_run_tool.json", portable(t, maskTimings(stdout)))
}

// hostileSkills writes skills whose names, descriptions, folder names and
// requirements carry terminal controls.
func hostileSkills(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	write := func(folder, content string) {
		require.NoError(t, os.MkdirAll(filepath.Join(dir, folder), 0o755))
		writeFile(t, filepath.Join(dir, folder, "SKILL.md"), content)
	}
	// The name forges a row; the description clears the screen.
	write("forger", "---\nname: \"evil\\r\\e[2Kfine-skill  active\"\ndescription: \"x\\e[2Jy\\u202ez\"\nrequires_tools: [\"tool\\e]52;c;QQ==\\a\"]\n---\n")
	// No name: the folder's name, with OSC 52 and a bidi override in it, is used.
	write("fold\x1b]52;c;QQ==\x07er\u202e", "---\ndescription: \"folder named skill\"\nrequires_env: [\"GATECTL_\\e[31mRED\"]\n---\n")
	return dir
}

func TestSkillsHostileText(t *testing.T) {
	dir := hostileSkills(t)
	t.Chdir(t.TempDir()) // no ./gate.toml here
	for _, args := range [][]string{
		{"skills", "--path", dir},
		{"doctor", "skills", "--path", dir},
		{"doctor", "skills", "--requirements", "--path", dir},
	} {
		t.Run(strings.Join(args[:len(args)-2], " "), func(t *testing.T) {
			code, stdout, stderr := gatectl(t, args...)
			assert.Equal(t, exitOK, code, stderr)
			assertTerminalSafe(t, stdout)
			assertTerminalSafe(t, stderr)
			assert.Contains(t, stdout, `evil\r\x1b[2Kfine-skill  active`)
			assert.Contains(t, stdout, `fold\x1b]52;c;QQ==\aer\u202e`)
		})
	}
	_, stdout, _ := gatectl(t, "skills", "--path", dir)
	assert.Contains(t, stdout, `Missing required tools: tool\x1b]52;c;QQ==\a`)
	assert.Contains(t, stdout, "\n2 skills: ", "the summary is there")
}
